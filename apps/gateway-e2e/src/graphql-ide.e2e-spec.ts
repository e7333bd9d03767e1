import vm from 'node:vm';
import { Client, startClient, TestTenant } from './client';

// The GraphQL IDE at GET /graphql on a running stack: the page and every asset it names come from
// the gateway, and the headers its form writes into GraphiQL are the ones a POST /graphql needs
// (the page's own script is run against stand-ins of the DOM, React and GraphiQL: no browser
// here; the request is then sent as GraphiQL's fetcher sends it).

let client: Client;
let a: TestTenant;

beforeAll(async () => {
  client = await startClient('graphqlide');
  a = await client.tenant();
}, 120000);
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
  const GraphiQL = Object.assign(() => null, {
    createFetcher: (options: { url: string }) => ({ url: options.url }),
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
  return rendered[rendered.length - 1].props;
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

  const props = renderWithForm(bodies.get('/graphql/ide/ide.js')!, {
    tenant: a.id,
    key: a.key,
    language: 'de',
  });
  expect(props.fetcher).toEqual({ url: '/graphql' });
  const headers = JSON.parse(props.headers as string) as Record<string, string>;
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
    renderWithForm(bodies.get('/graphql/ide/ide.js')!, { tenant: a.id }).headers as string,
  );
  expect(noKey.Authorization).toBeUndefined();
  const refused = await client.raw('/graphql', {
    method: 'POST',
    headers: { ...noKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: '{ people { totalResults } }' }),
  });
  expect(refused.status).toBe(401);
});
