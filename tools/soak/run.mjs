#!/usr/bin/env node
// npm run soak (issue 23): the whole stack as `npm start` runs it, under a mixed load at half of
// its measured capacity for SOAK_MINUTES (30), through the gateway as integrators call it. Every
// minute it records, per app, the resident memory (from /proc, worker processes too) and the p99
// of the requests the app answered (its own http_request_duration_seconds histogram, the
// increase over that minute, interpolated as PromQL's histogram_quantile does), and the load's
// own rate, p99 and failures. Prints the curve, then whether every app stayed flat over the last
// two thirds of the run (30 minutes: the last 20): the median of the window's last three minutes
// at most SOAK_TOLERANCE (0.10) above the median of its first three, for memory and for p99
// (a leak or a slowdown grows; memory given back to the system is no failure).
//
//   SOAK_MINUTES=30 SOAK_RATE=<req/s> SOAK_TOLERANCE=0.10 SOAK_P99_TOLERANCE=<as SOAK_TOLERANCE>
//   SOAK_JSON=<file>  writes the minutes and the verdict as JSON (the e2e version reads it)
//   SOAK_SKIP_BUILD=1 runs dist/ as it is (the e2e tier has built it)
//   SOAK_DATABASE=server keeps a server whose autovacuum is off (else an embedded one is started)
//
// Without SOAK_RATE the capacity is measured first: 20 s of the same mix with 32 requests in
// flight; the soak then offers half of it at a steady rate (open loop: requests are sent on
// schedule whether or not earlier ones have answered, as independent clients do).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { freePort } from '../bench/measure.mjs';
import { personBody } from '../bench/scenarios/people.mjs';
import {
  apiClient,
  benchDbName,
  recreateDatabase,
  onServerWithAutovacuum,
  startBenchStack,
} from '../bench/stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const tolerance = Number(process.env.SOAK_TOLERANCE ?? 0.1);
const p99Tolerance = Number(process.env.SOAK_P99_TOLERANCE ?? tolerance);
const MINUTE_MS = Number(process.env.SOAK_MINUTE_MS ?? 60_000);
const SAMPLE_MS = MINUTE_MS / 6;
const TENANTS = 3;
/** At most this many requests in flight: beyond it the stack is not keeping up, which is counted. */
const MAX_IN_FLIGHT = 400;

const quantile = (sorted, q) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0;
const median = (xs) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** What each tenant's clients work on: people, a company, lists; the same mix for every tenant. */
async function seedTenant(stack, id) {
  const t = id === 'bench' ? { gatewayHeaders: stack.gatewayHeaders } : await stack.addTenant(id);
  const api = apiClient(stack.gatewayUrl, t.gatewayHeaders);
  const [lifecycle] = await api('POST', '/v1/crm/people-settings/lifecycles', [
    { text: 'Soak customer', color: '#336699' },
  ]);
  const people = [];
  for (let i = 0; i < 20; i++)
    people.push((await api('POST', '/v1/crm/people', personBody(lifecycle.id))).id);
  const company = await api('POST', '/v1/crm/companies', { name: `Soak GmbH ${id}` });
  return {
    headers: t.gatewayHeaders,
    lifecycleId: lifecycle.id,
    people,
    companyId: company.id,
    created: [],
  };
}

/**
 * One operation of the mix for tenant `t`: reads (a person, a page of people, a company, events,
 * a GraphQL query) and writes (a person created, one of those deleted later, a company created).
 * As many people are deleted as created (once 50 wait): the data stays the size it had, so what
 * grows over the run is the apps' doing, not the tables'. (At 3 creates to 1 delete, 11 people a
 * second were added: a page of people, which counts the tenant's people, went from 26 to 53 ms
 * in 25 minutes, and p99 with it.) Answers [method, path, body].
 */
