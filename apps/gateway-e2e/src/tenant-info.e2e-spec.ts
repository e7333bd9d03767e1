import { Client, eventually, startClient, TestTenant } from './client';

// TI1-TI3 through the gateway, REST and GraphQL, and the admin API changing what a tenant sees.

let client: Client;
let a: TestTenant;

beforeAll(async () => {
  client = await startClient('tenantinfo');
  a = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown());

it('TI1 general information: tenant id and contact details', async () => {
  const res = await client.rest(a, 'GET', '/tenant-info');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ statusCode: 200, message: null, metaData: { totalResults: 1 } });
  expect(res.body.data).toMatchObject({
    id: a.id,
    name: `Tenant ${a.id}`,
    contact: { email: `owner@${a.id}.example.com` },
  });
});

it('TI2 the tariff with every module and its functions, translated', async () => {
  const res = await client.rest(a, 'GET', '/tenant-info/tariff');
  expect(res.status).toBe(200);
  expect(res.body.data.id).toBe('complete');
  const modules = res.body.data.modules.map((m: { module: string }) => m.module).sort();
  expect(modules).toEqual(['bookings', 'crm', 'events', 'tenant-info']);
  const crm = res.body.data.modules.find((m: { module: string }) => m.module === 'crm');
  expect(crm.functions.map((f: { key: string }) => f.key)).toContain('people');
  const de = await client.rest(a, 'GET', '/tenant-info/tariff', undefined, {
    'Accept-Language': 'de',
  });
  expect(de.body.data.modules.map((m: { name: string }) => m.name)).not.toEqual(
    res.body.data.modules.map((m: { name: string }) => m.name),
  );
});

it('TI3 subscription information', async () => {
  const res = await client.rest(a, 'GET', '/tenant-info/subscription');
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({
    tenantId: a.id,
    status: 'ACTIVE',
    seats: expect.any(Number),
  });
});

it('the same through GraphQL, with the REST field names', async () => {
  const res = await client.graphql(
    a,
    `{ tenantInfo { id name contact { email } } tenantTariff { id modules { module functions { key } } } tenantSubscription { tenantId status } }`,
  );
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.tenantInfo).toEqual({
    id: a.id,
    name: `Tenant ${a.id}`,
    contact: { email: `owner@${a.id}.example.com` },
  });
  expect(res.body.data.tenantTariff.id).toBe('complete');
  expect(res.body.data.tenantSubscription).toEqual({ tenantId: a.id, status: 'ACTIVE' });
});

it('a tariff change through the admin API shows in TI2 at once and in module access within seconds', async () => {
  const t = await client.tenant();
  expect((await client.rest(t, 'GET', '/events')).status).not.toBe(403);
  const changed = await client.admin('PUT', `/tenants/${t.id}/tariff`, { tariffId: 'starter' });
  expect(changed.status).toBe(200);
  expect((await client.rest(t, 'GET', '/tenant-info/tariff')).body.data.id).toBe('starter');
  // gateways drop their cached answer when tenant-info announces the change
  await eventually(async () => {
    const refused = await client.rest(t, 'GET', '/events');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('events');
  }, 3000);
});
