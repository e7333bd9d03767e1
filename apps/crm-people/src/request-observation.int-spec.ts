import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { AppMetrics, startMetricsServer } from '@crm/metrics';
import { freePort, parseMetricSamples, ServiceTestClient, tenantHeaders } from '@crm/testing';
import { RunningService, startCrmPeople } from './test/service-harness';

// Each HTTP request is observed (a request line, the request metrics, the request context), and
// /metrics is served on the app's port with the internal token or on METRICS_PORT without one.
// REQUEST_OBSERVATION=off, which `npm run bench -- observability` measures against, answers the
// same without observing: the pair here is the bench's pair.
const TOKEN = randomBytes(24).toString('base64url');
const tenant = `it-observe-${randomBytes(4).toString('hex')}`;
const headers = tenantHeaders(tenant, { 'X-Internal-Token': TOKEN });

let observed: RunningService;
let unobserved: RunningService;
let metricsPort: number;
let metricsServer: Server | undefined;
beforeAll(async () => {
  observed = await startCrmPeople('crm_people_it_observed', { INTERNAL_TOKEN: TOKEN });
  // as startServiceApp does with METRICS_PORT (the test harness listens without it)
  metricsPort = await freePort();
  metricsServer = await startMetricsServer(observed.app.get(AppMetrics), metricsPort, '127.0.0.1');
  unobserved = await startCrmPeople('crm_people_it_unobserved', {
    INTERNAL_TOKEN: TOKEN,
    REQUEST_OBSERVATION: 'off',
  });
}, 120_000);
afterAll(async () => {
  await new Promise((r) => (metricsServer ? metricsServer.close(r) : r(undefined)));
  await observed?.app.close();
  await unobserved?.app.close();
});

/** The request series of a route template in a /metrics text: `status count` pairs. */
function requestCounts(text: string, route: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { labels, value } of parseMetricSamples(text, 'http_request_duration_seconds_count')) {
    if (!labels.includes(`route="${route}"`)) continue;
    counts[/status="(\d+)"/.exec(labels)?.[1] ?? '?'] = value;
  }
  return counts;
}

const scrape = (url: string, token?: string) =>
  fetch(`${url}/metrics`, { headers: token ? { 'X-Internal-Token': token } : {} });

async function readsAndMisses(svc: RunningService) {
  const api = new ServiceTestClient(svc.url);
  const created = await api.rest('POST', '/people', { firstname: 'Olga' }, headers);
  expect(created.status).toBe(201);
  for (let i = 0; i < 3; i++) {
    const read = await api.rest('GET', `/people/${created.body.data.id}`, undefined, headers);
    expect(read.status).toBe(200);
  }
  const missing = await api.rest('GET', `/people/${randomUUID()}`, undefined, headers);
  expect(missing.status).toBe(404);
}

it('counts each answered request by route template and status; /metrics wants the token on the app port', async () => {
  await readsAndMisses(observed);
  expect((await scrape(observed.url)).status).toBe(401);
  const text = await (await scrape(observed.url, TOKEN)).text();
  expect(requestCounts(text, '/v1/crm/people/:id')).toEqual({ '200': 3, '404': 1 });
  expect(requestCounts(text, '/v1/crm/people')).toEqual({ '201': 1 });
});

it('serves /metrics on a port of its own (METRICS_PORT) without a token: the same registry, nothing else', async () => {
  const res = await scrape(`http://127.0.0.1:${metricsPort}`);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(requestCounts(text, '/v1/crm/people/:id')).toEqual({ '200': 3, '404': 1 });
  // the gauges read at a scrape: the database pool and the outbox behind this app
  expect(text).toMatch(/^db_pool_max_connections\{[^}]*\} 10$/m);
  expect(text).toMatch(/^outbox_pending_events\{[^}]*\} \d+$/m);
  expect((await fetch(`http://127.0.0.1:${metricsPort}/v1/crm/people`)).status).toBe(404);
});

it('REQUEST_OBSERVATION=off answers alike and counts nothing per request', async () => {
  await readsAndMisses(unobserved);
  const res = await scrape(unobserved.url, TOKEN);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(requestCounts(text, '/v1/crm/people/:id')).toEqual({});
  expect(requestCounts(text, '/v1/crm/people')).toEqual({});
  // what is read at a scrape stays
  expect(text).toMatch(/^db_pool_max_connections\{[^}]*\} 10$/m);
});
