import { randomBytes, randomUUID } from 'node:crypto';
import { ServiceTestClient, tenantHeaders } from '@crm/testing';
import { RunningService, startCrmPeople } from './test/service-harness';

// A service started with INTERNAL_TOKEN serves only the gateway (which sends the token in
// X-Internal-Token): a direct call, REST or GraphQL, is refused in the envelope; /health is open.
const TOKEN = randomBytes(24).toString('base64url');
const tenant = `it-token-${randomBytes(4).toString('hex')}`;
const ENTITIES = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Person { id firstname } } }`;

let svc: RunningService;
let api: ServiceTestClient;
beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_internal_token', { INTERNAL_TOKEN: TOKEN });
  api = new ServiceTestClient(svc.url);
});
afterAll(async () => svc?.app.close());

const withToken = (token: string) => tenantHeaders(tenant, { 'X-Internal-Token': token });

function expectRefused(res: { status: number; body: any }) {
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({
    data: null,
    statusCode: 401,
    message: 'This service accepts calls through the gateway only',
  });
}

describe('a service with INTERNAL_TOKEN', () => {
  let personId: string;
  beforeAll(async () => {
    const res = await api.rest('POST', '/people', { firstname: 'Ada' }, withToken(TOKEN));
    expect(res.status).toBe(201);
    personId = res.body.data.id;
  });

  it('refuses REST calls without the token, or with another one', async () => {
    expectRefused(await api.rest('GET', `/people/${personId}`, undefined, tenantHeaders(tenant)));
    expectRefused(await api.rest('GET', `/people/${personId}`, undefined, withToken(`${TOKEN}x`)));
    expectRefused(await api.rest('GET', `/people/${personId}`, undefined, withToken('')));
    expectRefused(await api.rest('POST', '/people', { firstname: 'Eve' }, tenantHeaders(tenant)));
    expectRefused(await api.rest('GET', '/people/not-a-route', undefined, tenantHeaders(tenant)));
  });

  it('refuses GraphQL without the token, _entities of any tenant included', async () => {
    const reps = [{ __typename: 'Person', id: personId }];
    expectRefused(await api.graphql(ENTITIES, { reps }, tenantHeaders(tenant)));
    expectRefused(await api.graphql(ENTITIES, { reps }, tenantHeaders(randomUUID())));
    expectRefused(await api.graphql('{ __typename }', {}, withToken('wrong-token-value')));
  });

  it('refuses the OpenAPI document without the token', async () => {
    const res = await fetch(`${svc.url}/v1/crm/openapi.json`);
    expect(res.status).toBe(401);
  });

  it('serves the gateway: REST and GraphQL with the token', async () => {
    const rest = await api.rest('GET', `/people/${personId}`, undefined, withToken(TOKEN));
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ id: personId, firstname: 'Ada' });
    const reps = [{ __typename: 'Person', id: personId }];
    const gql = await api.graphql(ENTITIES, { reps }, withToken(TOKEN));
    expect(gql.status).toBe(200);
    expect(gql.body.data._entities).toEqual([{ id: personId, firstname: 'Ada' }]);
  });

  it('answers the health probes without any header', async () => {
    for (const p of ['/health/live', '/health/ready', '/health/live/']) {
      const res = await fetch(`${svc.url}${p}`);
      expect(res.status).toBe(200);
    }
  });
});

describe('its OpenAPI document (read by the gateway, which caches it)', () => {
  it('carries an ETag and answers 304 to a matching If-None-Match', async () => {
    const url = `${svc.url}/v1/crm/openapi.json`;
    const first = await fetch(url, { headers: { 'X-Internal-Token': TOKEN } });
    expect(first.status).toBe(200);
    expect(((await first.json()) as { paths: object }).paths).toHaveProperty(['/v1/crm/people']);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    const again = await fetch(url, {
      headers: { 'X-Internal-Token': TOKEN, 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await fetch(url, {
      headers: { 'X-Internal-Token': TOKEN, 'If-None-Match': '"x"' },
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).toBe(etag);
  });
});
