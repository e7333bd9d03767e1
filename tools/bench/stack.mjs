// Starts the built services and the gateway for a benchmark run, on their own databases.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { redactUrl, startEmbeddedPostgres } from '../dev/database.mjs';
import { workersOf } from '../dev/workspace.mjs';
import { freePort } from './measure.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function dbUrl(server, name) {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The PostgreSQL server of the bench databases (BENCH_DATABASE_SERVER, else DATABASE_URL's). */
export const benchServer = () =>
  process.env.BENCH_DATABASE_SERVER ??
  dbUrl(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', 'postgres');

/**
 * A server for a run that writes and deletes for minutes (the soak, an on-sale): `benchServer()`
 * when its autovacuum is on, else an embedded PostgreSQL of its own with autovacuum on, as
 * PostgreSQL ships. Dead rows that only (auto)vacuum takes away make every scan slower on a server
 * with autovacuum off (this project's test server), which no production server shows: the soak's
 * people table held 219 live rows and 20,819 dead ones after 30 minutes (crm-people's p99 +90 %),
 * and an on-sale's later phases ran on 50,400 dead mail rows and 50,400 dead webhook deliveries.
 * `<label>_DATABASE=server` (SOAK_DATABASE, ONSALE_DATABASE) keeps the server anyway. While the
 * embedded one runs, `benchServer()` names it (BENCH_DATABASE_SERVER), so every database of the
 * run is on it, a raw baseline's too. Runs `run(server)` there and stops what it started.
 */
export async function onServerWithAutovacuum(label, run) {
  const database = await serverWithAutovacuum(label);
  try {
    return await run(database.server);
  } finally {
    await database.stop();
  }
}

async function serverWithAutovacuum(label) {
  const server = benchServer();
  const asIs = { server, stop: async () => undefined };
  if (process.env[`${label.toUpperCase()}_DATABASE`] === 'server') return asIs;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  const { rows } = await client.query('SHOW autovacuum').finally(() => client.end());
  if (rows[0]?.autovacuum === 'on') return asIs;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `${label}-postgres-`));
  const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  console.log(
    `${label}: ${redactUrl(server)} runs with autovacuum off: the databases are on an embedded PostgreSQL of its own (autovacuum on) at ${redactUrl(embedded.url)}`,
  );
  const before = process.env.BENCH_DATABASE_SERVER;
  process.env.BENCH_DATABASE_SERVER = embedded.url;
  return {
    server: embedded.url,
    stop: async () => {
      if (before === undefined) delete process.env.BENCH_DATABASE_SERVER;
      else process.env.BENCH_DATABASE_SERVER = before;
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const checkout = path
  .basename(root)
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '_');

/**
 * `bench_<checkout>_<name>`: two checkouts benchmarking on one server at the same time do not
 * drop each other's databases, and one checkout reuses its names run after run.
 */
export const benchDbName = (name) => `bench_${checkout}_${name}`;

/**
 * Gives the tables of `urls`' databases the statistics a database in use has. Created empty
 * moments before, they have none until autovacuum's first round (a minute apart), and until then
 * the planner may pick plans that read a whole table per statement: an on-sale that started
 * before that round sold at half the rate (see the README's on-sale figures of stop 43).
 */
export async function analyzeDatabases(urls) {
  for (const url of urls) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('ANALYZE').finally(() => client.end());
  }
}

export async function recreateDatabase(server, name, service) {
  const c = new pg.Client({ connectionString: server });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  const url = dbUrl(server, name);
  await run(process.execPath, [
    path.join(root, 'tools/prisma.mjs'),
    'deploy',
    service,
    '--url',
    url,
  ]);
  return url;
}

function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    p.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`)),
    );
  });
}

async function waitReady(url, child, name) {
  const until = Date.now() + 30000;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} ended (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become ready at ${url}`);
}

/**
 * A service as `npm start` runs it: its API process (PROCESS_ROLE=api when it has worker
 * processes) and each worker process (tools/dev/workspace.mjs WORKER_PROCESSES, e.g.
 * bookings-invitations' mail worker at nice 19), all with `env`. The API first in the list.
 */
export async function startService(name, port, env) {
  const workers = workersOf([name]);
  const started = [
    await startApp(name, port, workers.length ? { ...env, PROCESS_ROLE: 'api' } : env),
  ];
  try {
    for (const w of workers)
      started.push(
        await startApp(
          w.name,
          await freePort(),
          { ...w.env, ...env, PROCESS_ROLE: w.role },
          { app: w.app },
        ),
      );
  } catch (err) {
    for (const p of started) await p.stop();
    throw err;
  }
  return started;
}

/**
 * SECRETS_KEY of every app a bench starts (events and bookings-invitations seal secrets with it;
 * the others ignore it): drawn per run, as the bench's databases are made anew per run.
 */
const BENCH_SECRETS_KEY = `bench:${randomBytes(32).toString('base64')}`;

/**
 * Starts the build of `app` (default: `name`) as `name`: a service's worker process runs its
 * service's build in another PROCESS_ROLE (tools/dev/workspace.mjs WORKER_PROCESSES).
 */