function nextOperation(t, n) {
  const pick = (xs) => xs[n % xs.length];
  const r = n % 20;
  if (r < 7) return ['GET', `/v1/crm/people/${pick(t.people)}`];
  if (r < 9) return ['GET', '/v1/crm/people?pageSize=20'];
  if (r < 11) return ['GET', `/v1/crm/companies/${t.companyId}`];
  if (r < 12) return ['GET', '/v1/crm/events?pageSize=10'];
  if (r < 14)
    return [
      'POST',
      '/graphql',
      {
        query: 'query Soak($id: ID!) { person(id: $id) { id firstname cards { id } } }',
        variables: { id: pick(t.people) },
      },
    ];
  if (r < 16)
    return ['POST', '/v1/crm/people', { ...personBody(t.lifecycleId), customerNumber: `S-${n}` }];
  if (r < 18 && t.created.length > 50) return ['DELETE', `/v1/crm/people/${t.created.shift()}`];
  if (r < 19) return ['POST', '/v1/crm/companies', { name: `Soak company ${n}` }];
  return ['GET', `/v1/crm/people/${pick(t.people)}`];
}

/** Sends one operation; records its latency and outcome in `bucket`. */
async function send(pool, t, n, bucket) {
  const [method, p, body] = nextOperation(t, n);
  const started = performance.now();
  try {
    const res = await pool.request({
      method,
      path: p,
      headers: { ...t.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.body.text();
    const ok = res.statusCode < 300 && !(p === '/graphql' && text.includes('"errors"'));
    if (!ok) {
      bucket.failed++;
      if (bucket.examples.length < 3)
        bucket.examples.push(`${method} ${p}: ${res.statusCode} ${text.slice(0, 200)}`);
    } else if (method === 'POST' && p === '/v1/crm/people') {
      t.created.push(JSON.parse(text).data.id);
    }
  } catch (err) {
    bucket.failed++;
    if (bucket.examples.length < 3) bucket.examples.push(`${method} ${p}: ${err.message}`);
  }
  bucket.latencies.push(performance.now() - started);
}

const newBucket = () => ({ latencies: [], failed: 0, skipped: 0, examples: [] });

/** Capacity of the mix: requests answered per second with `inFlight` of them outstanding. */
async function measureCapacity(pool, tenants, seconds = 20, inFlight = 32) {
  const bucket = newBucket();
  const until = Date.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (Date.now() < until) {
        const i = n++;
        await send(pool, tenants[i % tenants.length], i, bucket);
      }
    }),
  );
  return { rate: bucket.latencies.length / seconds, failed: bucket.failed };
}

/** Resident memory of a process in MB (from /proc), null when it has gone. */
function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The cumulative buckets of http_request_duration_seconds of an app's /metrics, summed over series. */
async function durationBuckets(url, token) {
  const text = await fetch(`${url}/metrics`, { headers: { 'x-internal-token': token } }).then((r) =>
    r.text(),
  );
  const buckets = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith('http_request_duration_seconds_bucket{')) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (le) buckets.set(le, (buckets.get(le) ?? 0) + value);
  }
  return buckets;
}

/**
 * Fewer requests than this in a minute give no p99 worth comparing (an app the mix barely
 * reaches: tenant-info behind the gateway's cache, bookings-invitations answering /metrics).
 */
const MIN_REQUESTS_FOR_P99 = 120;

/** p99 in ms of the requests between two bucket snapshots, as histogram_quantile interpolates. */
function p99Between(before, after) {
  const bounds = [...after.keys()]
    .map((le) => ({ le, upper: le === '+Inf' ? Infinity : Number(le) }))
    .sort((a, b) => a.upper - b.upper);
  const counts = bounds.map((b) => (after.get(b.le) ?? 0) - (before.get(b.le) ?? 0));
  const total = counts[counts.length - 1] ?? 0;
  if (total < MIN_REQUESTS_FOR_P99) return null;
  const rank = 0.99 * total;
  for (let i = 0; i < bounds.length; i++) {
    if (counts[i] < rank) continue;
    const upper = bounds[i].upper;
    const lower = i ? bounds[i - 1].upper : 0;
    if (upper === Infinity) return lower * 1000;
    const below = i ? counts[i - 1] : 0;
    return (lower + ((upper - lower) * (rank - below)) / (counts[i] - below || 1)) * 1000;
  }
  return null;
}

