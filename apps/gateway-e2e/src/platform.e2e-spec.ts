import { randomUUID } from 'node:crypto';
import { tenantHeaders } from '@crm/testing';
import { Client, eventually, startClient, TestTenant } from './client';

// What the gateway adds around the services: OpenAPI, docs, routing, a service going down,
// and services refusing calls that bypass the gateway.

let client: Client;
let a: TestTenant;

beforeAll(async () => {
  client = await startClient('platform');
  a = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown());

it('serves the merged OpenAPI description and a docs page without credentials', async () => {
  const doc = await client.raw('/v1/crm/openapi.json');
  expect(doc.status).toBe(200);
  const paths = Object.keys(doc.body.paths);
  expect(paths).toEqual(
    expect.arrayContaining([
      '/v1/crm/people',
      '/v1/crm/people/{id}',
      '/v1/crm/people/{id}/notes',
      '/v1/crm/tenant-info',
    ]),
  );
  expect(doc.body.paths['/v1/crm/people'].post).toBeDefined();
  const docs = await client.raw('/docs');
  expect(docs.status).toBe(200);
  expect(String(docs.body)).toMatch(/<html/i);
});

it('answers 404 in the envelope for a path no service owns', async () => {
  const res = await client.rest(a, 'GET', '/no-such-area/things');
  expect(res.status).toBe(404);
  expect(res.body).toMatchObject({ data: null, statusCode: 404 });
});

it('answers 503 naming the service while it is down, and recovers when it is back', async () => {
  await client.stack.stop('crm-people');
  try {
    const down = await client.rest(a, 'GET', `/people/${randomUUID()}`);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ data: null, statusCode: 503 });
    expect(down.body.message).toContain('crm-people');
  } finally {
    await client.stack.start('crm-people');
  }
  await eventually(async () => {
    expect((await client.rest(a, 'POST', '/people', { firstname: 'Back' })).status).toBe(201);
  });
});

it('services refuse calls that bypass the gateway (no internal token)', async () => {
  const people = client.stack.processes.get('crm-people')!;
  const res = await fetch(`${people.url}/v1/crm/people/${randomUUID()}`, {
    headers: tenantHeaders(a.id),
  });
  expect(res.status).toBe(401);
  const spoofed = await fetch(`${people.url}/v1/crm/people/${randomUUID()}`, {
    headers: { ...tenantHeaders(a.id), 'X-Internal-Token': 'guess' },
  });
  expect(spoofed.status).toBe(401);
});

it('passes a request id through and returns it', async () => {
  const res = await client.rest(a, 'GET', `/people/${randomUUID()}`, undefined, {
    'X-Request-Id': 'trace-me-123',
  });
  expect(res.headers.get('x-request-id')).toBe('trace-me-123');
});
