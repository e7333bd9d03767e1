import { randomBytes, randomUUID } from 'node:crypto';
import type { VerifyApiKeyReply } from '@crm/messaging';
import { Subjects } from '@crm/messaging';
import { freePort, tenantHeaders } from '@crm/testing';
import {
  bootGateway,
  eventually,
  INTERNAL_TOKEN,
  RunningGateway,
  json,
} from '../../test/support/gateway';
import { startSubgraph, Subgraph } from '../../test/support/subgraph';
import { TenantInfoStub } from '../../test/support/tenant-info-stub';
import { hashApiKey } from '../auth/api-key.verifier';

// POST /graphql against a real subgraph standing in for crm-people, with key checks answered
// over real NATS, with the supergraph composed at run time (SUPERGRAPH_SOURCE=introspect, the
// development option). The subgraph is started after the gateway: composition must wait for it.

const KEY = `gql-${randomBytes(16).toString('hex')}`;
const KEY_ID = randomUUID();
const OTHER = `gql-other-${randomBytes(16).toString('hex')}`;
const NO_CRM = `gql-nocrm-${randomBytes(16).toString('hex')}`;
const keys = new Map<string, VerifyApiKeyReply>([
  [hashApiKey(KEY), { valid: true, keyId: KEY_ID, tenantId: 'g-a', modules: ['crm', 'events'] }],
  [hashApiKey(OTHER), { valid: true, keyId: randomUUID(), tenantId: 'g-b', modules: ['crm'] }],
  [hashApiKey(NO_CRM), { valid: true, keyId: randomUUID(), tenantId: 'g-c', modules: ['events'] }],
]);

let stub: TenantInfoStub;
let gw: RunningGateway;
let subgraphPort: number;
let subgraph: Subgraph | null = null;

function graphql(
  query: string,
  headers: Record<string, string | undefined> = {},
  tenant = 'g-a',
  key = KEY,
) {
  const h: Record<string, string> = { ...tenantHeaders(tenant), Authorization: `Bearer ${key}` };
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete h[k];
    else h[k] = v;
  }
  return fetch(`${gw.url}/graphql`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({ query }),
  });
}

beforeAll(async () => {
  stub = await TenantInfoStub.start();
  await stub.answer(Subjects.tenantInfo.verifyApiKey, (data) => ({
    response: keys.get((data as { keyHash: string }).keyHash) ?? { valid: false },
  }));
  subgraphPort = await freePort();
  gw = await bootGateway({
    CRM_PEOPLE_URL: `http://127.0.0.1:${subgraphPort}`,
    SUPERGRAPH_SOURCE: 'introspect',
    GRAPHQL_SUBGRAPHS: 'crm-people',
    SUPERGRAPH_RETRY_MS: '200',
    SUPERGRAPH_POLL_MS: '0',
  });
});

afterAll(async () => {
  await gw?.app.close();
  await subgraph?.stop();
  await stub?.close();
});

describe('before the subgraph is up', () => {
  it('answers 503 on /graphql (GraphQL-shaped) without crashing; readiness does not wait', async () => {
    const res = await graphql('{ person(id: "1") { id } }');
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body.errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 });
    expect(body.errors[0].message).toContain('GraphQL schema is not available yet');
    // REST to the running services must not wait for the supergraph
    await eventually(async () => expect((await fetch(`${gw.url}/health/ready`)).status).toBe(200));
    expect((await fetch(`${gw.url}/health/live`)).status).toBe(200);
  });

  it('composes once the subgraph starts', async () => {
    subgraph = await startSubgraph(subgraphPort);
    await eventually(async () => {
      expect((await graphql('{ person(id: "1") { id } }')).status).toBe(200);
    }, 10000);
  });
});

