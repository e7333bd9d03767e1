import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Subjects } from '@crm/messaging';
import { SecretBox } from '@crm/secrets';
import { createServiceApp } from '@crm/service-kit';
import { RunningService, runSql, ServiceTestKit, startServiceForTest } from '@crm/testing';
import { AppModule, SERVICE_NAME } from '../app.module';
import { EventsConfig } from '../config';
import { Received, SourceEvents, WebhookReceiver } from './test/webhook-receiver';

// Webhook secrets at rest (SECRETS_KEY, @crm/secrets) against the real service, PostgreSQL and
// NATS: what I1 and I6 store is sealed (the raw column holds no clear secret), the worker still
// signs with the clear ones, a plain secret from before sealing still signs until a start seals
// it, and a rotated SECRETS_KEY (new key first, old second) has every row sealed with the new key
// at the next start, after which the old key can go.

jest.setTimeout(180_000);

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const K1 = key('k1');
const K2 = key('k2');
const K3 = key('k3');
const ENV = {
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCHEDULE_S: '1,1,1,1,1',
  WEBHOOK_WORKER_POLL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '3000',
};

/** The events app with SECRETS_KEY `keys`: on a fresh database, or on `databaseUrl` (a restart). */
const start = (keys: string, databaseUrl?: string) =>
  startServiceForTest({
    service: SERVICE_NAME,
    appModule: (config) => AppModule.forRoot(config),
    config: EventsConfig,
    createApp: createServiceApp,
    dbName: 'events_it_webhook_secrets',
    databaseUrl,
    env: { ...ENV, SECRETS_KEY: keys },
  });

