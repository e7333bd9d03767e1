#!/usr/bin/env node
// npm run bench [-- all|list|companies|events|bookings|onsale|onsale-designs|onsale-shapes|consumer|observability|log-line]
//
// No argument: scenarios 1-5 against one stack (built apps from dist/, started once: the whole
// stack by default, BENCH_STACK below), each
// target warmed up for 2 s, then the targets of a scenario measured in turn for BENCH_ROUNDS rounds
// (default: slices of about 2 s) of BENCH_DURATION / BENCH_ROUNDS s (so both sides of a ratio see
// the same machine), ending with one table
// `scenario | target | req/s | p50 ms | p99 ms | ratio | ±se | goal | met?` (±se: the ratio's
// standard error from the spread of the rounds' own ratios):
//   1 GET /health/live: crm-people directly vs a bare node:http server (scenarios/health.mjs)
//   2 create a person with the seed's full body: direct vs raw, gateway vs raw, with tags vs
//     without; 3 read a person with cards, relations and lifecycle: direct vs raw, gateway vs
//     direct; 4 GraphQL person(id): gateway vs the subgraph directly (scenarios/people.mjs)
//   5 create and read a company: direct vs raw, gateway vs direct (scenarios/companies.mjs)
// The raw baselines (raw/*.mjs) are node:http + pg doing the same writes and reads in plain SQL.
// `all` adds the list scenario of list.mjs (1,000,000 people: page 1, a cursor at page 10,000 and
// page=10000 by offset, p50 against a raw keyset page; goal at most 2x for page 1 and the cursor,
// the offset page shown beside without a goal: target 4 accepts a cursor for the deep page).
// `list` and `companies` run the older list and company search benches on their own stacks;
// `events` the events service's (events.mjs: website event list, public read, webhook fan-out);
// `bookings` bookings-invitations' (bookings.mjs: public booking throughput, hot vs spread);
// `onsale` the on-sale of issue 19 on the whole stack (onsale-stack.mjs: mails, webhooks and
// touchpoints drained, 10 tenants, two events, two replicas);
// `onsale-designs` the on-sale designs in plain SQL (raw/onsale.mjs: bookings/s of each, exactness);
// `onsale-shapes` one replica vs two vs two events of a tenant, bookings-invitations alone
// (onsale-shapes.mjs: rounds of each, medians and ratios);
// `consumer` what the events service's consumer of people.created costs (consumer.mjs);
// `observability` what request lines, request metrics and the request context cost
// (observability.mjs: observed apps vs REQUEST_OBSERVATION=off, goal within 5 %); `log-line`
// the µs of one request line alone (log-line.mjs).
// A failed request (non-2xx, error, timeout, failed body check) is printed after the table
// and makes the run exit with 1.
// Settings: BENCH_DURATION (s, default 10), BENCH_ROUNDS (default BENCH_DURATION / 2, at least 3), BENCH_CONNECTIONS (default 10), BENCH_DATABASE_SERVER
// (default DATABASE_URL's server or postgresql://postgres@127.0.0.1:5432/postgres), NATS_URL,
// BENCH_STACK (whole: the six apps and their worker processes as npm start runs them, the
// default; core: tenant-info, crm-people, crm-companies and the gateway), BENCH_WITH_EVENTS=1
// (core only: the events service runs too, consuming crm-people's outbox events for its webhook
// fan-out; the tenant has no webhook endpoint).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connections, duration, freePort, printResults, problems } from './measure.mjs';
import { companyScenarios } from './scenarios/companies.mjs';
import { healthScenario } from './scenarios/health.mjs';
import { peopleScenarios } from './scenarios/people.mjs';
import { benchDbName, benchServer, recreateDatabase, startBenchStack } from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Which apps the scenarios run beside. `whole` (default): the six apps and their worker processes,
 * as `npm start` runs them; what the services do in the background (outbox relays, consumers,
 * workers) costs the machine's CPU, and a ratio measured without them read 0.89 where users
 * measured 0.73. `core`: tenant-info, crm-people, crm-companies and the gateway only (the shape
 * of the figures before 2026-11-28), events too with BENCH_WITH_EVENTS=1.
 */
