import { randomBytes, randomUUID } from 'node:crypto';
import type { VerifyApiKeyReply } from '@crm/messaging';
import { Subjects } from '@crm/messaging';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@crm/config';
import { freePort, NATS_TEST_URL, tenantHeaders } from '@crm/testing';
import { GatewayConfig } from '../config';
import { createGatewayApp } from '../gateway.app';
import {
  bootGateway,
  closedPortUrl,
  eventually,
  RunningGateway,
  json,
} from '../../test/support/gateway';
import { startSubgraph, Subgraph } from '../../test/support/subgraph';
import { TenantInfoStub } from '../../test/support/tenant-info-stub';
import { hashApiKey } from '../auth/api-key.verifier';

// The gateway serving the supergraph file composed at build time (the default): it starts and is
// ready with no subgraph up, a subgraph that is down fails only its own fields, and every
// operation passes the GraphQL limits first. crm-people is a small real subgraph (person(id)
// only); crm-companies and tenant-info are down.

/** How often graphql-armor's depth rule runs (the other rules run beside it). */
const mockDepthChecks = { count: 0 };
jest.mock('@escape.tech/graphql-armor-max-depth', () => {
  const actual = jest.requireActual('@escape.tech/graphql-armor-max-depth');
  return {
    ...actual,
    maxDepthRule: (options: unknown) => {
      const rule = actual.maxDepthRule(options);
      return (context: unknown) => {
        mockDepthChecks.count++;
        return rule(context);
      };
    },
  };
});

const KEY = `lim-${randomBytes(16).toString('hex')}`;
const keys = new Map<string, VerifyApiKeyReply>([
  [
    hashApiKey(KEY),
    { valid: true, keyId: randomUUID(), tenantId: 'l-a', modules: ['crm', 'tenant-info'] },
  ],
]);

let stub: TenantInfoStub;
let subgraph: Subgraph;
let dev: RunningGateway;
let prod: RunningGateway;
let prodOpen: RunningGateway;

