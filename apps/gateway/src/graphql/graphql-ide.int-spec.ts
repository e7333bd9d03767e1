import { readFileSync } from 'node:fs';
import { tenantHeaders } from '@crm/testing';
import { bootGateway, RunningGateway } from '../../test/support/gateway';
import { IDE_ASSET_PREFIX, IDE_ASSETS, packageFile } from './graphql-ide';

// GET /graphql for browsers: on by default, off with NODE_ENV=production unless GRAPHQL_IDE says
// so; the page's assets come from the gateway; GET with a query string and POST answer as a
// gateway without the IDE does. Three real gateways (no subgraph is needed for any of this).

let dev: RunningGateway;
let prod: RunningGateway;
let prodOn: RunningGateway;

beforeAll(async () => {
  [dev, prod, prodOn] = await Promise.all([
    bootGateway(),
    bootGateway({ NODE_ENV: 'production' }),
    bootGateway({ NODE_ENV: 'production', GRAPHQL_IDE: 'true' }),
  ]);
}, 60000);
afterAll(async () => {
  await Promise.all([dev, prod, prodOn].map((g) => g?.app.close()));
});

async function get(gw: RunningGateway, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${gw.url}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

const BROWSER = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

it('serves the page and every asset it names from the gateway, none from elsewhere', async () => {
  const page = await get(dev, '/graphql', BROWSER);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = page.body.toString('utf8');
  const named = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  expect(named.sort()).toEqual(IDE_ASSETS.map((a) => `${IDE_ASSET_PREFIX}${a}`).sort());
  expect(html).not.toMatch(/https?:\/\//);
  for (const field of ['tenant', 'key', 'integrationName', 'integrationProvider', 'language'])
    expect(html).toContain(`name="${field}"`);

  for (const url of named) {
    const asset = await get(dev, url);
    expect({ url, status: asset.status }).toEqual({ url, status: 200 });
    expect(asset.headers.get('content-type')).toMatch(/^text\/(javascript|css); charset=utf-8$/);
    expect(asset.body.length).toBeGreaterThan(100);
  }
  const bundle = await get(dev, `${IDE_ASSET_PREFIX}graphiql.min.js`);
  expect(bundle.body.equals(readFileSync(packageFile('graphiql', 'graphiql.min.js')))).toBe(true);
  const script = (await get(dev, `${IDE_ASSET_PREFIX}ide.js`)).body.toString('utf8');
  for (const header of [
    'X-Service-TenantId',
    'X-Integration-Name',
    'X-Integration-Provider',
    'Authorization',
  ])
    expect(script).toContain(header);

  // nothing but the listed files: no way out of the allow-list
  for (const path of [
    `${IDE_ASSET_PREFIX}package.json`,
    `${IDE_ASSET_PREFIX}..%2F..%2Fpackage.json`,
    `${IDE_ASSET_PREFIX}constructor`,
    `${IDE_ASSET_PREFIX}toString`,
  ])
    expect((await get(dev, path)).status).toBe(404);
});

it('is off with NODE_ENV=production, on again with GRAPHQL_IDE=true', async () => {
  expect((await get(prod, '/graphql', BROWSER)).status).toBe(404);
  expect((await get(prod, `${IDE_ASSET_PREFIX}graphiql.min.js`)).status).toBe(404);
  expect((await get(prodOn, '/graphql', BROWSER)).status).toBe(200);
  expect((await get(prodOn, `${IDE_ASSET_PREFIX}graphiql.min.js`)).status).toBe(200);
});

it('a GET with a query string and a POST answer exactly as on a gateway without the IDE', async () => {
  const query = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
  const withIde = await get(dev, query, tenantHeaders('g-a'));
  const without = await get(prod, query, tenantHeaders('g-a'));
  expect(withIde.status).toBe(without.status);
  expect(withIde.headers.get('content-type')).toBe(without.headers.get('content-type'));
  // the same envelope, but for the time it was written
  const body = (b: Buffer) => {
    const { metaData, ...rest } = JSON.parse(b.toString('utf8'));
    return { ...rest, metaData: { ...metaData, responseTimeStamp: 'T' } };
  };
  expect(body(withIde.body)).toEqual(body(without.body));
  expect(withIde.status).toBe(404);

  // POST without a key: the same GraphQL-shaped 401 on both
  const post = (gw: RunningGateway) =>
    fetch(`${gw.url}/graphql`, {
      method: 'POST',
      headers: tenantHeaders('g-a'),
      body: JSON.stringify({ query: '{ __typename }' }),
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { errors: { extensions: { code: string } }[] },
    }));
  const [p1, p2] = await Promise.all([post(dev), post(prod)]);
  expect(p1).toEqual(p2);
  expect(p1.status).toBe(401);
  expect(p1.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
});
