// npm run bench -- list: pages of GET /v1/crm/people?pageSize=50&sort=lastname in a tenant of
// 1,000,000 people (another tenant of 200,000 in the same tables), in one run, three scenarios:
//   page 1               ?pageSize=50&sort=lastname
//   cursor at page 10000 ?pageSize=50&sort=lastname&after=<cursor>, ten cursors of pages 10,000 to
//                        10,009 in turn (taken from the service: page=9999, then nextCursor)
//   page=10000 (offset)  ?pageSize=50&sort=lastname&page=10000
// each (1) through the gateway, (2) directly at crm-people and (3) against a raw baseline (node:http
// + pg, raw-list-baseline.mjs) answering the same page, people with all their data, from one
// hand-written keyset statement; for the offset scenario the raw baseline gets the cursor of the
// same page (the goal compares with a keyset query), and (4) the raw baseline by OFFSET shows what
// OFFSET alone costs there. Before measuring, every target's answer must be the same page.
// Prints requests/s, p50 and p99 per target and p50 / p50(raw keyset) beside the goal 2x (page 1
// and the cursor; the offset page is shown without a goal, see the scenario); runListBench
// returns the rows { scenario, target, reqPerSec, p50, p99, ratio, goal }.
// The seeded database (list_bench_crm_people) is kept between runs while its marker matches.
// The targets of a scenario take turns in BENCH_ROUNDS rounds (default: slices of about 2 s) of
// BENCH_DURATION / rounds seconds each, so load from elsewhere on the machine falls on all of them alike.
// Settings: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_PEOPLE (default
// 1000000), BENCH_OTHER_PEOPLE (default 200000), BENCH_DATABASE_SERVER (default DATABASE_URL's
// server or postgresql://postgres@127.0.0.1:5432/postgres), NATS_URL (default: a nats-server of
// the run's own when one is on the PATH).
import autocannon from 'autocannon';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, rounds } from './measure.mjs';
import { startRawListBaseline } from './raw-list-baseline.mjs';
import { ensureSeeded } from './seed-people.mjs';
import { dbUrl, recreateDatabase, startBenchStack } from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TENANT = 'bench-list';
const OTHER_TENANT = 'bench-other';
const PAGE_SIZE = 50;
const DEEP_PAGE = 10_000;
const GOAL = 2;

const defaults = () => ({
  duration: Number(process.env.BENCH_DURATION ?? 10),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  rounds,
  people: Number(process.env.BENCH_PEOPLE ?? 1_000_000),
  otherPeople: Number(process.env.BENCH_OTHER_PEOPLE ?? 200_000),
  server:
    process.env.BENCH_DATABASE_SERVER ??
    dbUrl(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', 'postgres'),
  build: true,
  log: console.log,
});

/** The database, created when missing and migrated (kept, unlike recreateDatabase). */
async function ensureDatabase(server, name, service) {
  const c = new pg.Client({ connectionString: server });
  await c.connect();
  try {
    const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  const url = dbUrl(server, name);
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'tools/prisma.mjs'), 'deploy', service, '--url', url],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (r.status !== 0) throw new Error(`prisma deploy ${service} exited ${r.status}`);
  return url;
}

/**
 * A nats-server of this run's own unless NATS_URL names one: services of other stacks on a shared
 * server (other benches, a dev stack) answer the same queue groups, e.g. the gateway's API key
 * check from another tenant-info's database (401s).
 */
async function privateNats() {
  if (process.env.NATS_URL || spawnSync('nats-server', ['--version']).status !== 0) return null;
  const port = await freePort();
  const store = mkdtempSync(path.join(os.tmpdir(), 'bench-list-nats-'));
  // with JetStream, as the services' event consumers need
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], {
    stdio: 'ignore',
  });
  const up = () =>
    new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
      socket.on('error', () => resolve(false));
    });
  for (let i = 0; i < 100 && !(await up()); i++) await new Promise((r) => setTimeout(r, 50));
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: () => {
      child.once('exit', () => rmSync(store, { recursive: true, force: true }));
      child.kill('SIGTERM');
    },
  };
}

/**
 * GETs `nextPath()` for `seconds`; resolves with the latency of every answer (ms, from each
 * response's own timing: autocannon's histogram rounds to whole ms).
 */