/** Median of the window's first three minutes against its last three: the relative change. */
function drift(values) {
  const xs = values.filter((v) => v !== null && v !== undefined);
  if (xs.length < 2) return 0;
  const k = Math.max(1, Math.min(3, Math.floor(xs.length / 2)));
  const first = median(xs.slice(0, k));
  const last = median(xs.slice(-k));
  return first ? last / first - 1 : 0;
}

async function main() {
  if (!process.env.SOAK_SKIP_BUILD)
    execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  await onServerWithAutovacuum('soak', soakOn);
}

async function soakOn(server) {
  const db = (name, service) => recreateDatabase(server, benchDbName(`soak_${name}`), service);
  const dbs = {
    peopleDb: await db('crm_people', 'crm-people'),
    companiesDb: await db('crm_companies', 'crm-companies'),
    tenantDb: await db('tenant_info', 'tenant-info'),
    eventsDb: await db('events', 'events'),
    bookingsDb: await db('bookings_invitations', 'bookings-invitations'),
  };
  const stack = await startStack(dbs);
  const pool = new Pool(stack.gatewayUrl, { connections: 64, pipelining: 1 });
  let result;
  try {
    const tenants = [];
    for (let i = 0; i < TENANTS; i++)
      tenants.push(await seedTenant(stack, i ? `soak-${i}` : 'bench'));
    let rate = Number(process.env.SOAK_RATE ?? 0);
    if (!rate) {
      const capacity = await measureCapacity(pool, tenants);
      rate = Math.max(1, Math.floor(capacity.rate / 2));
      console.log(
        `soak: capacity of the mix ${capacity.rate.toFixed(0)} req/s (${capacity.failed} failed): soaking at ${rate} req/s`,
      );
    }
    await stack.waitQuiet('before the soak');
    result = await soak(stack, pool, tenants, rate);
  } finally {
    await pool.close();
    await stack.stop();
  }
  print(result);
  if (process.env.SOAK_JSON) writeFileSync(process.env.SOAK_JSON, JSON.stringify(result, null, 2));
  process.exitCode = result.flat && result.failed === 0 ? 0 : 1;
}

/**
 * The stack on ports found free just before: on a busy machine another process may take one
 * meanwhile (EADDRINUSE), and then the start is tried again on new ones.
 */
async function startStack(dbs, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const ports = {};
    for (const k of ['gateway', 'people', 'companies', 'tenant', 'events', 'bookings'])
      ports[k] = await freePort();
    try {
      return await startBenchStack({ ...dbs, ports, tenantId: 'bench' });
    } catch (err) {
      if (attempt >= attempts) throw err;
      console.log(`soak: the stack did not start (${err.message}), trying again on other ports`);
    }
  }
}

