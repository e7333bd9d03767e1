#!/usr/bin/env node
// Runs the test tiers in order: unit, integration, end-to-end and the fault drill, the first
// three each with TEST_WORKERS jest workers (default 2: the machines have two cores, and int and e2e files mostly wait on
// PostgreSQL and NATS). Integration and e2e workers keep apart: each gets a nats-server of its own
// and its own database names (tools/jest-worker-env.cjs). Prints one closing line
// `tests: N passed, N failed`. The drill tier is `npm run drill -- --short` (tools/drill: kill -9
// of every process under a mixed workload, then every effect reconciled; it starts its own
// PostgreSQL, NATS and stack), counted as one test; not run with --project.
//   node tools/test.mjs [unit|int|e2e|drill ...] [--project name[,name]]
// PostgreSQL: TEST_DATABASE_SERVER_URL, else the server on 127.0.0.1:5432 (CI's), else, when
// nothing answers there, an embedded PostgreSQL started for this run (as npm start does).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const pIdx = args.indexOf('--project');
const projects = pIdx >= 0 ? args.splice(pIdx, 2)[1] : undefined;
const tiers = args.length
  ? args
  : projects
    ? ['unit', 'int', 'e2e']
    : ['unit', 'int', 'e2e', 'drill'];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'crm-tests-'));

/**
 * Runs a command to its end; asynchronously, so that this process keeps reading the output of
 * what it started itself (an embedded PostgreSQL would stall on a full log pipe otherwise).
 */
function run(cmd, cmdArgs, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** A free port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const answers = (port, host = '127.0.0.1') =>
  new Promise((resolve) => {
    const socket = net.connect(port, host, () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
  });

/**
 * The PostgreSQL server of the run: TEST_DATABASE_SERVER_URL when set; else the one on
 * 127.0.0.1:5432 (the project's machines and CI run one there); else, on a machine without one,
 * an embedded PostgreSQL (data in .data/test-postgres, a free port), exported to the tests as
 * TEST_DATABASE_SERVER_URL and stopped at the end. TEST_DATABASE_PROBE (host:port) replaces the
 * address probed, to try the embedded path on a machine that has a server.
 */
async function testDatabase() {
  if (process.env.TEST_DATABASE_SERVER_URL) return null;
  const probe = process.env.TEST_DATABASE_PROBE || '127.0.0.1:5432';
  const [host, port] = [probe.slice(0, probe.lastIndexOf(':')), Number(probe.split(':').pop())];
  if (await answers(port, host)) return null;
  const { startEmbeddedPostgres } = await import('./dev/database.mjs');
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(root, '.data', 'test-postgres'),
    port: await freePort(),
  });
  console.log(
    `tests: no PostgreSQL answers on ${probe}: an embedded one on ${new URL(pg.url).host} ` +
      '(set TEST_DATABASE_SERVER_URL to use another server)',
  );
  return pg;
}

/**
 * Integration and e2e tests use NATS queue groups: a dev stack (npm start) on the same server
 * would answer their requests from its own databases. Unless NATS_URL names a server, the run
 * gets a nats-server of its own (real, with JetStream) when one is on the PATH.
 */
