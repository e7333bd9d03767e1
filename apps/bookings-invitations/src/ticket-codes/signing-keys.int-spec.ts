import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { SecretBox } from '@crm/secrets';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { RunningService, ServiceTestKit } from '@crm/testing';
import type { BookingsInvitationsConfig } from '../config';
import { book, BookedEvent } from '../event-tickets/test/event-ticket-fixtures';
import { startReplica } from '../test/service-harness';
import { TicketTestKit } from '../ticket-types/test/ticket-test-kit';

// The events' Ed25519 private keys at rest (SECRETS_KEY, @crm/secrets) against the real service,
// PostgreSQL and NATS: the key written with an event's first ticket type is stored sealed (the raw
// column holds no PEM), ticket codes still verify with the published key and check in; a plain key
// from before sealing still signs until a start seals it; a rotated SECRETS_KEY (new key first,
// old second) has every key sealed with the new one at the next start, the codes unchanged.

jest.setTimeout(180_000);

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const K1 = key('k1');
const K2 = key('k2');
const K3 = key('k3');
const ENV = { SALE_SWEEP_INTERVAL_MS: '0' };

let t: TicketTestKit;
/** The service restarted on t's database and NATS with another SECRETS_KEY (null: t's own). */
let restarted: { svc: RunningService; kit: ServiceTestKit } | null = null;
let originalClosed = false;

beforeAll(async () => {
  t = await TicketTestKit.start('bookings_invitations_it_signing_keys', {
    ...ENV,
    SECRETS_KEY: K1,
  });
}, 120_000);
afterAll(async () => {
  await restarted?.svc.app.close();
  // t's own instance may be closed already (restart): closing it again is harmless
  await t?.close();
});

const call = (method: string, path: string, body?: unknown) =>
  (restarted?.kit ?? t).call(method, path, body, t.A);

/** Stops the running instance and starts the service on the same database with SECRETS_KEY `keys`. */
async function restart(keys: string): Promise<void> {
  const natsUrl = t.svc.app.get<BookingsInvitationsConfig>(SERVICE_CONFIG).NATS_URL;
  if (restarted) await restarted.svc.app.close();
  else if (!originalClosed) await t.svc.app.close();
  originalClosed = true;
  restarted = null;
  const svc = await startReplica(t.svc.databaseUrl, {
    ...ENV,
    NATS_URL: natsUrl,
    SECRETS_KEY: keys,
  });
  restarted = { svc, kit: new ServiceTestKit(svc) };
}

const storedKey = async (eventId: string) =>
  (
    await t.sql<{ privateKey: string; publicKey: string }>(
      `SELECT "privateKey", "publicKey" FROM "EventSigningKey" WHERE "eventId" = $1::uuid`,
      [eventId],
    )
  )[0]!;

const codeOf = async (ticketId: string): Promise<string> => {
  const res = await call('GET', `/event-tickets/${ticketId}`);
  expect(res.status).toBe(200);
  return res.body.data.code;
};

/** Whether `code` verifies with the key ET13 publishes for the event. */
async function verifiesOffline(eventId: string, code: string): Promise<boolean> {
  const pub = await call('GET', `/event-tickets/verification?eventId=${eventId}`);
  expect(pub.status).toBe(200);
  const [v, k, payload, sig] = code.split('.');
  return (
    k === pub.body.data.keyId &&
    verify(
      null,
      Buffer.from(`${v}.${k}.${payload}`),
      createPublicKey(pub.body.data.publicKeyPem),
      Buffer.from(sig!, 'base64url'),
    )
  );
}

const checkIn = (code: string, nonce: string) =>
  call('POST', '/event-tickets/check-in', { code, nonce });

/** An event with one ticket type, through whichever instance runs. */
async function ticketed(): Promise<BookedEvent> {
  const eventId = randomUUID();
  await t.snapshot(t.A, eventId);
  const res = await call('POST', '/tickets', {
    eventId,
    name: 'Regular',
    price: '119',
    currency: 'EUR',
    quota: 100,
  });
  expect(res.status).toBe(201);
  return { eventId, typeId: res.body.data.id };
}

