import { randomBytes, randomUUID } from 'node:crypto';
import { Client, eventually, startClient, TestTenant } from './client';

// Headers, API keys, tariff modules and the admin credential, REST and GraphQL, through the gateway.

const REQUIRED = ['X-Integration-Name', 'X-Integration-Provider', 'X-Service-TenantId'];
let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('access');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown());

describe('required headers', () => {
  it.each(REQUIRED)('REST without or with an empty %s -> 400 naming it', async (header) => {
    for (const value of [undefined, '']) {
      const res = await client.rest(a, 'POST', '/people', { firstname: 'x' }, { [header]: value });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ data: null, statusCode: 400 });
      expect(res.body.message).toContain(header);
    }
  });

  it.each(REQUIRED)('GraphQL without %s -> 400 naming it', async (header) => {
    const res = await client.graphql(
      a,
      `{ person(id: "${randomUUID()}") { id } }`,
      {},
      { [header]: undefined },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toContain(header);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400 });
  });

  it('translates the header message', async () => {
    const res = await client.rest(a, 'GET', `/people/${randomUUID()}`, undefined, {
      'X-Integration-Name': undefined,
      'Accept-Language': 'de',
    });
    expect(res.body.message).toBe(
      'Der Header X-Integration-Name ist erforderlich und darf nicht leer sein',
    );
  });
});

describe('API keys', () => {
  it("no key -> 401, unknown key -> 401, another tenant's key -> 403", async () => {
    const none = await client.rest(a, 'GET', `/people/${randomUUID()}`, undefined, {
      Authorization: undefined,
    });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ data: null, statusCode: 401 });
    const unknown = await client.rest(a, 'GET', `/people/${randomUUID()}`, undefined, {
      Authorization: `Bearer crm_${randomBytes(32).toString('base64url')}`,
    });
    expect(unknown.status).toBe(401);
    const foreign = await client.rest(a, 'GET', `/people/${randomUUID()}`, undefined, {
      Authorization: `Bearer ${b.key}`,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.statusCode).toBe(403);
  });

  it('the same rules hold for GraphQL', async () => {
    const q = `{ person(id: "${randomUUID()}") { id } }`;
    const none = await client.graphql(a, q, {}, { Authorization: undefined });
    expect(none.status).toBe(401);
    expect(none.body.errors[0].extensions).toMatchObject({ statusCode: 401 });
    const foreign = await client.graphql(a, q, {}, { Authorization: `Bearer ${b.key}` });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors[0].extensions).toMatchObject({ statusCode: 403 });
  });

  it('a revoked key stops working within seconds', async () => {
    const t = await client.tenant();
    expect((await client.rest(t, 'POST', '/people', { firstname: 'Before' })).status).toBe(201);
    const revoked = await client.admin('DELETE', `/api-keys/${t.keyId}`);
    expect(revoked.status).toBe(200);
    await eventually(async () => {
      expect((await client.rest(t, 'POST', '/people', { firstname: 'After' })).status).toBe(401);
    }, 5000);
  });
});

describe('tariff modules', () => {
  it('a path whose module is not in the tariff -> 403 naming the module; changing the tariff opens it', async () => {
    const t = await client.tenant('starter');
    const events = await client.rest(t, 'GET', '/events');
    expect(events.status).toBe(403);
    expect(events.body.message).toContain('events');
    expect((await client.rest(t, 'POST', '/people', { firstname: 'Starter' })).status).toBe(201);
  });
});