async function privateNats(name = 'nats') {
  if (process.env.NATS_URL || spawnSync('nats-server', ['--version']).status !== 0) return null;
  const port = await freePort();
  const store = path.join(tmp, name);
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100 && !(await answers(port)); i++)
    await new Promise((r) => setTimeout(r, 50));
  console.log(`tests: a private nats-server on port ${port} (set NATS_URL to use another)`);
  return { url: `nats://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/** The tier's wall time and its ten slowest files: where CI's minutes go. */
function printSlowest(tier, res, seconds) {
  const files = (res.testResults ?? [])
    .map((r) => ({
      file: path.relative(root, r.name),
      seconds:
        ((r.endTime ?? r.perfStats?.end ?? 0) - (r.startTime ?? r.perfStats?.start ?? 0)) / 1000,
    }))
    .sort((a, b) => b.seconds - a.seconds);
  const sum = files.reduce((s, f) => s + f.seconds, 0);
  console.log(
    `\ntests: ${tier} took ${seconds.toFixed(0)} s (${files.length} files, ${sum.toFixed(0)} s ` +
      'summed over the workers); the slowest:',
  );
  for (const f of files.slice(0, 10))
    console.log(`  ${f.seconds.toFixed(1).padStart(6)} s  ${f.file}`);
}

let passed = 0;
let failed = 0;
let exit = 0;
if ((await run(process.execPath, ['tools/prisma.mjs', 'generate'])) !== 0) process.exit(1);
const needsServers = tiers.some((t) => t === 'int' || t === 'e2e');
const workers = Math.max(1, Number.parseInt(process.env.TEST_WORKERS ?? '2', 10) || 1);
// One nats-server per jest worker: a service started by one worker's test must not answer the
// requests (queue groups) or take the stream of another's.
const natsServers = [];
for (let i = 1; needsServers && i <= workers; i++) {
  const server = await privateNats(`nats-${i}`);
  if (!server) break;
  natsServers.push(server);
}
const nats = natsServers[0] ?? null;
// Without a nats-server of their own (NATS_URL set, none on the PATH) the workers would share one
// NATS: integration and e2e files then run one at a time.
const serverWorkers = natsServers.length === workers ? workers : 1;
let postgres = null;
try {
  postgres = needsServers ? await testDatabase() : null;
} catch (err) {
  console.error(`tests: ${err.message}${err.hint ? `\n${err.hint}` : ''}`);
  for (const server of natsServers) server.stop();
  process.exit(1);
}
const stopServers = async () => {
  for (const server of natsServers) server.stop();
  await postgres?.stop();
};
// Ctrl-C: the embedded PostgreSQL and nats-server go too (jest gets the signal from the terminal).
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void stopServers().finally(() => process.exit(130)));
let built = false;
for (const tier of tiers) {
  // End-to-end tests and the drill start the built services as processes, as production does.
  if ((tier === 'e2e' || tier === 'drill') && !built) {
    built = true;
    if ((await run(process.execPath, ['tools/build.mjs'])) !== 0) {
      await stopServers();
      process.exit(1);
    }
  }
  if (tier === 'drill') {
    console.log('\n=== drill (npm run drill -- --short) ===');
    const status = await run(process.execPath, ['tools/drill/run.mjs', '--short', '--no-build']);
    if (status === 0) passed += 1;
    else {
      failed += 1;
      exit = status;
    }
    continue;
  }
  console.log(`\n=== ${tier} tests ===`);
  const out = path.join(tmp, `${tier}.json`);
  const jestArgs = [
    'node_modules/jest/bin/jest.js',
    '-c',
    'jest.config.cjs',
    '--json',
    `--outputFile=${out}`,
    '--passWithNoTests',
    // a project-level testTimeout is ignored by jest: the tier sets it (hooks boot real services)
    `--testTimeout=${tier === 'unit' ? 10000 : 60000}`,
  ];
  const tierWorkers = tier === 'unit' ? workers : serverWorkers;
  jestArgs.push(tierWorkers > 1 ? `--maxWorkers=${tierWorkers}` : '--runInBand');
  // tools/jest-worker-env.cjs gives worker N the variables ending in _WORKER_N
  const perWorker = {};
  for (let i = 1; tier !== 'unit' && i <= tierWorkers; i++) {
    perWorker[`TEST_DATABASE_PREFIX_WORKER_${i}`] =
      `${process.env.TEST_DATABASE_PREFIX ?? ''}w${i}_`;
    const server = natsServers[i - 1];
    if (server) perWorker[`NATS_URL_WORKER_${i}`] = server.url;
  }
  const tierStarted = Date.now();
  const status = await run(process.execPath, jestArgs, {
    JEST_TIERS: tier,
    ...(projects ? { JEST_PROJECTS: projects } : {}),
    APOLLO_TELEMETRY_DISABLED: 'true',
    NODE_ENV: 'test',
    ...(nats ? { NATS_URL: nats.url } : {}),
    ...(postgres ? { TEST_DATABASE_SERVER_URL: postgres.url } : {}),
    ...perWorker,
  });
  try {
    const res = JSON.parse(readFileSync(out, 'utf8'));
    passed += res.numPassedTests;
    failed += res.numFailedTests + (res.numRuntimeErrorTestSuites ?? 0);
    printSlowest(tier, res, (Date.now() - tierStarted) / 1000);
  } catch {
    failed += 1;
  }
  if (status !== 0) exit = status;
}
await stopServers();
rmSync(tmp, { recursive: true, force: true });
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(exit || (failed ? 1 : 0));