function stackShape() {
  const shape = process.env.BENCH_STACK ?? 'whole';
  if (shape !== 'whole' && shape !== 'core')
    throw new Error(`BENCH_STACK=${shape}: expected whole or core`);
  return shape;
}

async function scenarios() {
  const server = benchServer();
  const db = (name, service) => recreateDatabase(server, benchDbName(name), service);
  const peopleDb = await db('crm_people', 'crm-people');
  const companiesDb = await db('crm_companies', 'crm-companies');
  const tenantDb = await db('tenant_info', 'tenant-info');
  const whole = stackShape() === 'whole';
  const eventsDb =
    whole || process.env.BENCH_WITH_EVENTS === '1' ? await db('events', 'events') : undefined;
  const bookingsDb = whole ? await db('bookings_invitations', 'bookings-invitations') : undefined;
  const ports = {
    gateway: await freePort(),
    people: await freePort(),
    companies: await freePort(),
    tenant: await freePort(),
    events: await freePort(),
    bookings: await freePort(),
  };
  const stack = await startBenchStack({
    peopleDb,
    companiesDb,
    eventsDb,
    bookingsDb,
    tenantDb,
    ports,
    tenantId: 'bench',
  });
  console.log(
    `bench: ${connections} connections, 2 s warm-up and ${duration} s per target; ` +
      (whole
        ? 'the whole stack as npm start runs it (six apps and their worker processes)'
        : `BENCH_STACK=core: tenant-info, crm-people, crm-companies${eventsDb ? ', events' : ''} and the gateway`),
  );
  try {
    const ctx = { stack, peopleDb, companiesDb };
    const rows = [];
    for (const run of [healthScenario, peopleScenarios, companyScenarios]) {
      await stack.waitQuiet(`before ${run.name.replace(/Scenarios?$/, '')}`);
      rows.push(...(await run(ctx)));
    }
    return rows;
  } finally {
    await stack.stop();
  }
}

/** The list scenario's rows, when list.mjs offers them (it seeds and starts its own stack). */
async function listScenario() {
  const { runListBench } = await import('./list.mjs');
  const rows = await runListBench();
  // p50 of the service over p50 of the raw keyset page: lower is better (goal: at most 2x)
  return rows.map((r) => ({
    ...r,
    scenario: `6 list: ${r.scenario}`,
    goalIsMax: true,
    failed: r.failed ?? false,
  }));
}

async function main(withList) {
  console.log('bench: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const rows = await scenarios();
  if (withList) {
    try {
      rows.push(...(await listScenario()));
    } catch (err) {
      problems.push(`list scenario: ${err.stack ?? err}`);
    }
  }
  printResults(rows);
}

const part = process.argv[2] ?? 'default';
const parts = {
  default: () => main(false),
  all: () => main(true),
  list: async () => (await import('./list.mjs')).main(),
  companies: async () => (await import('./companies.mjs')).main(),
  events: async () => (await import('./events.mjs')).main(),
  bookings: async () => (await import('./bookings.mjs')).main(),
  onsale: async () => (await import('./onsale-stack.mjs')).main(),
  'onsale-designs': async () => (await import('./raw/onsale.mjs')).main(process.argv.slice(3)),
  'onsale-shapes': async () => (await import('./onsale-shapes.mjs')).main(),
  consumer: async () => (await import('./consumer.mjs')).main(),
  observability: async () => (await import('./observability.mjs')).main(),
  'log-line': async () => (await import('./log-line.mjs')).main(),
};
if (!parts[part]) {
  console.error(
    `usage: npm run bench [-- all|list|companies|events|bookings|onsale|onsale-designs|onsale-shapes|consumer|observability|log-line]  (unknown part: ${part})`,
  );
  process.exit(2);
}
parts[part]().catch((err) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