describe('API key scopes', () => {
  let reader: TestTenant;

  beforeAll(async () => {
    reader = await client.issueKey(a.id, { name: 'crm reader', scopes: ['crm:read'] });
  });

  it('REST: crm:read reads people but may not create one, nor read events (403 naming the scope)', async () => {
    expect((await client.rest(reader, 'GET', '/people')).status).toBe(200);
    const create = await client.rest(reader, 'POST', '/people', { firstname: 'Nope' });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({
      data: null,
      statusCode: 403,
      message: 'This API key lacks the scope crm:write',
    });
    const events = await client.rest(reader, 'GET', '/events', undefined, {
      'Accept-Language': 'de',
    });
    expect(events.status).toBe(403);
    expect(events.body.message).toBe('Diesem API-Schlüssel fehlt die Berechtigung events:read');
    // A check that stores nothing is a read.
    const check = await client.rest(reader, 'POST', '/people/validate', {
      firstname: 'Ok',
      lastname: 'Check',
    });
    expect(check.status).toBe(200);
    expect(check.body.data.valid).toBe(true);
    // The full key of the same tenant writes.
    expect((await client.rest(a, 'POST', '/people', { firstname: 'Full' })).status).toBe(201);
  });

  it('GraphQL: a query of people works, a mutation is refused naming crm:write', async () => {
    const query = await client.graphql(reader, '{ people { totalResults } }');
    expect(query.status).toBe(200);
    expect(query.body.errors).toBeUndefined();
    expect(typeof query.body.data.people.totalResults).toBe('number');
    const mutation = await client.graphql(
      reader,
      'mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }',
      { input: { firstname: 'Nope', lastname: 'Scope' } },
    );
    expect(mutation.body.data?.createPerson ?? null).toBeNull();
    expect(mutation.body.errors[0].message).toBe('This API key lacks the scope crm:write');
    expect(mutation.body.errors[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      statusCode: 403,
    });
    const stored = await client.rest(a, 'GET', '/people');
    expect(stored.status).toBe(200);
    expect(stored.body.data.filter((p: { lastname: string }) => p.lastname === 'Scope')).toEqual(
      [],
    );
  });

  it('the admin API names an unknown scope by its index', async () => {
    const bad = await client.admin('POST', `/tenants/${a.id}/api-keys`, {
      name: 'k',
      scopes: ['crm:read', 'events:read', 'crm:delete'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ field: 'scopes[2]', rule: 'isIn' }),
    ]);
  });
});

describe('API key expiry', () => {
  it('a key whose expiresAt passes answers 401 saying when it expired, REST and GraphQL', async () => {
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const t = await client.issueKey(a.id, { name: 'short-lived', expiresAt });
    // Used (and cached by the gateway) while it is valid.
    expect((await client.rest(t, 'GET', '/people')).status).toBe(200);
    let res = await client.rest(t, 'GET', '/people');
    const deadline = Date.parse(expiresAt) + 10_000;
    while (res.status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      res = await client.rest(t, 'GET', '/people');
    }
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      data: null,
      statusCode: 401,
      message: `The API key expired at ${expiresAt}`,
    });
    const gql = await client.graphql(t, '{ people { totalResults } }');
    expect(gql.status).toBe(401);
    expect(gql.body.errors[0].message).toBe(`The API key expired at ${expiresAt}`);
  });

  it('the admin API refuses an expiry that is not ahead', async () => {
    const bad = await client.admin('POST', `/tenants/${a.id}/api-keys`, {
      name: 'k',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ field: 'expiresAt', rule: 'inFuture' }),
    ]);
  });
});

describe('admin API', () => {
  it('refuses a missing or wrong admin token, and a tenant key', async () => {
    expect((await client.admin('GET', '/tariffs', undefined, '')).status).toBe(401);
    expect((await client.admin('GET', '/tariffs', undefined, 'x'.repeat(32))).status).toBe(401);
    expect((await client.admin('GET', '/tariffs', undefined, a.key)).status).toBe(401);
  });

  it('lists tariffs with modules and functions', async () => {
    const res = await client.admin('GET', '/tariffs');
    expect(res.status).toBe(200);
    const complete = res.body.data.find((t: { id: string }) => t.id === 'complete');
    expect(complete.modules.map((m: { module: string }) => m.module).sort()).toEqual([
      'bookings',
      'crm',
      'events',
      'tenant-info',
    ]);
  });

  it('validates bodies and reports conflicts', async () => {
    const bad = await client.admin('POST', '/tenants', { id: 'has space', name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['id', 'name']);
    const dup = await client.admin('POST', '/tenants', { id: a.id, name: 'again' });
    expect(dup.status).toBe(409);
    expect(
      (await client.admin('PUT', `/tenants/${a.id}/tariff`, { tariffId: 'no-such' })).status,
    ).toBe(404);
    expect(
      (
        await client.admin('POST', `/tenants/nobody-${randomUUID().slice(0, 6)}/api-keys`, {
          name: 'k',
        })
      ).status,
    ).toBe(404);
  });
});
