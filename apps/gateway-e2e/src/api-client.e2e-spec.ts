import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApiClient } from '@crm/api-client';
import { BOOKING_SERVICES, Client, startClient, TestTenant } from './client';

// libs/api-client against a running stack of every service: its committed OpenAPI description
// is the one the gateway merges and serves (UPDATE_API_CLIENT=1 rewrites it from the stack; then
// `npm run api-client` regenerates the types), and its typed calls work through the gateway.

const COMMITTED = path.join(__dirname, '../../../libs/api-client/openapi.json');

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('apiclient', BOOKING_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
}, 180000);
afterAll(async () => client?.stack.shutdown());

const typed = (t: TestTenant, language?: string) =>
  createApiClient({
    baseUrl: client.stack.gatewayUrl,
    tenantId: t.id,
    apiKey: t.key,
    integrationName: 'api-client-test',
    integrationProvider: 'crm-tests',
    language,
  });

it('the committed description is what the gateway serves for the whole stack', async () => {
  const res = await client.raw('/v1/crm/openapi.json', {
    headers: { Authorization: `Bearer ${a.key}` },
  });
  expect(res.status).toBe(200);
  const served = `${JSON.stringify(res.body, null, 2)}\n`;
  if (process.env.UPDATE_API_CLIENT === '1') writeFileSync(COMMITTED, served);
  // a stale file: UPDATE_API_CLIENT=1 on this test, then `npm run api-client`
  expect(served).toBe(readFileSync(COMMITTED, 'utf8'));
});

it('creates and reads a person with typed paths, bodies and answers; errors come typed too', async () => {
  const api = typed(a);
  const created = await api.POST('/v1/crm/people', {
    body: { firstname: 'Ada', lastname: 'Lovelace' },
  });
  expect(created.response.status).toBe(201);
  const id = created.data!.data.id;
  const read = await api.GET('/v1/crm/people/{id}', { params: { path: { id } } });
  expect(read.data!.data).toMatchObject({ id, firstname: 'Ada', lastname: 'Lovelace' });

  // another tenant's client: 404 in the error envelope, in its language
  const foreign = await typed(b, 'de').GET('/v1/crm/people/{id}', { params: { path: { id } } });
  expect(foreign.response.status).toBe(404);
  expect(foreign.data).toBeUndefined();
  expect(foreign.error).toMatchObject({ statusCode: 404 });

  // bad input: 400 naming the field and the rule
  const bad = await api.POST('/v1/crm/people', {
    body: { firstname: 'Ada', lastname: 'Lovelace', customerNumber: 'c'.repeat(201) },
  });
  expect(bad.response.status).toBe(400);
  expect(JSON.stringify(bad.error)).toContain('customerNumber');
});