export async function startApp(name, port, env, { app = name } = {}) {
  // BENCH_CPU_PROFILE=<dir>: each app writes a V8 CPU profile there when it stops (open it in
  // Chrome's DevTools or speedscope) - profile before optimising.
  const profile = process.env.BENCH_CPU_PROFILE
    ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROFILE)]
    : [];
  const main = path.join(root, 'dist/apps', app, 'src/main.js');
  const child = spawn(process.execPath, [...profile, main], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APOLLO_TELEMETRY_DISABLED: 'true',
      PORT: String(port),
      SECRETS_KEY: BENCH_SECRETS_KEY,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let stopping = false;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      // killed from outside, or crashed: its targets fail from now on, and this says why
      if (!stopping) console.error(`bench: ${name} ended (${signal ?? `exit code ${code}`})`);
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    stopping = true;
    child.kill('SIGTERM'); // nothing when it has ended already
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitReady(url, child, name);
  } catch (err) {
    await stop();
    throw err;
  }
  return { name, url, child, stop };
}

export const secret = () => randomBytes(24).toString('base64url');

const answers = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
  });

/**
 * The services answer NATS requests in queue groups, so any other stack on the same server (npm
 * start, a test run, another checkout's bench) would answer this one's requests (an API key it
 * does not know: 401) and the other way round. Unless NATS_URL names a server, the stack gets a
 * nats-server of its own (with JetStream) when one is on the PATH, as the tests do.
 */
async function benchNats() {
  if (process.env.NATS_URL) return { url: process.env.NATS_URL };
  if (spawnSync('nats-server', ['--version']).status !== 0) return { url: 'nats://127.0.0.1:4222' };
  const port = await freePort();
  const store = await mkdtemp(path.join(os.tmpdir(), 'bench-nats-'));
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100 && !(await answers(port)); i++)
    await new Promise((r) => setTimeout(r, 50));
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(store, { recursive: true, force: true });
    },
  };
}

/** A JSON client for seeding through an API: answers `data`, throws on any non-2xx answer. */
export function apiClient(base, headers) {
  return async (method, p, body) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
}

/**
 * tenant-info, crm-people, crm-companies (when companiesDb is given), events (when eventsDb is
 * given, with `eventsEnv`), bookings-invitations (when bookingsDb is given, with `bookingsEnv`;
 * `serviceEnv` is what it was started with, for a second replica) and the gateway (with
 * `gatewayEnv`; events and bookings-invitations are subgraphs when bookings-invitations runs, as
 * under `npm start`) on the given databases and ports, with one tenant on the tariff holding every
 * module and an API key for it; `addTenant(id)` makes another one the same way.
 * `stop()` ends every process started here and anything given to `add()` (e.g. a raw baseline).
 */
