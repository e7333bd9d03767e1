// npm run bench -- consumer: what consuming outbox events costs, on crm-people's people.created as
// the events service's webhook fan-out consumes them (tenant-info, crm-people, events and the
// gateway running). Two phases on one stack, each BENCH_DURATION s (after a 2 s warm-up) of
// person creates straight at crm-people with BENCH_CONNECTIONS connections:
//   1 the tenant has no webhook endpoint: the fan-out has nothing to store for any event;
//   2 the tenant has one endpoint for person.created, at a local receiver answering 204.
// Per phase: creates/s with p50/p99, then for the events service: how long after the burst its
// backlog took to drain (every event acked), its CPU seconds per 1,000 events, and how many
// ProcessedEvent rows and writing transactions (distinct xmin of those rows) the events cost.
// Settings: BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_DATABASE_SERVER, NATS_URL.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import pg from 'pg';
import { bench, freePort, printTable, problems, row } from './measure.mjs';
import {
  apiClient,
  benchDbName,
  benchServer,
  recreateDatabase,
  startBenchStack,
} from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TENANT = 'bench-consumer';
const STREAM = 'CRM_EVENTS';
const SUBJECT = 'crm-people.people.created';
const DURABLE = 'events__crm-people_people_created';

/** CPU seconds the process has used so far (user + system), from /proc; null elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return null;
  }
}

/** A receiver answering 204 to every webhook, counting them. */
async function startReceiver() {
  let received = 0;
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  const port = await freePort();
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get received() {
      return received;
    },
    stop: () => new Promise((r) => srv.close(r)),
  };
}

/** Waits until crm-people has published every event and the events service acked them all. */
async function drained({ jsm, peoplePool }, ms = 600_000) {
  const until = Date.now() + ms;
  for (;;) {
    const { rows } = await peoplePool.query(
      `SELECT count(*)::int AS n FROM "OutboxEvent" WHERE "publishedAt" IS NULL`,
    );
    const info = await jsm.consumers.info(STREAM, DURABLE);
    if (!rows[0].n && !info.num_pending && !info.num_ack_pending) return;
    if (Date.now() > until) throw new Error(`${info.num_pending} events still pending`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How many people.created events the stream holds. */
async function published(jsm) {
  const info = await jsm.streams.info(STREAM, { subjects_filter: SUBJECT });
  return info.state.subjects?.[SUBJECT] ?? 0;
}

/** ProcessedEvent rows of the events database and the transactions that wrote them. */
async function processedRows(eventsPool) {
  const { rows } = await eventsPool.query(
    `SELECT count(*)::int AS rows, count(DISTINCT xmin::text)::int AS transactions
       FROM "ProcessedEvent"`,
  );
  return rows[0];
}

/** A row of the table that says something instead of measuring a target. */
const note = (scenario, target) => ({ scenario, target, failed: false });

async function phase(name, ctx) {
  const { stack, jsm, eventsPid } = ctx;
  const before = {
    cpu: cpuSeconds(eventsPid),
    processed: await processedRows(ctx.eventsPool),
    events: await published(jsm),
  };
  const scenario = `${name}: POST /v1/crm/people`;
  const m = await bench(scenario, {
    name: 'direct crm-people',
    url: stack.peopleUrl,
    method: 'POST',
    path: '/v1/crm/people',
    body: { firstname: 'Bench', lastname: 'Consumer' },
    headers: stack.serviceHeaders,
  });
  const burstEnded = Date.now();
  await drained(ctx);
  const drainS = (Date.now() - burstEnded) / 1000;
  const events = (await published(jsm)) - before.events;
  const cpu = cpuSeconds(eventsPid);
  const cpuPerThousand = cpu == null ? 'n/a' : (((cpu - before.cpu) / events) * 1000).toFixed(2);
  const after = await processedRows(ctx.eventsPool);
  return [
    row(scenario, m),
    note(
      scenario,
      `events service: ${events} events, drained ${drainS.toFixed(1)} s after the burst, ` +
        `${cpuPerThousand} CPU s per 1,000 events, ${after.rows - before.processed.rows} ` +
        `ProcessedEvent rows in ${after.transactions - before.processed.transactions} transactions`,
    ),
  ];
}

export async function main() {
  console.log('bench consumer: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const db = (name, svc) => recreateDatabase(benchServer(), benchDbName(`co_${name}`), svc);
  const eventsDb = await db('events', 'events');
  const peopleDb = await db('crm_people', 'crm-people');
  const tenantDb = await db('tenant_info', 'tenant-info');
  const ports = {
    gateway: await freePort(),
    people: await freePort(),
    events: await freePort(),
    tenant: await freePort(),
  };
  const receiver = await startReceiver();
  const stack = await startBenchStack({
    peopleDb,
    eventsDb,
    tenantDb,
    ports,
    tenantId: TENANT,
    eventsEnv: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
  });
  const eventsPool = new pg.Pool({ connectionString: eventsDb, max: 2 });
  const peoplePool = new pg.Pool({ connectionString: peopleDb, max: 2 });
  const nc = await connect({ servers: stack.natsUrl, name: 'bench-consumer' });
  const rows = [];
  try {
    const ctx = {
      stack,
      eventsPool,
      peoplePool,
      jsm: await nc.jetstreamManager(),
      eventsPid: stack.pid('events'),
    };
    rows.push(...(await phase('1 no webhook endpoint', ctx)));
    await apiClient(stack.eventsUrl, stack.serviceHeaders)(
      'POST',
      '/v1/crm/integrations/webhooks',
      { url: receiver.url, eventTypes: ['person.created'] },
    );
    rows.push(...(await phase('2 one endpoint for person.created', ctx)));
  } finally {
    await nc.close();
    await eventsPool.end();
    await peoplePool.end();
    await stack.stop();
    await receiver.stop();
  }
  console.log('');
  printTable(rows);
  if (problems.length) {
    console.error(`\nbench consumer: ${problems.length} problem(s), their figures do not count:`);
    for (const p of problems) console.error(`- ${p}`);
    process.exitCode = 1;
  }
}
