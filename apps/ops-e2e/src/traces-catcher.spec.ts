import { ChildProcess, execFile } from 'node:child_process';
import { freePort, startToolProcess } from '@crm/testing';
import { ROOT } from './support/esm';

// The development trace catcher (tools/dev/traces.mjs), run as compose and the e2e tests run it:
// two processes export spans through the apps' own OpenTelemetry SDK and OTLP/HTTP exporter, the
// second continuing the first's trace from a traceparent; the catcher shows them as one trace.

jest.setTimeout(60_000);

let child: ChildProcess;
let url: string;

async function startCatcher(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const proc = await startToolProcess(
    'tools/dev/traces.mjs',
    ['--port', String(port), ...args],
    'traces:',
  );
  return { child: proc, url: `http://127.0.0.1:${port}` };
}

const stopCatcher = (proc: ChildProcess) =>
  new Promise((r) => {
    if (proc.exitCode !== null) return r(undefined);
    proc.once('exit', r);
    proc.kill('SIGTERM');
  });

/**
 * Runs a process that exports spans as `service`: a server span `name` (under `traceparent` when
 * given) with an internal child `name child`, the tenant on both; prints the server span's
 * traceparent. The SDK's shutdown sends the batch before the process ends.
 */
function exportSpans(
  endpoint: string,
  service: string,
  name: string,
  traceparent?: string,
): Promise<string> {
  const script = `
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
const api = require('@opentelemetry/api');
const [endpoint, service, name, parent] = process.argv.slice(1);
const sdk = new NodeSDK({ serviceName: service, autoDetectResources: false,
  traceExporter: new OTLPTraceExporter({ url: endpoint + '/v1/traces' }), instrumentations: [] });
sdk.start();
const tracer = api.trace.getTracer('test');
const ctx = parent ? api.propagation.extract(api.context.active(), { traceparent: parent }) : api.context.active();
const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes: { 'crm.tenant': 'acme' } }, ctx);
const inner = api.trace.setSpan(ctx, span);
const child = tracer.startSpan(name + ' child', { attributes: { 'crm.tenant': 'acme', rows: 3 } }, inner);
setTimeout(() => {
  child.end(); span.end();
  const carrier = {};
  api.propagation.inject(inner, carrier);
  sdk.shutdown().then(() => console.log(carrier.traceparent));
}, 5);
`;
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['-e', script, endpoint, service, name, traceparent ?? ''],
      { cwd: ROOT },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim()),
    ),
  );
}

interface Summary {
  traceId: string;
  root: string;
  services: string[];
  spans: number;
  tenant: string | null;
  durationMs: number;
}
interface Span {
  spanId: string;
  parentSpanId?: string;
  service: string;
  name: string;
  kind: number;
  durationMs: number;
  attributes: Record<string, unknown>;
}

const getJson = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${url}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};

beforeAll(async () => {
  ({ child, url } = await startCatcher([]));
});
afterAll(() => stopCatcher(child));

it('shows the spans of two processes as one trace, parent to child, newest trace first', async () => {
  const first = await exportSpans(url, 'gateway', 'DELETE /v1/crm/companies/:id');
  await exportSpans(url, 'crm-people', 'consume crm-companies.companies.deleted', first);
  await exportSpans(url, 'tenant-info', 'GET /tenants/:id');

  const traces = await getJson<Summary[]>('/traces.json');
  expect(traces.map((t) => t.root)).toEqual([
    'tenant-info: GET /tenants/:id',
    'gateway: DELETE /v1/crm/companies/:id',
  ]);
  const deletion = traces[1];
  expect(deletion).toMatchObject({ services: ['gateway', 'crm-people'], spans: 4, tenant: 'acme' });
  expect(deletion.traceId).toBe(first.split('-')[1]);

  const spans = await getJson<Span[]>(`/traces/${deletion.traceId}.json`);
  const byName = new Map(spans.map((s) => [s.name, s]));
  const root = byName.get('DELETE /v1/crm/companies/:id')!;
  const consume = byName.get('consume crm-companies.companies.deleted')!;
  expect(root.parentSpanId).toBeUndefined();
  expect(consume.parentSpanId).toBe(root.spanId);
  expect(consume.kind).toBe(2);
  expect(byName.get('consume crm-companies.companies.deleted child')).toMatchObject({
    parentSpanId: consume.spanId,
    service: 'crm-people',
    attributes: { 'crm.tenant': 'acme', rows: 3 },
  });
  expect(root.durationMs).toBeGreaterThanOrEqual(0);

  // filters of the list, and the pages a browser gets
  expect((await getJson<Summary[]>('/traces.json?service=crm-people')).length).toBe(1);
  expect((await getJson<Summary[]>('/traces.json?name=tenants')).length).toBe(1);
  const list = await (await fetch(`${url}/`)).text();
  expect(list).toContain(`/traces/${deletion.traceId}`);
  const page = await (await fetch(`${url}/traces/${deletion.traceId}`)).text();
  expect(page).toContain('consume crm-companies.companies.deleted child');
  expect((await fetch(`${url}/traces/${'0'.repeat(32)}`)).status).toBe(404);
});

it('refuses what it cannot read with a 4xx, and keeps running', async () => {
  const post = (type: string, body: string) =>
    fetch(`${url}/v1/traces`, { method: 'POST', headers: { 'Content-Type': type }, body });
  expect((await post('application/x-protobuf', 'x')).status).toBe(415);
  expect((await post('application/json', '{not json')).status).toBe(400);
  expect((await fetch(`${url}/health`)).status).toBe(200);
});

it('forgets the oldest traces whole beyond --max-spans', async () => {
  const small = await startCatcher(['--max-spans', '4']);
  try {
    const tp = await exportSpans(small.url, 'a', 'first');
    await exportSpans(small.url, 'b', 'second');
    await exportSpans(small.url, 'c', 'third');
    const traces = (await (await fetch(`${small.url}/traces.json`)).json()) as Summary[];
    expect(traces.map((t) => t.root)).toEqual(['c: third', 'b: second']);
    expect((await fetch(`${small.url}/traces/${tp.split('-')[1]}.json`)).status).toBe(404);
  } finally {
    await stopCatcher(small.child);
  }
});
