import { startStack } from '@crm/testing';
import { randomUUID } from 'node:crypto';
import { Client, SERVICES, TestTenant } from './client';

// Structured logs (issue 22): every app writes JSON lines; one call's lines are found in the
// gateway and the service by its request id, with tenant, route template, status and duration,
// and in the services its NATS requests and outbox events reach; no secret reaches a line.

let client: Client;
let t: TestTenant;

beforeAll(async () => {
  client = new Client(await startStack('logs', SERVICES, { env: { LOG_LEVEL: 'log' } }));
  t = await client.tenant();
}, 180000);
afterAll(async () => client?.stack.shutdown());

type Line = Record<string, unknown>;

/** Every line an app wrote so far, parsed: a line that is not JSON fails the test. */
function lines(app: string): Line[] {
  const text = client.stack.processes.get(app)!.log.join('');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      try {
        return JSON.parse(l) as Line;
      } catch {
        throw new Error(`${app} wrote a line that is not JSON: ${l}`);
      }
    });
}

/** Waits for `app`'s line about request `id` (the line is written when the answer has gone). */
async function requestLine(app: string, id: string): Promise<Line> {
  const until = Date.now() + 15000;
  for (;;) {
    const found = lines(app).find(
      (l) => l.requestId === id && l.msg?.toString().startsWith('request'),
    );
    if (found) return found;
    if (Date.now() > until) throw new Error(`${app} logged nothing for request ${id}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('a REST read is one line in the gateway and one in the service, tied by the request id', async () => {
  const id = `logs-${randomUUID()}`;
  const missing = randomUUID();
  const res = await client.rest(t, 'GET', `/people/${missing}`, undefined, { 'X-Request-Id': id });
  expect(res.status).toBe(404);
  expect(res.headers.get('x-request-id')).toBe(id);
  const gateway = await requestLine('gateway', id);
  expect(gateway).toMatchObject({
    level: 'info',
    app: 'gateway',
    tenant: t.id,
    method: 'GET',
    route: '/v1/crm/people/*',
    status: 404,
  });
  const service = await requestLine('crm-people', id);
  expect(service).toMatchObject({
    level: 'info',
    app: 'crm-people',
    tenant: t.id,
    method: 'GET',
    // the template, not the raw path with its id
    route: '/v1/crm/people/:id',
    status: 404,
  });
  for (const line of [gateway, service]) {
    expect(typeof line.durationMs).toBe('number');
    expect(new Date(line.time as string).getTime()).toBeGreaterThan(Date.now() - 60000);
    expect(JSON.stringify(line)).not.toContain(missing);
  }
});

it('a write and a GraphQL call are logged with their routes; a W3C trace id is carried', async () => {
  const id = `logs-${randomUUID()}`;
  const trace = randomUUID().replace(/-/g, '');
  const created = await client.rest(
    t,
    'POST',
    '/people',
    { firstname: 'Log', lastname: 'Line' },
    { 'X-Request-Id': id, traceparent: `00-${trace}-00f067aa0ba902b7-01` },
  );
  expect(created.status).toBe(201);
  expect(await requestLine('crm-people', id)).toMatchObject({
    method: 'POST',
    route: '/v1/crm/people',
    status: 201,
    traceId: trace,
  });
  const gql = `logs-${randomUUID()}`;
  const answer = await client.graphql(t, '{ __typename }', {}, { 'X-Request-Id': gql });
  expect(answer.status).toBe(200);
  expect(await requestLine('gateway', gql)).toMatchObject({ route: '/graphql', status: 200 });
});

/** Waits for `app`'s line about request `id` whose message matches `msg`. */
async function lineAbout(app: string, id: string, msg: RegExp): Promise<Line> {
  const until = Date.now() + 30000;
  for (;;) {
    const found = lines(app).find((l) => l.requestId === id && msg.test(String(l.msg)));
    if (found) return found;
    if (Date.now() > until) throw new Error(`${app} logged no ${msg} for request ${id}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("a NATS request's handler and an outbox event's consumer log with the caller's request id", async () => {
  // crm-companies at debug: its handler of the request logs nothing at info
  const companies = client.stack.processes.get('crm-companies')!;
  await client.stack.stop('crm-companies');
  companies.env.LOG_LEVEL = 'debug';
  await client.stack.start('crm-companies');

  const person = await client.rest(t, 'POST', '/people', { firstname: 'Nats', lastname: 'Line' });
  const cards = `/people/${person.body.data.id}/business-cards`;
  const card = await client.rest(t, 'POST', cards, {});
  const company = await client.rest(t, 'POST', '/companies', { name: 'Logged GmbH' });
  expect([person.status, card.status, company.status]).toEqual([201, 201, 201]);
  const companyId = company.body.data.id as string;

  // connecting the card asks crm-companies over NATS whether the company exists
  const ask = `logs-${randomUUID()}`;
  const trace = randomUUID().replace(/-/g, '');
  const linked = await client.rest(
    t,
    'PUT',
    `${cards}/${card.body.data.id}/company`,
    { companyId },
    { 'X-Request-Id': ask, traceparent: `00-${trace}-00f067aa0ba902b7-01` },
  );
  expect(linked.status).toBe(200);
  expect(await requestLine('crm-people', ask)).toMatchObject({ method: 'PUT', status: 200 });
  expect(
    await lineAbout('crm-companies', ask, /^crm-companies\.companies\.exists handled in \d+ ms$/),
  ).toMatchObject({ level: 'debug', app: 'crm-companies', tenant: t.id, traceId: trace });

  // deleting the company: crm-companies writes an outbox event, crm-people's consumer
  // disconnects the card and says so, with the request id of the deletion
  const del = `logs-${randomUUID()}`;
  const deleted = await client.rest(t, 'DELETE', `/companies/${companyId}`, undefined, {
    'X-Request-Id': del,
  });
  expect(deleted.status).toBe(200);
  expect(await requestLine('crm-companies', del)).toMatchObject({ method: 'DELETE', status: 200 });
  expect(
    await lineAbout('crm-people', del, /^companies deleted in .*: 1 card\(s\) disconnected/),
  ).toMatchObject({ level: 'info', app: 'crm-people', tenant: t.id });
  expect(await requestLine('gateway', del)).toMatchObject({ method: 'DELETE', status: 200 });
}, 120000);

it('no secret reaches any line: API key, admin and internal tokens, database passwords', async () => {
  const all = [...client.stack.processes.values()].map((p) => p.log.join('')).join('\n');
  expect(all).not.toContain(t.key);
  expect(all).not.toContain(client.stack.adminToken);
  const internal = client.stack.processes.get('crm-people')!.env.INTERNAL_TOKEN;
  expect(all).not.toContain(internal);
  const dbUrl = new URL(client.stack.processes.get('crm-people')!.env.DATABASE_URL);
  if (dbUrl.password) expect(all).not.toContain(`:${dbUrl.password}@`);
  // and every app wrote JSON only (lines() throws on anything else)
  for (const app of client.stack.processes.keys()) expect(lines(app).length).toBeGreaterThan(0);
});

it('a service that is down is one line when it goes and one when it is back, not one per call', async () => {
  await client.stack.stop('crm-people');
  const before = lines('gateway').length;
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => client.rest(t, 'GET', `/people/${randomUUID()}`)),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(503));
  await client.stack.start('crm-people');
  // a call that reaches it again ends the outage in the gateway's log
  expect((await client.rest(t, 'GET', `/people/${randomUUID()}`)).status).toBe(404);
  const outageLines = () =>
    lines('gateway')
      .slice(before)
      .filter((l) => String(l.msg).includes('crm-people'));
  // the gateway's output reaches this process a moment after its answer
  const until = Date.now() + 15000;
  while (!outageLines().some((l) => String(l.msg).includes('available again'))) {
    if (Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const outage = outageLines();
  expect(outage.map((l) => [l.level, String(l.msg).replace(/after \d+ s/, 'after N s')])).toEqual([
    ['warn', expect.stringMatching(/^crm-people unavailable: \w+ \(GET \/v1\/crm\/people\//)],
    ['info', 'crm-people available again after N s; 20 calls failed during the outage'],
  ]);
}, 120000);
