// npm run bench -- list: paging through 100,000 people of one tenant,
// GET /v1/crm/people?page=N&pageSize=50&sort=lastname (1) through the gateway, (2) directly at
// crm-people and (3) against a raw baseline (node:http + pg running the same page query with a
// count), in one run. Every target requests the same sequence of random pages N.
// Prints requests/s, p50 and p99 latency per target and the ratios gateway/direct and direct/raw.
// Settings: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_PEOPLE (default
// 100000), BENCH_MAX_PAGE (highest page asked, default the last one), BENCH_DATABASE_SERVER
// (default DATABASE_URL's server or postgresql://postgres@127.0.0.1:5432/postgres), NATS_URL.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connections, duration, freePort, measure, rng } from './measure.mjs';
import { startRawListBaseline } from './raw-list-baseline.mjs';
import { seedPeople } from './seed-people.mjs';
import { dbUrl, recreateDatabase, startBenchStack } from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const people = Number(process.env.BENCH_PEOPLE ?? 100_000);
const pageSize = 50;
const lastPage = Math.ceil(people / pageSize);
const maxPage = Math.min(lastPage, Number(process.env.BENCH_MAX_PAGE ?? lastPage));
const server =
  process.env.BENCH_DATABASE_SERVER ??
  dbUrl(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', 'postgres');
const TENANT = 'bench-list';

/** The same pseudo-random page sequence for every target. */
function pages() {
  const rand = rng(7);
  return () =>
    `/v1/crm/people?page=${1 + Math.floor(rand() * maxPage)}&pageSize=${pageSize}&sort=lastname`;
}

/** One request per target before measuring: every answer must be the same page of 50. */
async function check(targets) {
  const bodies = [];
  for (const t of targets) {
    const res = await fetch(`${t.url}/v1/crm/people?page=2&pageSize=${pageSize}&sort=lastname`, {
      headers: t.headers,
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${t.name}: ${res.status} ${JSON.stringify(body)}`);
    if (body.metaData.totalResults !== people)
      throw new Error(`${t.name}: totalResults ${body.metaData.totalResults}, seeded ${people}`);
    bodies.push(body.data.map((p) => p.id).join());
  }
  if (new Set(bodies).size !== 1) throw new Error('the targets answer different pages');
}

export async function main() {
  console.log('bench list: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const peopleDb = await recreateDatabase(server, 'bench_list_crm_people', 'crm-people');
  const tenantDb = await recreateDatabase(server, 'bench_list_tenant_info', 'tenant-info');
  const started = Date.now();
  await seedPeople(peopleDb, TENANT, people);
  console.log(
    `bench list: seeded ${people} people in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const ports = { gateway: await freePort(), people: await freePort(), tenant: await freePort() };
  const stack = await startBenchStack({ peopleDb, tenantDb, ports, tenantId: TENANT });
  const { key, headers, internalToken } = stack;
  const gw = stack.gatewayUrl;
  try {
    const raw = await startRawListBaseline(await freePort(), peopleDb);
    stack.add(raw);
    const targets = [
      { name: 'gateway', url: gw, headers: { authorization: `Bearer ${key}`, ...headers } },
      {
        name: 'direct crm-people',
        url: `http://127.0.0.1:${ports.people}`,
        headers: { 'x-internal-token': internalToken, ...headers },
      },
      { name: 'raw node:http + pg', url: raw.url, headers },
    ];
    await check(targets);

    console.log(
      `bench list: ${connections} connections, ${duration} s each, GET /v1/crm/people?page=N&pageSize=${pageSize}&sort=lastname, N random in 1..${maxPage}`,
    );
    await measure(targets, pages);
  } finally {
    await stack.stop();
  }
}
