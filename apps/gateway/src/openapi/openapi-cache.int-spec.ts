import { createHash } from 'node:crypto';
import {
  bootGateway,
  closedPortUrl,
  eventually,
  INTERNAL_TOKEN,
  json,
  RunningGateway,
} from '../../test/support/gateway';
import { startUpstream } from '../../test/support/upstream';
import { OpenApiService } from './openapi.service';

// The merged OpenAPI description is cached: the services are asked again only when the cache is
// older than OPENAPI_REFRESH_MS, with If-None-Match, and a service that is down keeps its part.

const REFRESH_MS = 400;
const OPENAPI = '/v1/crm/openapi.json';

/** A stand-in service serving `doc()` with an ETag and answering 304 to a matching If-None-Match. */
async function describedService(doc: () => object) {
  const upstream = await startUpstream();
  const state = { failing: false, notModified: 0 };
  upstream.handlers.push((req, res) => {
    if (req.url !== OPENAPI) return false;
    if (state.failing) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('down');
      return true;
    }
    const body = JSON.stringify(doc());
    const etag = `"${createHash('sha256').update(body).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) {
      state.notModified++;
      res.writeHead(304, { etag });
      res.end();
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/json', etag });
    res.end(body);
    return true;
  });
  const asked = () => upstream.received.filter((r) => r.url === OPENAPI);
  return { upstream, state, asked };
}

const describe_ = (title: string, paths: Record<string, object>) => ({
  openapi: '3.0.0',
  info: { title, version: '1.0.0' },
  paths,
});
const op = (operationId: string) => ({
  get: { operationId, responses: { '200': { description: 'ok' } } },
});

let peoplePaths: Record<string, object>;
let people: Awaited<ReturnType<typeof describedService>>;
let companies: Awaited<ReturnType<typeof describedService>>;
let gw: RunningGateway;

beforeAll(async () => {
  peoplePaths = { '/v1/crm/people': op('listPeople') };
  people = await describedService(() => describe_('CRM people', peoplePaths));
  companies = await describedService(() =>
    describe_('CRM companies', { '/v1/crm/companies': op('listCompanies') }),
  );
  gw = await bootGateway({
    CRM_PEOPLE_URL: people.upstream.url,
    CRM_COMPANIES_URL: companies.upstream.url,
    EVENTS_URL: await closedPortUrl(),
    BOOKINGS_INVITATIONS_URL: await closedPortUrl(),
    TENANT_INFO_URL: await closedPortUrl(),
    GRAPHQL_SUBGRAPHS: 'crm-people',
    SUPERGRAPH_RETRY_MS: '600000',
    OPENAPI_REFRESH_MS: String(REFRESH_MS),
  });
});

afterAll(async () => {
  await gw?.app.close();
  await people?.upstream.close();
  await companies?.upstream.close();
});

const paths = async () => {
  const res = await fetch(`${gw.url}${OPENAPI}`);
  expect(res.status).toBe(200);
  return Object.keys((await json(res)).paths);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('fetches the services once, then answers from the cache', async () => {
  const started = Date.now();
  expect(await paths()).toEqual(expect.arrayContaining(['/v1/crm/people', '/v1/crm/companies']));
  expect(people.asked()).toHaveLength(1);
  expect(companies.asked()).toHaveLength(1);
  expect(people.asked()[0].headers['x-internal-token']).toBe(INTERNAL_TOKEN);

  for (let i = 0; i < 5; i++)
    expect(await paths()).toEqual(expect.arrayContaining(['/v1/crm/people', '/v1/crm/companies']));
  // Fetched whole once; asked again only with its ETag, and at most once per REFRESH_MS (on a
  // busy CI machine the six answers took longer than REFRESH_MS: one revalidation, rightly).
  const fetchedWhole = (s: typeof people) => s.asked().filter((a) => !a.headers['if-none-match']);
  const allowed = 1 + Math.floor((Date.now() - started) / REFRESH_MS);
  for (const service of [people, companies]) {
    expect(fetchedWhole(service)).toHaveLength(1);
    expect(service.asked().length).toBeLessThanOrEqual(allowed);
  }
});

it('revalidates after OPENAPI_REFRESH_MS with If-None-Match and shows a changed document', async () => {
  peoplePaths = { ...peoplePaths, '/v1/crm/people/{id}': op('readPerson') };
  // still within the refresh interval of the first test's fetch, or served from the cache
  await sleep(REFRESH_MS + 50);
  await eventually(async () => expect(await paths()).toContain('/v1/crm/people/{id}'), 3000);
  // companies did not change: asked again with its ETag, answered 304
  const again = companies.asked().at(-1)!;
  expect(again.headers['if-none-match']).toMatch(/^"[0-9a-f]{64}"$/);
  expect(companies.state.notModified).toBeGreaterThanOrEqual(1);
  expect(await paths()).toContain('/v1/crm/companies');
});

it('keeps the last good copy of a service that fails', async () => {
  companies.state.failing = true;
  const before = companies.asked().length;
  await gw.app.get(OpenApiService).refresh();
  expect(companies.asked().length).toBe(before + 1);
  expect(await paths()).toEqual(expect.arrayContaining(['/v1/crm/people', '/v1/crm/companies']));
});
