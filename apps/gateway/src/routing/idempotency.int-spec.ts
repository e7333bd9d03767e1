import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import type { VerifyApiKeyReply } from '@crm/messaging';
import { Subjects } from '@crm/messaging';
import { NATS_TEST_URL, tenantHeaders } from '@crm/testing';
import { bootGateway, closedPortUrl, json, RunningGateway } from '../../test/support/gateway';
import { TenantInfoStub } from '../../test/support/tenant-info-stub';
import { startUpstream, Upstream } from '../../test/support/upstream';
import { hashApiKey } from '../auth/api-key.verifier';
import { IDEMPOTENCY_SUBJECT } from './idempotency-store';

// POST with Idempotency-Key through the gateway, against real NATS (a JetStream stream keeps the
// keys)
// and a real HTTP server standing in for crm-people that counts what reaches it.

const MODULES: VerifyApiKeyReply['modules'] = ['crm', 'events', 'bookings', 'tenant-info'];
const KEY_A = `a-${randomBytes(16).toString('hex')}`;
const KEY_B = `b-${randomBytes(16).toString('hex')}`;
const keys = new Map<string, VerifyApiKeyReply>([
  [hashApiKey(KEY_A), { valid: true, keyId: randomUUID(), tenantId: 'idem-a', modules: MODULES }],
  [hashApiKey(KEY_B), { valid: true, keyId: randomUUID(), tenantId: 'idem-b', modules: MODULES }],
]);

let stub: TenantInfoStub;
let people: Upstream;
let gw: RunningGateway;
let nc: NatsConnection;
let js: JetStreamClient;
/** What the stand-in answers per path: a status, after a delay; each call gets a new id. */
const behaviour = new Map<string, { status: number; delayMs?: number }>();

const headers = (tenant: 'idem-a' | 'idem-b', idempotencyKey?: string) => ({
  ...tenantHeaders(tenant),
  Authorization: `Bearer ${tenant === 'idem-a' ? KEY_A : KEY_B}`,
  'Content-Type': 'application/json',
  ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
});
const post = (path: string, body: unknown, key?: string, tenant: 'idem-a' | 'idem-b' = 'idem-a') =>
  fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: headers(tenant, key),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const reached = (path: string) => people.received.filter((r) => r.url === path).length;