async function soak(stack, pool, tenants, rate) {
  const apps = stack.apps().filter((a) => a.name !== 'nats-server');
  const served = apps.filter((a) => a.url && !/worker/.test(a.name));
  const rows = [];
  let bucket = newBucket();
  let rss = new Map(apps.map((a) => [a.name, []]));
  let before = new Map(
    await Promise.all(
      served.map(async (a) => [a.name, await durationBuckets(a.url, stack.internalToken)]),
    ),
  );
  let n = 0;
  let inFlight = 0;
  const started = Date.now();
  let minuteEnds = started + MINUTE_MS;
  let nextSample = started;
  const pending = new Set();
  while (rows.length < minutes) {
    const now = Date.now();
    const due = Math.floor(((now - started) / 1000) * rate);
    while (n < due) {
      if (inFlight >= MAX_IN_FLIGHT) {
        bucket.skipped += due - n;
        n = due;
        break;
      }
      const i = n++;
      inFlight++;
      const p = send(pool, tenants[i % tenants.length], i, bucket).finally(() => {
        inFlight--;
        pending.delete(p);
      });
      pending.add(p);
    }
    if (now >= nextSample) {
      for (const a of apps) rss.get(a.name).push(rssMb(a.pid));
      nextSample += SAMPLE_MS;
    }
    if (now >= minuteEnds) {
      const after = new Map(
        await Promise.all(
          served.map(async (a) => [a.name, await durationBuckets(a.url, stack.internalToken)]),
        ),
      );
      const sorted = bucket.latencies.sort((a, b) => a - b);
      rows.push({
        minute: rows.length + 1,
        rate: sorted.length / (MINUTE_MS / 1000),
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        failed: bucket.failed,
        skipped: bucket.skipped,
        examples: bucket.examples,
        apps: Object.fromEntries(
          apps.map((a) => [
            a.name,
            {
              rssMb: median(rss.get(a.name).filter((v) => v !== null)),
              p99Ms: before.has(a.name) ? p99Between(before.get(a.name), after.get(a.name)) : null,
            },
          ]),
        ),
      });
      printMinute(rows[rows.length - 1]);
      before = after;
      bucket = newBucket();
      rss = new Map(apps.map((a) => [a.name, []]));
      minuteEnds += MINUTE_MS;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(pending);
  const window = rows.slice(Math.floor(rows.length / 3));
  const verdicts = apps.map((a) => {
    // growth is what a leak or a slowdown shows; memory given back after a collection is not
    const memory = drift(window.map((r) => r.apps[a.name].rssMb));
    const p99s = window.map((r) => r.apps[a.name].p99Ms);
    const p99 = p99s.every((v) => v !== null) ? drift(p99s) : null;
    const flat = memory <= tolerance && (p99 === null || p99 <= p99Tolerance);
    return { app: a.name, memoryDrift: memory, p99Drift: p99, flat };
  });
  return {
    rate,
    minutes: rows,
    window: { from: window[0]?.minute, to: window[window.length - 1]?.minute },
    tolerance,
    p99Tolerance,
    verdicts,
    failed: rows.reduce((s, r) => s + r.failed, 0),
    skipped: rows.reduce((s, r) => s + r.skipped, 0),
    flat: verdicts.every((v) => v.flat),
  };
}

const fmt = (v, d = 0) => (v === null || v === undefined ? '-' : v.toFixed(d));

function printMinute(r) {
  const apps = Object.entries(r.apps)
    .map(
      ([name, a]) =>
        `${name} ${fmt(a.rssMb)} MB${a.p99Ms === null ? '' : ` p99 ${fmt(a.p99Ms, 1)}`}`,
    )
    .join(', ');
  console.log(
    `soak: minute ${r.minute}: ${fmt(r.rate)} req/s, p50 ${fmt(r.p50, 1)} ms, p99 ${fmt(r.p99, 1)} ms, ` +
      `${r.failed} failed, ${r.skipped} not sent (stack behind) | ${apps}`,
  );
  for (const e of r.examples) console.log(`soak:   ${e}`);
}

function print(result) {
  console.log(
    `\nsoak: ${result.rate} req/s offered for ${result.minutes.length} minutes; ${result.failed} failed, ${result.skipped} not sent`,
  );
  console.log(
    `soak: window minutes ${result.window.from}-${result.window.to}: drift of the median of its last three minutes from its first three`,
  );
  console.log(
    '| app | RSS MB (first -> last minute of the window) | memory drift | p99 ms (first -> last) | p99 drift | flat? |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  const win = result.minutes.filter((r) => r.minute >= result.window.from);
  for (const v of result.verdicts) {
    const first = win[0]?.apps[v.app];
    const last = win[win.length - 1]?.apps[v.app];
    console.log(
      `| ${v.app} | ${fmt(first?.rssMb)} -> ${fmt(last?.rssMb)} | ${fmt(v.memoryDrift * 100, 1)} % | ` +
        `${fmt(first?.p99Ms, 1)} -> ${fmt(last?.p99Ms, 1)} | ${v.p99Drift === null ? '-' : `${fmt(v.p99Drift * 100, 1)} %`} | ${v.flat ? 'yes' : 'NO'} |`,
    );
  }
  console.log(
    result.flat && result.failed === 0
      ? 'soak: flat, nothing failed'
      : 'soak: NOT flat or requests failed',
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
