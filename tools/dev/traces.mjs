#!/usr/bin/env node
// The development trace catcher, as the mailbox is for mails: an OTLP/HTTP receiver (JSON, what
// the apps' @opentelemetry/exporter-trace-otlp-http sends) that keeps the newest spans in memory
// and shows them as traces: a page listing the traces, newest first, with their services and
// duration, a page per trace with its spans as a tree on a time line, and the same as JSON for
// scripts (GET /traces.json, GET /traces/<id>.json; GET /spans.json: every span kept, flat). Point the apps at it with
// OTEL_EXPORTER_OTLP_ENDPOINT=http://<host>:<port>. For anything beyond development send the
// spans to Jaeger, Tempo or an OpenTelemetry Collector instead: this keeps nothing on disk.
//
//   node tools/dev/traces.mjs [--port 4318] [--host 127.0.0.1] [--max-spans 50000]
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/** A batch larger than this is refused (413): the SDK's batches are far smaller. */
const MAX_BODY = 16 * 1024 * 1024;
const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];

const escape = (s) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

/** OTLP JSON times are nanoseconds as a string, a number or {low, high} (64-bit halves). */
function nanosToMs(t) {
  if (t == null) return 0;
  if (typeof t === 'object') return ((t.high >>> 0) * 2 ** 32 + (t.low >>> 0)) / 1e6;
  const n = String(t);
  return /^\d+$/.test(n) ? Number(BigInt(n) / 1000n) / 1000 : Number(n) / 1e6;
}

/** An OTLP AnyValue as a plain value. */
function plain(v) {
  if (!v || typeof v !== 'object') return v ?? null;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(plain);
  return null;
}

const attributes = (list) => Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));

/** The spans of one OTLP ExportTraceServiceRequest (JSON), flattened, the service on each. */
export function spansOfExport(doc) {
  const out = [];
  for (const rs of doc?.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    const service = String(resource['service.name'] ?? 'unknown');
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        const startMs = nanosToMs(s.startTimeUnixNano);
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || undefined,
          service,
          name: s.name,
          kind: s.kind ?? 0,
          startMs,
          durationMs: Math.max(0, nanosToMs(s.endTimeUnixNano) - startMs),
          status: s.status?.code === 2 ? 'error' : 'ok',
          attributes: attributes(s.attributes),
        });
      }
    }
  }
  return out;
}

/**
 * The spans received, grouped by trace, at most `maxSpans` in all: when more come, the traces
 * that began first are forgotten whole.
 */
export class TraceStore {
  constructor(maxSpans = 50000) {
    this.maxSpans = maxSpans;
    this.traces = new Map(); // traceId -> spans, in the order the traces were first seen
    this.count = 0;
  }

  add(spans) {
    for (const s of spans) {
      if (typeof s.traceId !== 'string' || typeof s.spanId !== 'string') continue;
      const trace = this.traces.get(s.traceId);
      if (trace) trace.push(s);
      else this.traces.set(s.traceId, [s]);
      this.count++;
    }
    for (const [id, trace] of this.traces) {
      if (this.count <= this.maxSpans) break;
      this.traces.delete(id);
      this.count -= trace.length;
    }
  }

  /** A trace's summary: the root (the span without a parent here, else the earliest). */
  summary(traceId) {
    const spans = this.traces.get(traceId);
    if (!spans) return null;
    const ids = new Set(spans.map((s) => s.spanId));
    const root =
      spans.find((s) => !s.parentSpanId || !ids.has(s.parentSpanId)) ??
      spans.reduce((a, b) => (a.startMs <= b.startMs ? a : b));
    const start = Math.min(...spans.map((s) => s.startMs));
    const end = Math.max(...spans.map((s) => s.startMs + s.durationMs));
    return {
      traceId,
      root: `${root.service}: ${root.name}`,
      start: new Date(start).toISOString(),
      durationMs: Math.round((end - start) * 1000) / 1000,
      services: [...new Set(spans.map((s) => s.service))],
      spans: spans.length,
      errors: spans.filter((s) => s.status === 'error').length,
      tenant: spans.find((s) => s.attributes['crm.tenant'])?.attributes['crm.tenant'] ?? null,
    };
  }

