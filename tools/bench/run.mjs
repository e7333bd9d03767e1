#!/usr/bin/env node
// npm run bench [create|list|companies]. `list` (npm run bench -- list) pages through 100,000 people, see
// list.mjs; `companies` searches 100,000 companies, see companies.mjs. `create`, the default: creating people at the same concurrency (1) through the
// gateway, (2) directly at crm-people and (3) against a raw baseline (node:http + pg inserting the same row), in one run.
// Prints requests/s, p50 and p99 latency per target and the ratios gateway/direct and direct/raw.
// Settings: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_DATABASE_SERVER
// (default DATABASE_URL's server or postgresql://postgres@127.0.0.1:5432/postgres), NATS_URL.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summary } from './measure.mjs';
import { startRawBaseline } from './raw-baseline.mjs';
import { dbUrl, recreateDatabase, startBenchStack } from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const server =
  process.env.BENCH_DATABASE_SERVER ??
  dbUrl(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', 'postgres');
const ports = { gateway: 3900, people: 3901, tenant: 3905, raw: 3909 };

const body = JSON.stringify({
  salutation: 'Frau',
  title: 'Dr.',
  firstname: 'Bench',
  lastname: 'Marker',
  birthday: { birthday: '1980-05-17', considerBirthYear: true },
  socialMedias: [{ type: 'linkedin', link: 'https://www.linkedin.com/in/bench' }],
  customerNumber: 'B-1',
  employeeStatus: 'active',
});

function cannon(title, url, headers) {
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        title,
        url,
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
        connections,
        duration,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    autocannon.track(inst, {
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    });
  });
}

async function main() {
  console.log('bench: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const peopleDb = await recreateDatabase(server, 'bench_crm_people', 'crm-people');
  const tenantDb = await recreateDatabase(server, 'bench_tenant_info', 'tenant-info');
  const stack = await startBenchStack({ peopleDb, tenantDb, ports, tenantId: 'bench' });
  const { key, headers, internalToken } = stack;
  const gw = stack.gatewayUrl;
  try {
    stack.add(await startRawBaseline(ports.raw, peopleDb));

    console.log(`bench: ${connections} connections, ${duration} s each, POST /v1/crm/people`);
    const rows = [];
    // warm-up of each path so JIT and pools are steady before measuring
    await new Promise((r) =>
      autocannon(
        {
          url: `${gw}/v1/crm/people`,
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${key}`,
            ...headers,
          },
          connections,
          duration: 2,
        },
        r,
      ),
    );
    rows.push(
      summary(
        'gateway',
        await cannon('gateway', `${gw}/v1/crm/people`, {
          authorization: `Bearer ${key}`,
          ...headers,
        }),
      ),
    );
    rows.push(
      summary(
        'direct crm-people',
        await cannon('direct', `http://127.0.0.1:${ports.people}/v1/crm/people`, {
          'x-internal-token': internalToken,
          ...headers,
        }),
      ),
    );
    rows.push(
      summary(
        'raw node:http + pg',
        await cannon('raw', `http://127.0.0.1:${ports.raw}/v1/crm/people`, headers),
      ),
    );
    console.table(rows);
    const [g, d, r] = rows.map((x) => x['req/s']);
    console.log(
      `ratio gateway/direct: ${(g / d).toFixed(2)}  (throughput of the gateway path relative to calling the service directly)`,
    );
    console.log(
      `ratio direct/raw:     ${(d / r).toFixed(2)}  (throughput of crm-people relative to the raw node:http + pg baseline)`,
    );
  } finally {
    await stack.stop();
  }
}

const part = process.argv[2] ?? 'create';
const parts = {
  create: async () => main(),
  list: async () => (await import('./list.mjs')).main(),
  companies: async () => (await import('./companies.mjs')).main(),
};
if (!parts[part]) {
  console.error(`usage: npm run bench [-- create|list|companies]  (unknown part: ${part})`);
  process.exit(2);
}
parts[part]().catch((err) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