function post(gw: RunningGateway, body: unknown) {
  return fetch(`${gw.url}/graphql`, {
    method: 'POST',
    headers: { ...tenantHeaders('l-a'), Authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
}
const graphql = (gw: RunningGateway, query: string) => post(gw, { query });

/** The answer's HTTP status and its only error. */
async function rejected(res: Response) {
  const body = await json(res);
  expect(body.errors).toHaveLength(1);
  return { status: res.status, error: body.errors[0], data: body.data };
}

/**
 * An operation the gateway parsed, validated and planned (HTTP 200): the subgraph standing in for
 * crm-people may still refuse the fields it does not have, inside the answer.
 */
async function passedLimits(res: Response) {
  const body = await json(res);
  const limited = (body.errors ?? []).filter((e: { extensions?: object }) =>
    Object.hasOwn(e.extensions ?? {}, 'limit'),
  );
  expect(limited).toEqual([]);
  expect(res.status).toBe(200);
}

/** person { cards { company { managedBy { person { ... { id } } } } } }: `depth` fields deep. */
function nested(depth: number, leaf = 'id'): string {
  const path = ['cards', 'company', 'managedBy', 'person'];
  let inner = leaf;
  for (let level = depth - 1; level >= 2; level--) inner = `${path[(level - 2) % 4]} { ${inner} }`;
  return `{ person(id: "p-1") { ${inner} } }`;
}

beforeAll(async () => {
  stub = await TenantInfoStub.start();
  await stub.answer(Subjects.tenantInfo.verifyApiKey, (data) => ({
    response: keys.get((data as { keyHash: string }).keyHash) ?? { valid: false },
  }));
  const peoplePort = await freePort();
  subgraph = await startSubgraph(peoplePort);
  const services = {
    CRM_PEOPLE_URL: `http://127.0.0.1:${peoplePort}`,
    CRM_COMPANIES_URL: await closedPortUrl(),
    TENANT_INFO_URL: await closedPortUrl(),
  };
  // SUPERGRAPH_SOURCE is not set: the file is the default.
  [dev, prod, prodOpen] = await Promise.all([
    bootGateway(services),
    bootGateway({ ...services, NODE_ENV: 'production', GRAPHQL_MAX_ALIASES: '1' }),
    bootGateway({
      ...services,
      NODE_ENV: 'production',
      GRAPHQL_INTROSPECTION: 'true',
      GRAPHQL_SUGGESTIONS: 'true',
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([dev, prod, prodOpen].map((gw) => gw?.app.close()));
  await subgraph?.stop();
  await stub?.close();
});

describe('the supergraph file', () => {
  it('is served from the start and the gateway is ready while subgraphs are down', async () => {
    // ready once NATS is connected: no subgraph is asked
    await eventually(async () => expect((await fetch(`${dev.url}/health/ready`)).status).toBe(200));
    const res = await graphql(dev, '{ person(id: "p-1") { id firstname } }');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { person: { id: 'p-1', firstname: 'Ada' } } });
  });

  it('that does not load stops the start instead of answering 503 later', async () => {
    const broken = path.join(os.tmpdir(), `supergraph-${randomUUID()}.graphql`);
    writeFileSync(broken, 'schema { query: Query }\ntype Query {');
    const app = await createGatewayApp(
      loadConfig(GatewayConfig, {
        NODE_ENV: 'test',
        NATS_URL: NATS_TEST_URL,
        ADMIN_TOKEN: 'admin-token-for-tests-0123456789',
        SUPERGRAPH_FILE: broken,
      }),
    );
    try {
      await expect(app.init()).rejects.toThrow(/Syntax Error/);
    } finally {
      await app.close();
      rmSync(broken);
    }
  });

  it("a subgraph that is down fails its own fields with 503; the others' still answer", async () => {
    const res = await graphql(dev, '{ person(id: "p-1") { id } company(id: "c-1") { id } }');
    const body = await json(res);
    expect(body.data).toEqual({ person: { id: 'p-1' }, company: null });
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({
      message: 'The service crm-companies cannot be reached; try again later',
      extensions: { code: 'SERVICE_UNAVAILABLE', statusCode: 503 },
    });
  });
});

describe('GraphQL limits (HTTP 400 naming the limit and the figures)', () => {
  it('depth: 10 levels pass, 11 do not', async () => {
    await passedLimits(await graphql(dev, nested(10)));
    const { status, error } = await rejected(await graphql(dev, nested(11)));
    expect(status).toBe(400);
    expect(error).toMatchObject({
      message: 'Query depth limit of 10 exceeded, found 11.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400, limit: 'depth', max: 10 },
    });
  });

  it('aliases: 15 pass, 16 do not; the limit is configurable (1 here in production)', async () => {
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: person(id: "p-${i}") { id }`).join(' ')} }`;
    expect((await graphql(dev, aliases(15))).status).toBe(200);
    const { status, error } = await rejected(await graphql(dev, aliases(16)));
    expect(status).toBe(400);
    expect(error).toMatchObject({
      message: 'Aliases limit of 15 exceeded, found 16.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400, limit: 'aliases', max: 15 },
    });
    const low = await rejected(await graphql(prod, aliases(2)));
    expect(low.status).toBe(400);
    expect(low.error.message).toBe('Aliases limit of 1 exceeded, found 2.');
  });

  it('cost: a wide selection deep down is refused', async () => {
    // 100 scalars at depth 10 (allowed): cost about 6,000
    const { status, error } = await rejected(await graphql(dev, nested(10, 'id '.repeat(100))));
    expect(status).toBe(400);
    expect(error.message).toMatch(/^Query Cost limit of 2000 exceeded, found \d+(\.\d+)?\.$/);
    expect(error.extensions).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      statusCode: 400,
      limit: 'cost',
      max: 2000,
    });
  });

  it('directives: 20 pass, 21 do not', async () => {
    const directives = (n: number) =>
      `{ person(id: "p-1") { ${'id @include(if: true) '.repeat(n)}} }`;
    expect((await graphql(dev, directives(20))).status).toBe(200);
    const { status, error } = await rejected(await graphql(dev, directives(21)));
    expect(status).toBe(400);
    expect(error).toMatchObject({
      message: 'Directives limit of 20 exceeded, found 21.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400, limit: 'directives' },
    });
  });

  it('tokens: a document of more than 1000 tokens is not parsed', async () => {
    // 15 tokens around the list of ids
    const preview = (ids: number) =>
      `{ mergePeoplePreview(targetId: "t", sourceIds: [${'"s" '.repeat(ids)}]) { __typename } }`;
    await passedLimits(await graphql(dev, preview(985)));
    const { status, error } = await rejected(await graphql(dev, preview(986)));
    expect(status).toBe(400);
    expect(error).toMatchObject({
      message: 'Token limit of 1000 exceeded: the document has more than 1000 tokens.',
      extensions: { code: 'GRAPHQL_PARSE_FAILED', statusCode: 400, limit: 'tokens', max: 1000 },
    });
  });

  it("run once per distinct query: the runner's document cache keeps the result", async () => {
    const query = `{ person(id: "p-${randomUUID()}") { id } }`;
    const before = mockDepthChecks.count;
    for (let i = 0; i < 3; i++) expect((await graphql(dev, query)).status).toBe(200);
    expect(mockDepthChecks.count - before).toBe(1);
    await graphql(dev, `{ person(id: "p-${randomUUID()}") { id } }`);
    expect(mockDepthChecks.count - before).toBe(2);
  });

  it('refuses a batch (an array body) with HTTP 400, running none of it', async () => {
    const before = subgraph.received.length;
    const res = await post(dev, [
      { query: '{ person(id: "p-1") { id } }' },
      { query: '{ person(id: "p-2") { id } }' },
    ]);
    const { status, error } = await rejected(res);
    expect(status).toBe(400);
    expect(error).toEqual({
      message: 'Batched operations are not accepted: send one operation per request',
      extensions: { code: 'BAD_REQUEST', statusCode: 400 },
    });
    expect(subgraph.received.length).toBe(before);
  });
});

describe('introspection and field suggestions', () => {
  const introspect = '{ __schema { queryType { name } } }';
  const typo = '{ person(id: "p-1") { firstnam } }';

  it('are on outside production', async () => {
    const res = await graphql(dev, introspect);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    const { error } = await rejected(await graphql(dev, typo));
    expect(error.message).toBe(
      'Cannot query field "firstnam" on type "Person". Did you mean "firstname" or "lastname"?',
    );
  });

  it('are off with NODE_ENV=production', async () => {
    const res = await graphql(prod, introspect);
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0]).toMatchObject({
      message:
        'GraphQL introspection has been disabled, but the requested query contained the field "__schema".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400 },
    });
    expect((await graphql(prod, '{ __type(name: "Person") { name } }')).status).toBe(400);
    const { status, error } = await rejected(await graphql(prod, typo));
    expect(status).toBe(400);
    expect(error.message).toBe('Cannot query field "firstnam" on type "Person".');
    // __typename is not introspection of the schema
    expect((await graphql(prod, '{ person(id: "p-1") { __typename } }')).status).toBe(200);
  });

  it('are on in production when configured (GRAPHQL_INTROSPECTION, GRAPHQL_SUGGESTIONS)', async () => {
    expect((await graphql(prodOpen, introspect)).status).toBe(200);
    const { error } = await rejected(await graphql(prodOpen, typo));
    expect(error.message).toContain('Did you mean "firstname" or "lastname"?');
  });
});