let svc: RunningService;
let t: ServiceTestKit;
let source: SourceEvents;
const receivers: WebhookReceiver[] = [];
const tenant = `tenant-s-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  svc = await start(K1);
  t = new ServiceTestKit(svc);
  source = await SourceEvents.connect();
}, 120_000);
afterAll(async () => {
  await source?.close();
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

/** Restarts the service on the same database with SECRETS_KEY `keys`. */
async function restart(keys: string) {
  await t.close();
  svc = await start(keys, svc.databaseUrl);
  t = new ServiceTestKit(svc);
}

async function receiver() {
  const r = await WebhookReceiver.start();
  receivers.push(r);
  return r;
}

async function register(url: string) {
  const res = await t.call(
    'POST',
    '/integrations/webhooks',
    { url, eventTypes: ['person.created'] },
    tenant,
  );
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

const stored = async (id: string) =>
  (
    await runSql<{ secret: string; previousSecret: string | null }>(
      svc.databaseUrl,
      `SELECT secret, "previousSecret" FROM "WebhookEndpoint" WHERE id = $1::uuid`,
      [id],
    )
  )[0]!;

/** Neither the secret nor its key material (the base64 after `whsec_`) appears in `raw`. */
const expectHidden = (raw: string | null, ...secrets: string[]) => {
  for (const s of secrets) {
    expect(raw).not.toContain(s);
    expect(raw).not.toContain(s.slice('whsec_'.length));
  }
};

const personCreated = () =>
  source.publish(Subjects.crmPeople.peopleCreated, { tenantId: tenant, personIds: [randomUUID()] });

/** Throws unless one of the request's signatures is the secret's. */
const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id']!,
    'webhook-timestamp': r.headers['webhook-timestamp']!,
    'webhook-signature': r.headers['webhook-signature']!,
  });

let sealedEndpoint: { id: string; secret: string; previous: string; hook: WebhookReceiver };
let legacyEndpoint: { id: string; secret: string; hook: WebhookReceiver };

describe('webhook secrets at rest', () => {
  it('I1 and I6 store the secret sealed with the first key; deliveries are signed with the clear ones', async () => {
    const hook = await receiver();
    const first = await register(hook.url);
    const raw = await stored(first.id);
    expect(raw.secret.startsWith('v1:k1:')).toBe(true);
    expectHidden(raw.secret, first.secret);
    expect(SecretBox.fromText(K1).open(raw.secret)).toBe(first.secret);

    await personCreated();
    const [r1] = await hook.waitFor(1);
    expect(() => verify(first.secret, r1!)).not.toThrow();

    const rotated = await t.call(
      'POST',
      `/integrations/webhooks/${first.id}/secret`,
      { overlapMinutes: 60 },
      tenant,
    );
    expect(rotated.status).toBe(200);
    const second = rotated.body.data.secret as string;
    const raw2 = await stored(first.id);
    expect(raw2.secret.startsWith('v1:k1:')).toBe(true);
    expect(raw2.previousSecret?.startsWith('v1:k1:')).toBe(true);
    for (const column of [raw2.secret, raw2.previousSecret])
      expectHidden(column, first.secret, second);

    await personCreated();
    const [, r2] = await hook.waitFor(2);
    // two signatures during the overlap: the new secret's and the old one's
    expect(r2!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => verify(second, r2!)).not.toThrow();
    expect(() => verify(first.secret, r2!)).not.toThrow();
    sealedEndpoint = { id: first.id, secret: second, previous: first.secret, hook };
  });

  it('a plain secret stored before sealing still signs; I6 seals it when it becomes the previous one', async () => {
    const hook = await receiver();
    const { id } = await register(hook.url);
    const plain = `whsec_${randomBytes(32).toString('base64')}`;
    await runSql(svc.databaseUrl, `UPDATE "WebhookEndpoint" SET secret = $2 WHERE id = $1::uuid`, [
      id,
      plain,
    ]);
    await personCreated();
    const [r] = await hook.waitFor(1);
    expect(() => verify(plain, r!)).not.toThrow();
    legacyEndpoint = { id, secret: plain, hook };

    // another endpoint's rotation: the plain current secret is sealed as it moves to previous
    const other = await register(hook.url);
    await runSql(svc.databaseUrl, `UPDATE "WebhookEndpoint" SET secret = $2 WHERE id = $1::uuid`, [
      other.id,
      plain,
    ]);
    const res = await t.call(
      'POST',
      `/integrations/webhooks/${other.id}/secret`,
      { overlapMinutes: 60 },
      tenant,
    );
    expect(res.status).toBe(200);
    const raw = await stored(other.id);
    expect(raw.previousSecret?.startsWith('v1:k1:')).toBe(true);
    expectHidden(raw.previousSecret, plain);
    await t.call('DELETE', `/integrations/webhooks/${other.id}`, undefined, tenant);
  });

  it('after SECRETS_KEY is rotated (new key first) the start seals every row with the new key; deliveries still verify', async () => {
    await restart(`${K2},${K1}`);
    const rows = await runSql<{ secret: string; previousSecret: string | null }>(
      svc.databaseUrl,
      `SELECT secret, "previousSecret" FROM "WebhookEndpoint"`,
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.secret.startsWith('v1:k2:')).toBe(true);
      if (row.previousSecret !== null) expect(row.previousSecret.startsWith('v1:k2:')).toBe(true);
    }
    const sealed = await stored(sealedEndpoint.id);
    expectHidden(sealed.secret, sealedEndpoint.secret, sealedEndpoint.previous);
    expectHidden(sealed.previousSecret, sealedEndpoint.secret, sealedEndpoint.previous);
    const legacy = await stored(legacyEndpoint.id);
    expectHidden(legacy.secret, legacyEndpoint.secret);

    await personCreated();
    const [, , r] = await sealedEndpoint.hook.waitFor(3);
    expect(() => verify(sealedEndpoint.secret, r!)).not.toThrow();
    expect(() => verify(sealedEndpoint.previous, r!)).not.toThrow();
    const [, l] = await legacyEndpoint.hook.waitFor(2);
    expect(() => verify(legacyEndpoint.secret, l!)).not.toThrow();
  });

  it('a SECRETS_KEY without the key the rows are sealed with stops the start, naming the key id; the new key alone works', async () => {
    await t.close();
    await expect(start(K3, svc.databaseUrl)).rejects.toThrow('value sealed with key id "k2"');
    svc = await start(K2, svc.databaseUrl);
    t = new ServiceTestKit(svc);
    await personCreated();
    const [, , , r] = await sealedEndpoint.hook.waitFor(4);
    expect(() => verify(sealedEndpoint.secret, r!)).not.toThrow();
    const [, , l] = await legacyEndpoint.hook.waitFor(3);
    expect(() => verify(legacyEndpoint.secret, l!)).not.toThrow();
  });
});