function cannon(base, headers, nextPath, connections, seconds) {
  return new Promise((resolve, reject) => {
    const times = [];
    const bad = {};
    const inst = autocannon(
      {
        url: base,
        headers,
        connections,
        duration: seconds,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: nextPath() }) }],
      },
      (err, result) => {
        if (err) return reject(err);
        const failed =
          Object.values(bad).reduce((a, b) => a + b, 0) + result.errors + result.timeouts;
        if (failed)
          return reject(
            new Error(
              `${base}: ${failed} failed of ${result.requests.total} (status ${JSON.stringify(bad)}, errors ${JSON.stringify(errors)}, ${result.timeouts} timeouts)`,
            ),
          );
        resolve(times);
      },
    );
    const errors = {};
    inst.on('reqError', (err) => {
      errors[err.code ?? err.message] = (errors[err.code ?? err.message] ?? 0) + 1;
    });
    inst.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) times.push(ms);
      else bad[status] = (bad[status] ?? 0) + 1;
    });
  });
}

const listPath = (query) =>
  `/v1/crm/people?pageSize=${PAGE_SIZE}&sort=lastname${query ? `&${query}` : ''}`;

async function getPage(target, query) {
  const res = await fetch(`${target.url}${listPath(query)}`, { headers: target.headers });
  const body = await res.json();
  if (res.status !== 200)
    throw new Error(`${target.name} ${query}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Every target's first answer of a scenario must be the same page: the same people, data and cursor. */
async function check(scenario, targets) {
  const [first, ...rest] = await Promise.all(
    targets.map(async (t) => ({ t, body: await getPage(t, t.queries[0]) })),
  );
  const { data, metaData } = first.body;
  if (data.length !== PAGE_SIZE)
    throw new Error(`${scenario}: ${first.t.name} answers ${data.length} people`);
  for (const { t, body } of rest) {
    if (!isDeepStrictEqual(body.data, data))
      throw new Error(`${scenario}: ${t.name} answers other people or data than ${first.t.name}`);
    for (const key of ['nextCursor', 'totalResults', 'totalResultsExact'])
      if (body.metaData[key] !== metaData[key])
        throw new Error(
          `${scenario}: ${t.name} metaData.${key} ${body.metaData[key]}, not ${metaData[key]}`,
        );
  }
  return metaData;
}

/** requests/s, p50 and p99 (ms) of the latencies of `seconds` of requests. */
function stats(times, seconds) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const r1 = (x) => Math.round(x * 10) / 10;
  return { reqPerSec: r1(sorted.length / seconds), p50: r1(at(0.5)), p99: r1(at(0.99)) };
}

/**
 * Runs the list scenarios once and returns one row per scenario and target:
 * { scenario, target, reqPerSec, p50, p99, ratio, goal } (ms; ratio = p50 / p50 of the raw keyset
 * baseline of the same scenario, goal the highest ratio wanted; null for the baselines).
 */
export async function runListBench(options = {}) {
  const o = { ...defaults(), ...options };
  const { log } = o;
  if (o.build) {
    log('bench list: building');
    execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  }
  const peopleDb = await ensureDatabase(o.server, 'list_bench_crm_people', 'crm-people');
  const tenantDb = await recreateDatabase(o.server, 'list_bench_tenant_info', 'tenant-info');
  const started = Date.now();
  const tenants = { [TENANT]: o.people, [OTHER_TENANT]: o.otherPeople };
  const seeded = await ensureSeeded(peopleDb, tenants);
  log(
    seeded
      ? `bench list: seeded ${o.people} + ${o.otherPeople} people in ${((Date.now() - started) / 1000).toFixed(1)} s`
      : `bench list: kept the seeded database (${o.people} + ${o.otherPeople} people)`,
  );
  const ports = { gateway: await freePort(), people: await freePort(), tenant: await freePort() };
  const nats = await privateNats();
  if (nats) process.env.NATS_URL = nats.url;
  let stack;
  try {
    stack = await startBenchStack({ peopleDb, tenantDb, ports, tenantId: TENANT });
  } catch (err) {
    nats?.stop();
    throw err;
  } finally {
    if (nats) delete process.env.NATS_URL;
  }
  const { key, headers, internalToken } = stack;
  try {
    const raw = await startRawListBaseline(await freePort(), peopleDb);
    stack.add(raw);
    const gateway = {
      name: 'gateway',
      url: stack.gatewayUrl,
      headers: { authorization: `Bearer ${key}`, ...headers },
    };
    const direct = {
      name: 'direct crm-people',
      url: stack.peopleUrl,
      headers: { 'x-internal-token': internalToken, ...headers },
    };
    const rawTarget = { name: 'raw node:http + pg', url: raw.url, headers };

    // cursors of pages DEEP_PAGE.. DEEP_PAGE + 9, from the service (page 9999 by offset, then on)
    const deep = Math.min(DEEP_PAGE, Math.floor(o.people / PAGE_SIZE) - 10);
    const cursors = [(await getPage(direct, `page=${deep - 1}`)).metaData.nextCursor];
    while (cursors.length < 10)
      cursors.push((await getPage(direct, `after=${cursors.at(-1)}`)).metaData.nextCursor);
    // each target asks its queries in turn
    const cycle = (queries) => ({
      queries,
      paths: () => {
        let i = 0;
        return () => listPath(queries[i++ % queries.length]);
      },
    });
    const afterQueries = cursors.map((c) => `after=${c}`);

    const scenarios = [
      {
        name: 'page 1',
        targets: [gateway, direct, rawTarget].map((t) => ({ ...t, ...cycle(['']) })),
      },
      {
        name: `cursor at page ${deep}`,
        targets: [gateway, direct, rawTarget].map((t) => ({ ...t, ...cycle(afterQueries) })),
      },
      {
        name: `page=${deep} (offset)`,
        // Target 4 names "page 10,000 or a cursor at the same depth": the cursor row above is the
        // deep page's goal. An offset page costs PostgreSQL every row before it (the raw OFFSET
        // row: an index-only scan of 500,000 entries), so these rows are shown without a goal.
        informational: true,
        targets: [
          { ...gateway, ...cycle([`page=${deep}`]) },
          { ...direct, ...cycle([`page=${deep}`]) },
          // the goal's reference: a keyset query of the same page
          { ...rawTarget, ...cycle([afterQueries[0]]) },
          { ...rawTarget, name: 'raw node:http + pg OFFSET', ...cycle([`page=${deep}`]) },
        ],
      },
    ];

    const rows = [];
    log(
      `bench list: ${o.connections} connections, ${o.duration} s per target in ${o.rounds} rounds, pageSize=${PAGE_SIZE}, sort=lastname`,
    );
    for (const s of scenarios) {
      const meta = await check(s.name, s.targets);
      log(
        `bench list: ${s.name}: the same page from every target; totalResults ${meta.totalResults} (${meta.totalResultsExact ? 'exact' : 'estimate'})`,
      );
      // warm-up: JIT, pools, prepared statements and the database cache
      for (const t of s.targets) await cannon(t.url, t.headers, t.paths(), o.connections, 2);
      // The targets take turns in rounds, so a change in what else runs on the machine falls on
      // all of them alike.
      const times = s.targets.map(() => []);
      const slice = o.duration / o.rounds;
      for (let round = 0; round < o.rounds; round++) {
        for (const [i, t] of s.targets.entries())
          times[i].push(...(await cannon(t.url, t.headers, t.paths(), o.connections, slice)));
      }
      const measured = s.targets.map((t, i) => ({ t, r: stats(times[i], o.duration) }));
      const base = measured.find((m) => m.t.name === rawTarget.name).r.p50;
      for (const { t, r } of measured) {
        const isRaw = t.name.startsWith('raw');
        rows.push({
          scenario: s.name,
          target: t.name,
          ...r,
          ratio: Math.round((r.p50 / base) * 100) / 100,
          goal: isRaw || s.informational ? null : GOAL,
        });
      }
    }
    console.table(
      rows.map((r) => ({
        ...r,
        goal: r.goal === null ? '' : `<= ${r.goal}x: ${r.ratio <= r.goal ? 'met' : 'missed'}`,
      })),
    );
    log('p50/p99 in ms; ratio = p50 / p50 of the raw keyset baseline of the same scenario');
    log(
      `bench list: page=${deep} by offset has no goal: the deep page's goal is met by the cursor (after=); OFFSET steps over every earlier row, in PostgreSQL as in the raw OFFSET row`,
    );
    return rows;
  } finally {
    await stack.stop();
    nats?.stop();
  }
}

export async function main() {
  await runListBench();
}
