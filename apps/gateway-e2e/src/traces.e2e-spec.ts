import { freePort, startStack, startToolProcess } from '@crm/testing';
import type { ChildProcess } from 'node:child_process';
import { Client, SERVICES, TestTenant } from './client';

// Traces (issue 22): with OTEL_EXPORTER_OTLP_ENDPOINT set, every app exports spans over OTLP/HTTP
// to the development trace catcher (tools/dev/traces.mjs, as compose runs it); deleting a company
// is one trace through the gateway, crm-companies, its outbox relay and crm-people's consumer,
// with the tenant on the spans; a NATS request is a client span in the caller and a server span
// under it in the service answering.

/** A span as the catcher gives it (GET /spans.json). */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  service: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

let catcher: ChildProcess;
let catcherUrl: string;
let client: Client;
let t: TestTenant;

/** Every span the catcher has so far. */
async function caught(): Promise<ExportedSpan[]> {
  const res = await fetch(`${catcherUrl}/spans.json`);
  return (await res.json()) as ExportedSpan[];
}

const attr = (s: ExportedSpan, key: string) => s.attributes[key] as string | undefined;

/** `service: name` of a span, or a pattern of it. */
type Wanted = string | RegExp;
const matches = (name: string, w: Wanted) => (typeof w === 'string' ? name === w : w.test(name));
const containing = (wanted: Wanted[]) =>
  expect.arrayContaining(wanted.map((w) => (typeof w === 'string' ? w : expect.stringMatching(w))));

/**
 * The trace of the first span `root` finds, once it holds a span for each of `wanted` (or when
 * `ms` have passed: the assertion then shows what came). Every app exports its spans in batches of
 * its own, so the spans of one trace arrive in any order: the HTTP spans, which end with the
 * answer, often after the NATS spans inside them.
 */
async function traceWith(
  root: (s: ExportedSpan) => boolean,
  wanted: Wanted[],
  ms = 60000,
): Promise<{ trace: ExportedSpan[]; names: string[] }> {
  const until = Date.now() + ms;
  for (;;) {
    const spans = await caught();
    const first = spans.find(root);
    const trace = first ? spans.filter((s) => s.traceId === first.traceId) : [];
    const names = trace.map((s) => `${s.service}: ${s.name}`);
    if (wanted.every((w) => names.some((n) => matches(n, w))) || Date.now() > until)
      return { trace, names };
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  const port = await freePort();
  catcher = await startToolProcess('tools/dev/traces.mjs', ['--port', String(port)], 'traces:');
  catcherUrl = `http://127.0.0.1:${port}`;
  client = new Client(
    await startStack('traces', SERVICES, {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    }),
  );
  t = await client.tenant();
}, 180000);
afterAll(async () => {
  await client?.stack.shutdown();
  catcher?.kill('SIGTERM');
});

it('deleting a company is one trace: gateway, crm-companies, its outbox relay, crm-people consumer', async () => {
  const created = await client.rest(t, 'POST', '/companies', { name: 'Traced GmbH' });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  const deleted = await client.rest(t, 'DELETE', `/companies/${id}`);
  expect(deleted.status).toBe(200);

  // the gateway's span of the DELETE: its trace is the one to follow
  const wanted = [
    /^gateway: DELETE/,
    /^crm-companies: DELETE/,
    'crm-companies: publish crm-companies.companies.deleted',
    'crm-people: consume crm-companies.companies.deleted',
  ];
  const { trace, names } = await traceWith(
    (s) => s.service === 'gateway' && s.kind === 2 && attr(s, 'http.request.method') === 'DELETE',
    wanted,
  );
  expect(names).toEqual(containing(wanted));
  // parent links hold it together: the consumer's parent is the relay's publish span, whose
  // parent is a span of the company's deletion in crm-companies
  const byId = new Map(trace.map((s) => [s.spanId, s]));
  const consume = trace.find((s) => s.name === 'consume crm-companies.companies.deleted')!;
  const publish = byId.get(consume.parentSpanId!)!;
  expect(publish.name).toBe('publish crm-companies.companies.deleted');
  expect(byId.get(publish.parentSpanId!)?.service).toBe('crm-companies');
  // the tenant is an attribute of the request spans and of the published event
  expect(trace.filter((s) => attr(s, 'crm.tenant') === t.id).map((s) => s.service)).toEqual(
    expect.arrayContaining(['gateway', 'crm-companies']),
  );
  expect(attr(publish, 'crm.tenant')).toBe(t.id);
  // SQL of the deletion is in the trace too
  const sql = trace.filter(
    (s) =>
      s.service === 'crm-companies' &&
      (attr(s, 'db.system.name') ?? attr(s, 'db.system')) === 'postgresql',
  );
  expect(sql.length).toBeGreaterThan(0);
}, 120000);