export async function startBenchStack({
  peopleDb,
  companiesDb,
  eventsDb,
  bookingsDb,
  tenantDb,
  ports,
  tenantId,
  eventsEnv = {},
  bookingsEnv = {},
  gatewayEnv = {},
}) {
  const adminToken = secret();
  const internalToken = secret();
  const apps = [];
  const stop = async () => {
    // one after the other, NATS last: no reconnect noise from a stopping service
    for (const a of apps.reverse()) await a.stop();
  };
  try {
    const nats = await benchNats();
    if (nats.stop) apps.push(nats); // stopped last
    const service = { NATS_URL: nats.url, INTERNAL_TOKEN: internalToken, HOST: '127.0.0.1' };
    apps.push(await startApp('tenant-info', ports.tenant, { ...service, DATABASE_URL: tenantDb }));
    apps.push(await startApp('crm-people', ports.people, { ...service, DATABASE_URL: peopleDb }));
    const subgraphs = ['crm-people', 'tenant-info'];
    if (companiesDb) {
      apps.push(
        await startApp('crm-companies', ports.companies, {
          ...service,
          DATABASE_URL: companiesDb,
        }),
      );
      subgraphs.push('crm-companies');
    }
    if (eventsDb) {
      apps.push(
        ...(await startService('events', ports.events, {
          ...service,
          DATABASE_URL: eventsDb,
          ...eventsEnv,
        })),
      );
    }
    const bookingsServiceEnv = { ...service, DATABASE_URL: bookingsDb, ...bookingsEnv };
    if (bookingsDb) {
      apps.push(
        ...(await startService('bookings-invitations', ports.bookings, bookingsServiceEnv)),
      );
      subgraphs.push(...(eventsDb ? ['events'] : []), 'bookings-invitations');
    }
    apps.push(
      await startApp('gateway', ports.gateway, {
        ...service,
        ADMIN_TOKEN: adminToken,
        CRM_PEOPLE_URL: `http://127.0.0.1:${ports.people}`,
        ...(companiesDb ? { CRM_COMPANIES_URL: `http://127.0.0.1:${ports.companies}` } : {}),
        ...(eventsDb ? { EVENTS_URL: `http://127.0.0.1:${ports.events}` } : {}),
        ...(bookingsDb ? { BOOKINGS_INVITATIONS_URL: `http://127.0.0.1:${ports.bookings}` } : {}),
        // the bench drives one key far beyond a real client: it measures the counting, never a 429
        KEY_RATE_LIMIT_PER_MINUTE: '1000000000',
        ...gatewayEnv,
        TENANT_INFO_URL: `http://127.0.0.1:${ports.tenant}`,
        GRAPHQL_SUBGRAPHS: subgraphs.join(','),
      }),
    );
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    const admin = (method, p, b) =>
      fetch(`${gatewayUrl}/v1/admin${p}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: b && JSON.stringify(b),
      }).then((r) => r.json());
    /** A tenant on tariff `complete` with an API key, and what its callers send. */
    const addTenant = async (id) => {
      await admin('POST', '/tenants', { id, name: `Bench tenant ${id}` });
      await admin('PUT', `/tenants/${id}/tariff`, { tariffId: 'complete' });
      const issued = (await admin('POST', `/tenants/${id}/api-keys`, { name: 'bench' })).data;
      const headers = {
        'x-integration-name': 'bench',
        'x-integration-provider': 'bench',
        'x-service-tenantid': id,
      };
      return {
        tenantId: id,
        key: issued.key,
        headers,
        gatewayHeaders: { authorization: `Bearer ${issued.key}`, ...headers },
        serviceHeaders: { ...headers, 'x-internal-token': internalToken, 'x-caller-id': issued.id },
      };
    };
    const first = await addTenant(tenantId);
    const serviceUrls = [ports.people, ports.tenant]
      .concat(companiesDb ? [ports.companies] : [])
      .concat(eventsDb ? [ports.events] : [])
      .concat(bookingsDb ? [ports.bookings] : [])
      .map((port) => `http://127.0.0.1:${port}`);
    return {
      gatewayUrl,
      peopleUrl: `http://127.0.0.1:${ports.people}`,
      companiesUrl: companiesDb ? `http://127.0.0.1:${ports.companies}` : undefined,
      eventsUrl: eventsDb ? `http://127.0.0.1:${ports.events}` : undefined,
      bookingsUrl: bookingsDb ? `http://127.0.0.1:${ports.bookings}` : undefined,
      /** bookings-invitations' environment (a second replica is started with it). */
      bookingsEnv: bookingsDb ? bookingsServiceEnv : undefined,
      natsUrl: nats.url,
      internalToken,
      key: first.key,
      headers: first.headers,
      /** What a client of the gateway sends. */
      gatewayHeaders: first.gatewayHeaders,
      /** What the gateway sends a service: the tenant headers, its token and the verified key id. */
      serviceHeaders: first.serviceHeaders,
      addTenant,
      add: (app) => apps.push(app),
      /** Every app process started here: name, process id, URL (the soak samples them). */
      apps: () =>
        apps.filter((a) => a.child).map((a) => ({ name: a.name, pid: a.child.pid, url: a.url })),
      /** The process id of an app started here (its CPU time, for instance). */
      pid: (name) => apps.find((a) => a.name === name)?.child.pid,
      /** Waits until no service has background work left (see waitQuiet). */
      waitQuiet: (label) => waitQuiet(serviceUrls, internalToken, label),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** What a service still has to do in the background, by its own metrics. */
const BACKLOG_METRICS = [
  'outbox_pending_events',
  'jetstream_consumer_pending_events',
  'jetstream_consumer_unacknowledged_events',
  'webhook_deliveries_pending',
  'mails_pending',
];

/** An app's /metrics page (Prometheus text), read with the internal token. */
export async function metricsText(url, internalToken) {
  const res = await fetch(`${url}/metrics`, { headers: { 'x-internal-token': internalToken } });
  if (!res.ok) throw new Error(`${url}/metrics answered ${res.status}`);
  return res.text();
}

/** The sum of the samples of `names` in a Prometheus text exposition. */
export function sumSamples(text, names) {
  let sum = 0;
  for (const line of text.split('\n')) {
    const name = line.split(/[{ ]/, 1)[0];
    if (names.includes(name)) sum += Number(line.slice(line.lastIndexOf(' ') + 1)) || 0;
  }
  return sum;
}

/**
 * Waits (up to 5 minutes) until the services' outboxes, consumers, webhook and mail queues are
 * empty, by their /metrics: a scenario measured while the consumers still drain the events of
 * the one before (some 30,000 people.created of the create scenario, applied by the events
 * service for its webhook fan-out) measures that drain as much as itself, and the path with more
 * hops (the gateway's) suffers more from a busy machine. Prints how long the drain took.
 */
export async function waitQuiet(urls, internalToken, label = '') {
  const started = Date.now();
  let left = 0;
  while (Date.now() - started < 300_000) {
    const texts = await Promise.all(urls.map((url) => metricsText(url, internalToken)));
    left = texts.reduce((n, t) => n + sumSamples(t, BACKLOG_METRICS), 0);
    if (left === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const waited = ((Date.now() - started) / 1000).toFixed(1);
  if (left)
    console.log(`bench: ${label}: ${left} events still in the background after ${waited} s`);
  else if (Number(waited) >= 1)
    console.log(`bench: ${label}: background work drained in ${waited} s`);
}