let sealed: { ev: BookedEvent; ticketIds: string[]; code: string };
let legacy: { ev: BookedEvent; ticketIds: string[]; code: string; publicKey: string };

describe('signing keys at rest', () => {
  it('stores the key of the first ticket type sealed with the first key; its codes verify and check in', async () => {
    const ev = await ticketed();
    const row = await storedKey(ev.eventId);
    expect(row.privateKey.startsWith('v1:k1:')).toBe(true);
    expect(row.privateKey).not.toContain('PRIVATE KEY');
    // the sealed value is the private key of the published public key
    const pem = SecretBox.fromText(K1).open(row.privateKey);
    expect(pem).toContain('-----BEGIN PRIVATE KEY-----');
    const body = pem.split('\n').slice(1, -2).join('');
    expect(row.privateKey).not.toContain(body);
    expect(createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'pem' })).toBe(
      row.publicKey,
    );

    const { ticketIds } = await book(t, t.A, ev, [
      { firstname: 'Ada', lastname: 'L' },
      { firstname: 'Bo', lastname: 'M' },
    ]);
    const code = await codeOf(ticketIds[0]!);
    expect(await verifiesOffline(ev.eventId, code)).toBe(true);
    expect((await checkIn(code, 'scan-1')).status).toBe(200);
    sealed = { ev, ticketIds, code };
  });

  it('a plain key stored before sealing still signs', async () => {
    const ev = await ticketed();
    // a key pair as it was stored before sealing (never read yet, so not cached)
    const pair = generateKeyPairSync('ed25519');
    const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    await t.sql(
      `UPDATE "EventSigningKey" SET "privateKey" = $2, "publicKey" = $3 WHERE "eventId" = $1::uuid`,
      [ev.eventId, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), publicKey],
    );
    const { ticketIds } = await book(t, t.A, ev, [
      { firstname: 'Cy', lastname: 'N' },
      { firstname: 'Di', lastname: 'O' },
    ]);
    const code = await codeOf(ticketIds[0]!);
    const [v, k, payload, sig] = code.split('.');
    expect(
      verify(
        null,
        Buffer.from(`${v}.${k}.${payload}`),
        createPublicKey(publicKey),
        Buffer.from(sig!, 'base64url'),
      ),
    ).toBe(true);
    expect((await checkIn(code, 'scan-2')).status).toBe(200);
    legacy = { ev, ticketIds, code, publicKey };
  });

  it('after SECRETS_KEY is rotated (new key first) the start seals every key with the new one; codes unchanged and verifying', async () => {
    await restart(`${K2},${K1}`);
    const rows = await t.sql<{ privateKey: string }>(`SELECT "privateKey" FROM "EventSigningKey"`);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      expect(row.privateKey.startsWith('v1:k2:')).toBe(true);
      expect(row.privateKey).not.toContain('PRIVATE KEY');
    }
    expect((await storedKey(legacy.ev.eventId)).publicKey).toBe(legacy.publicKey);

    // Ed25519 is deterministic: the same key gives the same codes
    expect(await codeOf(sealed.ticketIds[0]!)).toBe(sealed.code);
    expect(await codeOf(legacy.ticketIds[0]!)).toBe(legacy.code);
    for (const x of [sealed, legacy]) {
      const code = await codeOf(x.ticketIds[1]!);
      expect(await verifiesOffline(x.ev.eventId, code)).toBe(true);
      expect((await checkIn(code, `scan-${x.ticketIds[1]}`)).status).toBe(200);
    }
    // a new event's key is sealed with the new key
    const ev = await ticketed();
    expect((await storedKey(ev.eventId)).privateKey.startsWith('v1:k2:')).toBe(true);
  });

  it('a SECRETS_KEY without the key the rows are sealed with stops the start, naming the key id; the new key alone works', async () => {
    await expect(restart(K3)).rejects.toThrow('value sealed with key id "k2"');
    await restart(K2);
    expect(await codeOf(sealed.ticketIds[0]!)).toBe(sealed.code);
    expect(await codeOf(legacy.ticketIds[0]!)).toBe(legacy.code);
  });
});
