import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { runSql, ServiceTestClient, tenantHeaders } from '@crm/testing';
import { startCrmPeople, RunningService } from '../test/service-harness';

// A POST that the gateway forwards with an Idempotency-Key is carried out once by the service
// (issue 23, the drill's doubled creates): the person and the record of the key and answer commit
// together, so a repeat, whether the first answer was lost on the way or the first call is still
// running, gets the first answer and creates nothing.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
const { rest: call } = new ServiceTestClient(() => svc.url);

/** The headers the gateway sends with a keyed POST: the key and the request's fingerprint. */
const keyed = (tenant: string, key: string, body: unknown, extra: Record<string, string> = {}) =>
  tenantHeaders(tenant, {
    'Idempotency-Key': key,
    'X-Service-Idempotency-Fingerprint': createHash('sha256')
      .update(JSON.stringify(body))
      .digest('hex'),
    ...extra,
  });
const peopleNamed = async (tenant: string, lastname: string) =>
  (
    await runSql<{ n: number }>(
      svc.databaseUrl,
      'SELECT count(*)::int AS n FROM "Person" WHERE "tenantId" = $1 AND lastname = $2',
      [tenant, lastname],
    )
  )[0].n;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_keyed_create');
});
afterAll(async () => {
  await svc?.app.close();
});

describe('keyed POST /people', () => {
  it('a repeat gets the first answer, marked replayed, and creates nobody', async () => {
    const body = { firstname: 'Once', lastname: `Only-${randomUUID()}` };
    const first = await call('POST', '/people', body, keyed(A, 'create-1', body));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await call('POST', '/people', body, keyed(A, 'create-1', body));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.text).toBe(first.text);
    expect(await peopleNamed(A, body.lastname)).toBe(1);
  });

  it('new tag texts (an interactive transaction) commit with the key as well', async () => {
    const body = {
      lastname: `Tagged-${randomUUID()}`,
      orgaTags: [{ text: `new-${randomUUID()}` }],
    };
    const first = await call('POST', '/people', body, keyed(A, 'tagged', body));
    const again = await call('POST', '/people', body, keyed(A, 'tagged', body));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.data).toEqual(first.body.data);
    expect(await peopleNamed(A, body.lastname)).toBe(1);
  });

  it('30 concurrent calls with one key create one person and all get its answer', async () => {
    const body = { lastname: `Race-${randomUUID()}` };
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => call('POST', '/people', body, keyed(A, 'race', body))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await peopleNamed(A, body.lastname)).toBe(1);
  });

  it('an answer that never reached the client is given to its repeat', async () => {
    const body = { lastname: `Lost-${randomUUID()}` };
    const headers = keyed(A, 'lost-answer', body);
    const payload = JSON.stringify(body);
    // the client (a gateway killed after forwarding) sends the whole request and leaves at once
    await new Promise<void>((resolve) => {
      const url = new URL(`${svc.url}/v1/crm/people`);
      const req = http.request(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(payload) },
      });
      req.on('error', () => resolve());
      req.end(payload, () => {
        req.destroy();
        resolve();
      });
    });
    const again = await call('POST', '/people', body, headers);
    expect(again.status).toBe(201);
    expect(await peopleNamed(A, body.lastname)).toBe(1);
  });

  it('a refusal (400) is kept and given again; nothing is created', async () => {
    const body = { firstname: 42 };
    const first = await call('POST', '/people', body, keyed(A, 'refused', body));
    const again = await call('POST', '/people', body, keyed(A, 'refused', body));
    expect([first.status, again.status]).toEqual([400, 400]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('the key with another request is a 409 naming the header, in the caller language', async () => {
    const body = { lastname: `Reused-${randomUUID()}` };
    expect((await call('POST', '/people', body, keyed(A, 'reused', body))).status).toBe(201);
    const other = { lastname: `Other-${randomUUID()}` };
    const refused = await call(
      'POST',
      '/people',
      other,
      keyed(A, 'reused', other, { 'Accept-Language': 'de' }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ field: 'Idempotency-Key', rule: 'idempotencyReused' }),
    ]);
    expect(refused.body.message).toMatch(/anderen Anfrage/);
    expect(await peopleNamed(A, other.lastname)).toBe(0);
  });

  it('keys are per tenant: the same key of another tenant creates its own person', async () => {
    const body = { lastname: `Tenants-${randomUUID()}` };
    const ofA = await call('POST', '/people', body, keyed(A, 'shared-key', body));
    const ofB = await call('POST', '/people', body, keyed(B, 'shared-key', body));
    expect([ofA.status, ofB.status]).toEqual([201, 201]);
    expect(ofB.headers.get('idempotent-replayed')).toBeNull();
    expect(ofB.body.data.id).not.toBe(ofA.body.data.id);
  });

  it('a POST without the gateway fingerprint is not keyed here (the public booking keeps its own)', async () => {
    const body = { lastname: `Unkeyed-${randomUUID()}` };
    const headers = tenantHeaders(A, { 'Idempotency-Key': 'unkeyed' });
    await call('POST', '/people', body, headers);
    await call('POST', '/people', body, headers);
    expect(await peopleNamed(A, body.lastname)).toBe(2);
  });
});
