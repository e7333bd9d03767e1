#!/usr/bin/env node
// The bad-input probe (apps/gateway-e2e/src/bad-input.e2e-spec.ts), run longer than CI runs it:
//   npm run fuzz [-- --runs 50000] [--seed 42]      (or FUZZ_RUNS / FUZZ_SEED)
// Builds the apps, starts a private nats-server (as tools/test.mjs does), runs the probe against
// a fresh stack and prints the request count, the seed and the count of 5xx answers.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const runs = Number(option('runs', process.env.FUZZ_RUNS ?? 50000));
const seed = Number(option('seed', process.env.FUZZ_SEED ?? Date.now() % 2 ** 31));
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S]');
  process.exit(2);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), 'crm-fuzz-'));
const report = path.join(tmp, 'report.json');

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
const answers = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
  });

if (spawnSync(process.execPath, ['tools/build.mjs'], { cwd: root, stdio: 'inherit' }).status) {
  process.exit(1);
}
let nats = null;
let natsUrl = process.env.NATS_URL;
if (!natsUrl && spawnSync('nats-server', ['--version']).status === 0) {
  const port = await freePort();
  nats = spawn(
    'nats-server',
    ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', path.join(tmp, 'nats')],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 100 && !(await answers(port)); i++)
    await new Promise((r) => setTimeout(r, 50));
  natsUrl = `nats://127.0.0.1:${port}`;
}

console.log(`fuzz: ${runs} requests, seed ${seed}`);
const jest = spawnSync(
  process.execPath,
  [
    'node_modules/jest/bin/jest.js',
    '-c',
    'jest.config.cjs',
    '--runInBand',
    'apps/gateway-e2e/src/bad-input.e2e-spec.ts',
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      JEST_TIERS: 'e2e',
      NODE_ENV: 'test',
      APOLLO_TELEMETRY_DISABLED: 'true',
      FUZZ_RUNS: String(runs),
      FUZZ_SEED: String(seed),
      FUZZ_REPORT: report,
      ...(natsUrl ? { NATS_URL: natsUrl } : {}),
    },
  },
);
nats?.kill('SIGTERM');
let exit = jest.status ?? 1;
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const statuses = Object.entries(r.statuses)
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
  console.log(
    `\nfuzz: ${r.requests} requests to ${r.operations} operations in ${r.seconds} s, seed ${r.seed}; ` +
      `5xx other than 503: ${r.fiveHundreds}; other problems: ${r.problems - r.fiveHundreds}; statuses ${statuses}`,
  );
  for (const d of r.details.slice(0, 30)) console.log(`  ${d.slice(0, 400)}`);
  if (r.details.length > 30) console.log(`  ... and ${r.details.length - 30} more`);
  console.log(`rerun with: npm run fuzz -- --runs ${runs} --seed ${seed}`);
} catch {
  console.log('fuzz: the probe wrote no report (see the output above)');
  exit ||= 1;
}
rmSync(tmp, { recursive: true, force: true });
process.exit(exit);