it('a NATS request is a client span in the caller and a server span in the service answering', async () => {
  const person = await client.rest(t, 'POST', '/people', { firstname: 'Traced', lastname: 'Card' });
  const cards = `/people/${person.body.data.id}/business-cards`;
  const card = await client.rest(t, 'POST', cards, {});
  const company = await client.rest(t, 'POST', '/companies', { name: 'Asked GmbH' });
  expect([person.status, card.status, company.status]).toEqual([201, 201, 201]);
  // connecting the card asks crm-companies over NATS whether the company exists
  const linked = await client.rest(t, 'PUT', `${cards}/${card.body.data.id}/company`, {
    companyId: company.body.data.id,
  });
  expect(linked.status).toBe(200);

  const SUBJECT = 'crm-companies.companies.exists';
  const wanted = [
    /^gateway: PUT/,
    /^crm-people: PUT/,
    `crm-people: send ${SUBJECT}`,
    `crm-companies: process ${SUBJECT}`,
  ];
  // the request's client span in crm-people (admin calls to tenant-info are NATS requests too)
  const { trace, names } = await traceWith(
    (s) => s.service === 'crm-people' && s.name === `send ${SUBJECT}`,
    wanted,
  );
  expect(names).toEqual(containing(wanted));
  // kinds 3 (client) and 2 (server); the server span's parent is the client span
  const send = trace.find((s) => s.name === `send ${SUBJECT}`)!;
  const processed = trace.find((s) => s.name === `process ${SUBJECT}`)!;
  expect([send.kind, processed.kind]).toEqual([3, 2]);
  expect(processed.parentSpanId).toBe(send.spanId);
  expect(processed.service).toBe('crm-companies');
}, 120000);

it('an event sent without an outbox is a producer span, the parent of its consumer in the gateway', async () => {
  // setting a tariff makes tenant-info emit accessChanged, which every gateway replica hears
  // to drop the tenant's cached key answers
  const admin = await client.admin('PUT', `/tenants/${t.id}/tariff`, { tariffId: 'complete' });
  expect(admin.status).toBe(200);
  const SUBJECT = 'tenant-info.access.changed';
  const until = Date.now() + 60000;
  let sent: ExportedSpan | undefined;
  let heard: ExportedSpan | undefined;
  while (!(sent && heard) && Date.now() < until) {
    const spans = await caught();
    // any pair: client.tenant() in beforeAll made some too, each as its admin call's child
    sent = spans
      .filter((s) => s.service === 'tenant-info' && s.name === `send ${SUBJECT}`)
      .find((s) =>
        spans.some((c) => c.name === `process ${SUBJECT}` && c.parentSpanId === s.spanId),
      );
    heard =
      sent && spans.find((c) => c.name === `process ${SUBJECT}` && c.parentSpanId === sent!.spanId);
    if (!(sent && heard)) await new Promise((r) => setTimeout(r, 200));
  }
  // kinds 4 (producer) and 5 (consumer), one trace with the admin call through the gateway
  expect([sent?.kind, heard?.kind, heard?.service]).toEqual([4, 5, 'gateway']);
  const { names } = await traceWith((s) => s.spanId === sent!.spanId, [/^gateway: PUT/]);
  expect(names).toEqual(containing([/^gateway: PUT/]));
}, 120000);

it("a GraphQL query's plan and subgraph fetches are spans of its trace (Apollo's own)", async () => {
  const res = await client.graphql(t, '{ companies(pageSize: 1) { totalResults } }');
  expect(res.status).toBe(200);
  const wanted = [
    'gateway: gateway.request',
    'gateway: gateway.plan',
    'gateway: gateway.fetch',
    /^crm-companies: POST/,
  ];
  const { names } = await traceWith(
    (s) => s.service === 'gateway' && s.name === 'gateway.fetch',
    wanted,
    30000,
  );
  expect(names).toEqual(containing(wanted));
}, 60000);