const newKey = () => `key-${randomUUID()}`;
const newPath = () => `/v1/crm/people/idem-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  stub = await TenantInfoStub.start();
  await stub.answer(Subjects.tenantInfo.verifyApiKey, (data) => ({
    response: keys.get((data as { keyHash: string }).keyHash) ?? { valid: false },
  }));
  people = await startUpstream();
  people.handlers.push((req, res) => {
    const path = req.url ?? '';
    const how = behaviour.get(path);
    if (!how) return false;
    setTimeout(() => {
      // sized, as the services' answers are (an unsized one streams and is not kept)
      const answer = JSON.stringify({ data: { id: randomUUID() }, statusCode: how.status });
      res.writeHead(how.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(answer),
        location: `${path}/x`,
      });
      res.end(answer);
    }, how.delayMs ?? 0);
    return true;
  });
  gw = await bootGateway({
    CRM_PEOPLE_URL: people.url,
    CRM_COMPANIES_URL: await closedPortUrl(),
    TENANT_INFO_URL: await closedPortUrl(),
    GRAPHQL_SUBGRAPHS: 'crm-people',
    SUPERGRAPH_RETRY_MS: '600000',
    KEY_CACHE_TTL_MS: '600000',
  });
  nc = await connect({ servers: NATS_TEST_URL });
  js = nc.jetstream();
});

afterAll(async () => {
  await nc?.close();
  await gw?.app.close();
  await people?.close();
  await stub?.close();
});

describe('POST with Idempotency-Key', () => {
  it('a retry gets the first answer again, marked as replayed, without reaching the service', async () => {
    const path = newPath();
    behaviour.set(path, { status: 201 });
    const key = newKey();
    const first = await post(path, { name: 'Ada' }, key);
    expect(first.status).toBe(201);
    const body = await first.text();
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post(path, { name: 'Ada' }, key);
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(`${path}/x`);
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(reached(path)).toBe(1);
    // without the header every call goes through
    await post(path, { name: 'Ada' });
    expect(reached(path)).toBe(2);
  });

  it('30 concurrent calls with one key reach the service once', async () => {
    const path = newPath();
    behaviour.set(path, { status: 201, delayMs: 300 });
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const res = await post(path, { name: 'Grace' }, key);
        return {
          status: res.status,
          replayed: res.headers.get('idempotent-replayed'),
          retryAfter: res.headers.get('retry-after'),
          body: await json(res),
        };
      }),
    );
    expect(reached(path)).toBe(1);
    const originals = answers.filter((a) => a.status === 201 && a.replayed === null);
    expect(originals).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.retryAfter).toBe('1');
      expect(a.body.errors).toEqual([
        expect.objectContaining({ field: 'Idempotency-Key', rule: 'idempotencyInFlight' }),
      ]);
    }
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    // once answered, every retry gets that answer
    const retry = await post(path, { name: 'Grace' }, key);
    expect(await json(retry)).toEqual(originals[0].body);
    expect(reached(path)).toBe(1);
  });

  it('another body or path with the key is a 409 naming the header, translated; another tenant has its own keys', async () => {
    const path = newPath();
    behaviour.set(path, { status: 201 });
    const key = newKey();
    expect((await post(path, { name: 'Ada' }, key)).status).toBe(201);
    const otherBody = await fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { ...headers('idem-a', key), 'Accept-Language': 'de' },
      body: JSON.stringify({ name: 'Eve' }),
    });
    expect(otherBody.status).toBe(409);
    expect(await json(otherBody)).toMatchObject({
      statusCode: 409,
      message: `Der Idempotency-Key ${key} wurde mit einer anderen Anfrage verwendet (Methode, Pfad oder Inhalt)`,
      errors: [expect.objectContaining({ field: 'Idempotency-Key', rule: 'idempotencyReused' })],
    });
    const otherPath = newPath();
    behaviour.set(otherPath, { status: 201 });
    expect((await post(otherPath, { name: 'Ada' }, key)).status).toBe(409);
    expect(reached(otherPath)).toBe(0);
    // the same key of another tenant is another key
    expect((await post(path, { name: 'Ada' }, key, 'idem-b')).status).toBe(201);
    expect(reached(path)).toBe(2);
  });

  it('a 5xx answer is not kept: the retry reaches the service', async () => {
    const path = newPath();
    behaviour.set(path, { status: 500 });
    const key = newKey();
    expect((await post(path, { name: 'Ada' }, key)).status).toBe(500);
    behaviour.set(path, { status: 201 });
    expect((await post(path, { name: 'Ada' }, key)).status).toBe(201);
    const third = await post(path, { name: 'Ada' }, key);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(reached(path)).toBe(2);
  });

  it('a 4xx answer is kept like any other', async () => {
    const path = newPath();
    behaviour.set(path, { status: 400 });
    const key = newKey();
    expect((await post(path, { name: '' }, key)).status).toBe(400);
    const again = await post(path, { name: '' }, key);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(reached(path)).toBe(1);
  });

  it('a call whose gateway went away is taken over once its lease has passed, not before', async () => {
    const path = newPath();
    behaviour.set(path, { status: 201 });
    const body = JSON.stringify({ name: 'Ada' });
    const fingerprint = createHash('sha256')
      .update(`POST\n${path}\napplication/json\n`)
      .update(body)
      .digest('hex');
    const slotOf = (key: string) => createHash('sha256').update(`idem-a\n${key}`).digest('hex');
    const leased = newKey();
    // a record as a gateway writes it when it takes a call (the stream exists: the calls above)
    await js.publish(
      `${IDEMPOTENCY_SUBJECT}.${slotOf(leased)}`,
      JSON.stringify({ fingerprint, state: 'pending', leaseUntil: Date.now() + 60_000 }),
    );
    const busy = await post(path, body, leased);
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    const abandoned = newKey();
    await js.publish(
      `${IDEMPOTENCY_SUBJECT}.${slotOf(abandoned)}`,
      JSON.stringify({ fingerprint, state: 'pending', leaseUntil: Date.now() - 1 }),
    );
    expect((await post(path, body, abandoned)).status).toBe(201);
    expect(reached(path)).toBe(1);
  });

  it('400 for a malformed key, 413 for a body over 1 MiB; reads and public calls ignore the header', async () => {
    const path = newPath();
    behaviour.set(path, { status: 201 });
    // (fetch trims spaces around a header value itself: not a case to send)
    const suffix = randomUUID();
    for (const bad of [`schlüssel-${suffix}`, 'x'.repeat(201), `tab\tinside-${suffix}`]) {
      const res = await post(path, {}, bad);
      expect(res.status).toBe(400);
      expect((await json(res)).errors).toEqual([
        expect.objectContaining({ field: 'Idempotency-Key', rule: 'idempotencyKey' }),
      ]);
    }
    const large = await post(path, JSON.stringify({ notes: 'x'.repeat(1024 * 1024) }), newKey());
    expect(large.status).toBe(413);
    expect(reached(path)).toBe(0);
    const key = newKey();
    for (let i = 0; i < 2; i++) {
      const read = await fetch(`${gw.url}/v1/crm/people/p-1`, { headers: headers('idem-a', key) });
      expect(read.headers.get('idempotent-replayed')).toBeNull();
    }
    for (let i = 0; i < 2; i++) {
      const open = await fetch(`${gw.url}/v1/crm/bookings/public/e-1`, {
        method: 'POST',
        headers: { ...tenantHeaders('idem-a'), 'Idempotency-Key': key },
      });
      expect(open.headers.get('idempotent-replayed')).toBeNull();
    }
  });
});