  /** Summaries, newest first, of the traces with a span of `service` (and a span `name` like). */
  list({ service, name, limit = 100 } = {}) {
    const out = [];
    for (const [id, spans] of [...this.traces].reverse()) {
      if (service && !spans.some((s) => s.service === service)) continue;
      if (name && !spans.some((s) => s.name.includes(name))) continue;
      out.push(this.summary(id));
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Every span kept of `service` (and with `name` in its name), oldest trace first. */
  find({ service, name } = {}) {
    const out = [];
    for (const spans of this.traces.values())
      for (const s of spans)
        if ((!service || s.service === service) && (!name || s.name.includes(name))) out.push(s);
    return out;
  }

  spans(traceId) {
    return [...(this.traces.get(traceId) ?? [])].sort((a, b) => a.startMs - b.startMs);
  }
}

function page(title, body) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:90em}table{border-collapse:collapse;width:100%}
td,th{padding:.3em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}small{color:#666}
.bar{background:#4a7bd0;height:.8em;min-width:1px;display:inline-block}.err{background:#c33}
.line{position:relative;width:30em;height:.8em}</style></head><body>${body}</body></html>`;
}

function listPage(store, query) {
  const rows = store
    .list(query)
    .map(
      (t) =>
        `<tr><td><small>${escape(t.start)}</small></td><td><a href="/traces/${escape(t.traceId)}">${escape(t.root)}</a></td>` +
        `<td>${escape(t.services.join(', '))}</td><td>${t.spans}${t.errors ? ` <b>(${t.errors} failed)</b>` : ''}</td>` +
        `<td>${t.durationMs.toFixed(1)} ms</td><td><small>${escape(t.tenant ?? '')}</small></td></tr>`,
    );
  return page(
    'Traces',
    `<h1>Traces</h1><p><small>The newest spans the apps exported to this development receiver (${store.count} kept in memory), grouped by trace, newest first. ` +
      `<a href="/?service=gateway">through the gateway</a> &middot; <a href="/">all</a></small></p>` +
      (rows.length
        ? `<table><tr><th>Started</th><th>Root span</th><th>Services</th><th>Spans</th><th>Duration</th><th>Tenant</th></tr>${rows.join('')}</table>`
        : '<p>No traces yet. Are the apps started with OTEL_EXPORTER_OTLP_ENDPOINT pointing here?</p>'),
  );
}

function tracePage(store, traceId) {
  const spans = store.spans(traceId);
  const summary = store.summary(traceId);
  const byParent = new Map();
  const ids = new Set(spans.map((s) => s.spanId));
  for (const s of spans) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : '';
    byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
  }
  const start = Math.min(...spans.map((s) => s.startMs));
  const total = Math.max(summary.durationMs, 0.001);
  const rows = [];
  const walk = (parent, depth) => {
    for (const s of byParent.get(parent) ?? []) {
      const left = ((s.startMs - start) / total) * 100;
      const width = Math.max((s.durationMs / total) * 100, 0.2);
      const attrs = Object.entries(s.attributes)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(' ');
      rows.push(
        `<tr><td style="padding-left:${depth * 1.2 + 0.6}em">${escape(s.service)}: <b>${escape(s.name)}</b> <small>${KINDS[s.kind] ?? s.kind}</small></td>` +
          `<td><div class="line"><span class="bar${s.status === 'error' ? ' err' : ''}" style="position:absolute;left:${left}%;width:${width}%"></span></div></td>` +
          `<td>${s.durationMs.toFixed(2)} ms</td><td><small>${escape(attrs)}</small></td></tr>`,
      );
      walk(s.spanId, depth + 1);
    }
  };
  walk('', 0);
  return page(
    `Trace ${traceId}`,
    `<p><a href="/">&larr; all traces</a> &middot; <a href="/traces/${escape(traceId)}.json">JSON</a></p>` +
      `<h1>${escape(summary.root)}</h1><p>${escape(summary.start)} &middot; ${summary.durationMs.toFixed(1)} ms &middot; ${escape(summary.services.join(', '))} &middot; trace id ${escape(traceId)}</p>` +
      `<table><tr><th>Span</th><th>Time line</th><th>Duration</th><th>Attributes</th></tr>${rows.join('')}</table>`,
  );
}

function handler(store) {
  return (req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    };
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/v1/traces') {
      if (!/json/.test(req.headers['content-type'] ?? ''))
        return send(415, 'text/plain', 'OTLP/HTTP with JSON only (http/json)');
      const chunks = [];
      let size = 0;
      req.on('data', (c) => {
        size += c.length;
        if (size > MAX_BODY) {
          send(413, 'text/plain', 'too large');
          req.destroy();
        } else chunks.push(c);
      });
      req.on('end', () => {
        if (size > MAX_BODY) return;
        try {
          store.add(spansOfExport(JSON.parse(Buffer.concat(chunks).toString())));
          send(200, 'application/json', '{}');
        } catch {
          send(400, 'text/plain', 'not an OTLP JSON trace export');
        }
      });
      return undefined;
    }
    if (req.method !== 'GET') return send(405, 'text/plain', 'GET, or POST /v1/traces');
    const query = {
      service: url.searchParams.get('service') || undefined,
      name: url.searchParams.get('name') || undefined,
      limit: Math.min(Number(url.searchParams.get('limit')) || 100, 10000),
    };
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts.length === 0) return send(200, 'text/html; charset=utf-8', listPage(store, query));
    if (parts[0] === 'health' && parts.length === 1) return send(200, 'text/plain', 'ok');
    if (parts[0] === 'traces.json' && parts.length === 1)
      return send(200, 'application/json', JSON.stringify(store.list(query)));
    if (parts[0] === 'spans.json' && parts.length === 1)
      return send(200, 'application/json', JSON.stringify(store.find(query)));
    if (parts[0] === 'traces' && parts.length === 2) {
      const json = parts[1].endsWith('.json');
      const id = json ? parts[1].slice(0, -5) : parts[1];
      if (!store.traces.has(id)) return send(404, 'text/plain', 'no such trace (yet)');
      return json
        ? send(200, 'application/json', JSON.stringify(store.spans(id)))
        : send(200, 'text/html; charset=utf-8', tracePage(store, id));
    }
    return send(404, 'text/plain', 'not found');
  };
}

/** Starts the catcher on `port` (0: a free one). Resolves with its url, the store and `stop()`. */
export async function startTraceCatcher({ port = 4318, host = '127.0.0.1', maxSpans } = {}) {
  const store = new TraceStore(maxSpans);
  const server = http.createServer(handler(store));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const bound = server.address().port;
  return {
    port: bound,
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`,
    store,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4318' },
      host: { type: 'string', default: '127.0.0.1' },
      'max-spans': { type: 'string', default: '50000' },
    },
  });
  const catcher = await startTraceCatcher({
    port: Number(values.port),
    host: values.host,
    maxSpans: Number(values['max-spans']),
  });
  console.log(`traces: OTLP/HTTP at ${catcher.url}/v1/traces, page ${catcher.url}/`);
  const stop = () => catcher.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