describe('once composed', () => {
  it('runs a query and forwards the tenant headers and the caller to the subgraph', async () => {
    const res = await graphql('{ person(id: "p-1") { id firstname } }', {
      'Accept-Language': 'de',
      'X-Integration-Contact': 'ops@example.com',
      'X-Request-Id': 'gql-trace-1',
      'X-Caller-Id': randomUUID(),
      'X-Internal-Token': 'forged',
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { person: { id: 'p-1', firstname: 'Ada' } } });
    const seen = subgraph!.received.at(-1)!;
    expect(seen).toMatchObject({
      'x-integration-name': 'test-suite',
      'x-integration-provider': 'crm-tests',
      'x-service-tenantid': 'g-a',
      'x-integration-contact': 'ops@example.com',
      'accept-language': 'de',
      'x-request-id': 'gql-trace-1',
      'x-caller-id': KEY_ID,
      'x-internal-token': INTERNAL_TOKEN,
    });
    expect(seen.authorization).toBeUndefined();
  });

  it('keeps extensions.code and statusCode of subgraph errors', async () => {
    const res = await graphql('{ person(id: "missing") { id } }');
    const body = await json(res);
    expect(body.data).toEqual({ person: null });
    expect(body.errors[0].message).toBe('Person missing was not found');
    expect(body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    expect(body.errors[0].extensions.stacktrace).toBeUndefined();
  });

  it('gives its own errors a statusCode too (invalid query -> 400)', async () => {
    const res = await graphql('{ person(id: "1") { nope } }');
    const body = await json(res);
    expect(body.errors[0].extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      statusCode: 400,
    });
  });

  it.each(['X-Integration-Name', 'X-Integration-Provider', 'X-Service-TenantId'])(
    'HTTP 400 naming %s when it is missing',
    async (header) => {
      const res = await graphql('{ person(id: "1") { id } }', { [header]: undefined });
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({
        errors: [
          {
            message: `The header ${header} is required and must not be empty`,
            extensions: { code: 'BAD_REQUEST', statusCode: 400 },
          },
        ],
      });
    },
  );

  it('a malformed body is an HTTP 400 in the GraphQL shape; a non-JSON body is refused', async () => {
    const headers = { ...tenantHeaders('g-a'), Authorization: `Bearer ${KEY}` };
    const bad = await fetch(`${gw.url}/graphql`, { method: 'POST', headers, body: '{"query":' });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({
      errors: [
        {
          message: 'The request body is not valid JSON',
          extensions: { code: 'BAD_REQUEST', statusCode: 400 },
        },
      ],
    });
    const text = await fetch(`${gw.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'text/plain' },
      body: '{ person(id: "1") { id } }',
    });
    expect(text.status).toBe(400);
    // Apollo's CSRF prevention: a simple (non-preflighted) request never runs an operation.
    expect((await json(text)).errors[0].extensions).toEqual({
      code: 'BAD_REQUEST',
      statusCode: 400,
    });
  });

  it('a batch (array body) is refused with a translated 400; variables of the wrong type too', async () => {
    const headers = {
      ...tenantHeaders('g-a'),
      Authorization: `Bearer ${KEY}`,
      'Content-Type': 'application/json',
      'Accept-Language': 'de',
    };
    const query = '{ person(id: "1") { id } }';
    const batch = await fetch(`${gw.url}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify([{ query }, { query }]),
    });
    expect(batch.status).toBe(400);
    expect(await json(batch)).toEqual({
      errors: [
        {
          message:
            'Mehrere Operationen in einer Anfrage werden nicht angenommen: bitte eine Operation pro Anfrage senden',
          extensions: { code: 'BAD_REQUEST', statusCode: 400 },
        },
      ],
    });
    const variables = await fetch(`${gw.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'Accept-Language': 'en' },
      body: JSON.stringify({ query, variables: [1] }),
    });
    expect(variables.status).toBe(400);
    expect((await json(variables)).errors[0].message).toBe(
      'The field variables of the request body has the wrong type',
    );
  });

  it('HTTP 401 without a key or with an unknown one, 403 for a foreign key', async () => {
    const before = subgraph!.received.length;
    const none = await graphql('{ person(id: "1") { id } }', { Authorization: undefined });
    expect(none.status).toBe(401);
    expect((await json(none)).errors[0].extensions).toEqual({
      code: 'UNAUTHENTICATED',
      statusCode: 401,
    });
    const unknown = await graphql('{ person(id: "1") { id } }', {
      Authorization: 'Bearer not-a-key-of-anyone-at-all',
    });
    expect(unknown.status).toBe(401);
    const foreign = await graphql('{ person(id: "1") { id } }', {}, 'g-a', OTHER);
    expect(foreign.status).toBe(403);
    expect((await json(foreign)).errors[0]).toEqual({
      message: 'The API key does not belong to tenant g-a',
      extensions: { code: 'FORBIDDEN', statusCode: 403 },
    });
    expect(subgraph!.received.length).toBe(before);
  });

  it('refuses the part of a query whose subgraph module is not in the tariff', async () => {
    const before = subgraph!.received.length;
    const res = await graphql(
      '{ person(id: "1") { id } }',
      { 'Accept-Language': 'de' },
      'g-c',
      NO_CRM,
    );
    const body = await json(res);
    expect(body.data).toEqual({ person: null });
    expect(body.errors[0]).toMatchObject({
      message: 'Das Modul crm ist nicht Teil des Tarifs des Mandanten',
      extensions: { code: 'FORBIDDEN', statusCode: 403 },
    });
    expect(subgraph!.received.length).toBe(before);
  });

  it('answers 503 naming the subgraph when it goes down after composition', async () => {
    await subgraph!.stop();
    subgraph = null;
    const res = await graphql('{ person(id: "1") { id } }');
    const body = await json(res);
    expect(body.errors[0]).toMatchObject({
      message: 'The service crm-people cannot be reached; try again later',
      extensions: { code: 'SERVICE_UNAVAILABLE', statusCode: 503 },
    });
  });
});
