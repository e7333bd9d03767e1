import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createApiClient } from '@crm/api-client';
import { BOOKING_SERVICES, Client, startClient, TestTenant } from './client';

// The front door (issue 22) on one running stack of every service:
// - the GraphQL IDE at GET /graphql: the page and every asset it names come from the gateway, and
//   the headers its form writes into GraphiQL are the ones a POST /graphql needs (the page's own
//   script runs against stand-ins of the DOM, React and GraphiQL: no browser here; the request
//   is then sent as GraphiQL's fetcher sends it);
// - libs/api-client: its committed OpenAPI description is the one the gateway merges and serves
//   (UPDATE_API_CLIENT=1 rewrites it from the stack; then `npm run api-client` regenerates the
//   types), and its typed calls work through the gateway.

const COMMITTED = path.join(__dirname, '../../../libs/api-client/openapi.json');

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('frontdoor', BOOKING_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
}, 180000);
afterAll(async () => client?.stack.shutdown());

async function fetchText(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${client.stack.gatewayUrl}${path}`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** Runs the page's script, fills in the form, submits it: the props GraphiQL is rendered with. */
function renderWithForm(script: string, values: Record<string, string>) {
  const fields: Record<string, { value: string }> = {};
  for (const n of ['tenant', 'key', 'integrationName', 'integrationProvider', 'language'])
    fields[n] = { value: '' };
  let submit: ((e: { preventDefault(): void }) => void) | undefined;
  const rendered: { props: Record<string, unknown> }[] = [];
  const storage = () => {
    const m = new Map<string, string>();
    return {
      getItem: (k: string) => m.get(k) ?? null,
      setItem: (k: string, v: string) => m.set(k, v),
    };
  };
  const posted: { url: string; headers: unknown }[] = [];
  const GraphiQL = Object.assign(() => null, {
    createFetcher:
      (options: { url: string }) => (_params: unknown, opts: { headers?: unknown }) => {
        posted.push({ url: options.url, headers: opts.headers });
        return Promise.resolve({ data: {} });
      },
  });
  const context = {
    document: {
      getElementById: (id: string) =>
        id === 'headers'
          ? { elements: fields, addEventListener: (_: string, f: typeof submit) => (submit = f) }
          : {},
    },
    localStorage: storage(),
    sessionStorage: storage(),
    GraphiQL,
    React: { createElement: (_type: unknown, props: Record<string, unknown>) => ({ props }) },
    ReactDOM: {
      createRoot: () => ({ render: (el: { props: Record<string, unknown> }) => rendered.push(el) }),
    },
  };
  vm.runInNewContext(script, context);
  expect(fields.integrationName.value).toBe('graphiql'); // prefilled defaults
  for (const [k, v] of Object.entries(values)) fields[k].value = v;
  submit!({ preventDefault: () => undefined });
  return { props: rendered[rendered.length - 1].props, posted };
}

it('serves the page and its assets, and the form gives GraphiQL the headers a query needs', async () => {
  const page = await fetchText('/graphql', { Accept: 'text/html' });
  expect(page.status).toBe(200);
  expect(page.type).toBe('text/html; charset=utf-8');
  const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  expect(assets.length).toBeGreaterThanOrEqual(6);
  const bodies = new Map<string, string>();
  for (const url of assets) {
    expect(url.startsWith('/graphql/ide/')).toBe(true);
    const asset = await fetchText(url);
    expect({ url, status: asset.status }).toEqual({ url, status: 200 });
    expect(asset.type).toMatch(url.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
    bodies.set(url, asset.text);
  }
  expect(bodies.get('/graphql/ide/graphiql.min.js')).toContain('createFetcher');
  expect(bodies.get('/graphql/ide/react-dom.production.min.js')).toContain('createRoot');

  const { props, posted } = renderWithForm(bodies.get('/graphql/ide/ide.js')!, {
    tenant: a.id,
    key: a.key,
    language: 'de',
  });
  const headers = JSON.parse(props.headers as string) as Record<string, string>;
  // the fetcher posts to /graphql with the editor's headers; without a tenant it sends nothing
  type Fetcher = (params: unknown, opts: { headers: unknown }) => Promise<unknown>;
  const fetcher = props.fetcher as Fetcher;
  expect(await fetcher({ query: '{ __typename }' }, { headers: {} })).toEqual({
    errors: [{ message: expect.stringContaining('Fill in the tenant') }],
  });
  expect(posted).toEqual([]);
  await fetcher({ query: '{ __typename }' }, { headers });
  expect(posted).toEqual([{ url: '/graphql', headers }]);
  expect(headers).toEqual({
    'X-Service-TenantId': a.id,
    'X-Integration-Name': 'graphiql',
    'X-Integration-Provider': 'browser',
    'Accept-Language': 'de',
    Authorization: `Bearer ${a.key}`,
  });

  // what GraphiQL's fetcher sends: the editor's headers on a JSON POST to /graphql
  const run = (query: string) =>
    client.raw('/graphql', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ query }),
    });
  const schema = await run('{ __schema { queryType { name } } }');
  expect(schema.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  const people = await run('{ people { totalResults } }');
  expect(people.body).toEqual({ data: { people: { totalResults: 0 } } });
  // without the key the form leaves Authorization out, and the gateway says what is missing
  const noKey = JSON.parse(
    renderWithForm(bodies.get('/graphql/ide/ide.js')!, { tenant: a.id }).props.headers as string,
  );
  expect(noKey.Authorization).toBeUndefined();
  const refused = await client.raw('/graphql', {
    method: 'POST',
    headers: { ...noKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: '{ people { totalResults } }' }),
  });
  expect(refused.status).toBe(401);
});

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
