// npm run bench -- bookings: bookings-invitations under the load of a ticket sale.
//   1 BK1 public booking throughput (2 tickets with participants, answers to a booking form, a
//     paid booking so an invoice number is drawn) on ONE hot ticket type (a big quota) against
//     the same bookings spread over 100 ticket types of the same event. Every booking takes its
//     quota counter row with one conditional UPDATE late in its transaction; when that lock is
//     short, the hot case keeps up with the spread one (goal: hot/spread >= 0.5).
//   2 ET9 check-in throughput against a raw node:http + pg conditional insert (bookings-checkin.mjs)
//   3 IN14 import of 10,000 rows, upload to job done, against a raw multi-row insert (bookings-import.mjs)
//   4 an on-sale: 200 buyers, one ticket type sold out, against the design in plain SQL
//     (bookings-onsale.mjs; ONSALE_SEATS, ONSALE_CLIENTS; BENCH_ONLY=4 runs it alone)
// Scenarios are functions `(ctx) => rows` in SCENARIOS below (ctx: the service's url and headers,
// a pg pool on its database, the seeding helpers).
// Settings: BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS (see measure.mjs),
// BENCH_DATABASE_SERVER, NATS_URL (else a nats-server of its own).
// Processes as `npm start` runs them: the API (PROCESS_ROLE=api) and the mail worker in a process
// of its own at nice 19 (tools/dev/workspace.mjs WORKER_PROCESSES). BENCH_MAIL_WORKER=in-app runs
// the worker inside the API's process (PROCESS_ROLE=all, as before), =off none;
// BENCH_MAIL_WORKER_NICE overrides the worker's nice value.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkInScenario } from './bookings-checkin.mjs';
import { importScenario } from './bookings-import.mjs';
import { onSaleScenario } from './bookings-onsale.mjs';
import { benchAll, freePort, printTable, problems, row } from './measure.mjs';
import {
  benchDbName,
  benchServer,
  recreateDatabase,
  secret,
  startApp,
  startService,
} from './stack.mjs';
import { workersOf } from '../dev/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TENANT = 'bench-bookings';
const SPREAD_TYPES = 100;

export const FORM = [
  { key: 'company', label: 'Company', type: 'text', required: true },
  {
    key: 'diet',
    label: 'Diet',
    type: 'select',
    required: false,
    options: ['none', 'vegetarian', 'vegan'],
  },
  { key: 'newsletter', label: 'Newsletter', type: 'checkbox', required: false },
];

/** A published event copy starting in a year, no event capacity, with the booking form. */
export async function seedEvent(pool, tenantId) {
  const eventId = randomUUID();
  await pool.query(
    `INSERT INTO "EventCopy" ("tenantId", "eventId", sequence, title, "startsAt", "endsAt", "timeZone",
       capacity, published, status, "taxRateId", "cancellationTiers", "websiteIds", "bookingFormFields")
     VALUES ($1, $2, 1, 'Bench conference', now() + interval '365 days', now() + interval '366 days',
       'Europe/Berlin', NULL, true, 'scheduled', 'de-standard',
       '[{"daysBeforeStart":14,"feePercent":50,"feeFixed":"5.00"}]', '{}', $3::jsonb)`,
    [tenantId, eventId, JSON.stringify(FORM)],
  );
  return eventId;
}

/** `n` ticket types of the event, each with a quota no bench run exhausts. */
export async function seedTypes(pool, tenantId, eventId, n, name) {
  const { rows } = await pool.query(
    `INSERT INTO "TicketType" (id, "tenantId", "eventId", name, price, currency, quota, "createdBy", "modifiedBy")
     SELECT gen_random_uuid(), $1, $2, $3 || ' ' || i, 119, 'EUR', 10000000, 'bench', 'bench'
       FROM generate_series(1, $4::int) AS i RETURNING id`,
    [tenantId, eventId, name, n],
  );
  return rows.map((r) => r.id);
}

/** A realistic public booking: 2 participants of one type, answers to the form. */
function bookingBody(eventId, typeId, i) {
  return {
    eventId,
    booker: { firstname: 'Ada', lastname: `Booker ${i}`, email: `booker${i}@example.org` },
    tickets: [
      {
        ticketTypeId: typeId,
        participant: { firstname: 'Ada', lastname: `Booker ${i}`, email: `a${i}@example.org` },
      },
      { ticketTypeId: typeId, participant: { firstname: 'Bob', lastname: `Guest ${i}` } },
    ],
    answers: { company: 'ACME', diet: 'vegan', newsletter: i % 2 === 0 },
  };
}

/** A BK1 target whose every request books one of `typeIds` in turn. */
function bookingTarget(ctx, name, eventId, typeIds) {
  let i = 0;
  const first = bookingBody(eventId, typeIds[0], 0);
  return {
    name,
    url: ctx.url,
    method: 'POST',
    path: '/v1/crm/bookings/public',
    headers: { ...ctx.headers, 'content-type': 'application/json' },
    body: first,
    // autocannon: a fresh body per request (the type in turn, another booker)
    setupRequest: (req) => {
      i++;
      return { ...req, body: JSON.stringify(bookingBody(eventId, typeIds[i % typeIds.length], i)) };
    },
  };
}

async function bookingThroughput(ctx) {
  const eventId = await seedEvent(ctx.pool, TENANT);
  const [hot] = await seedTypes(ctx.pool, TENANT, eventId, 1, 'Hot');
  const spread = await seedTypes(ctx.pool, TENANT, eventId, SPREAD_TYPES, 'Spread');
  const scenario = '1 BK1 public booking (2 tickets, answers, invoice number)';
  const [mHot, mSpread] = await benchAll(scenario, [
    { t: bookingTarget(ctx, 'one hot ticket type', eventId, [hot]) },
    { t: bookingTarget(ctx, `spread over ${SPREAD_TYPES} ticket types`, eventId, spread) },
  ]);
  // the counters must equal the valid tickets after the run: no booking oversold or lost a seat
  const { rows } = await ctx.pool.query(
    `SELECT count(*)::int AS bad FROM "TicketType" tt WHERE tt."eventId" = $1 AND tt.sold <>
       (SELECT count(*) FROM "EventTicket" t WHERE t."ticketTypeId" = tt.id AND t.status = 'valid')`,
    [eventId],
  );
  if (rows[0].bad)
    problems.push(`${scenario}: ${rows[0].bad} ticket type counters differ from their tickets`);
  const { rows: inv } = await ctx.pool.query(
    `SELECT count(*)::int AS n, count(DISTINCT "invoiceNumber")::int AS d,
            max(split_part("invoiceNumber", '-', 2)::int) AS last
       FROM "Booking" WHERE "tenantId" = $1 AND "invoiceNumber" IS NOT NULL`,
    [TENANT],
  );
  if (inv[0].n !== inv[0].d || inv[0].n !== inv[0].last)
    problems.push(`${scenario}: invoice numbers not gap-free (${JSON.stringify(inv[0])})`);
  console.log(
    `bench bookings: ${inv[0].n} bookings made, invoice numbers 1..${inv[0].last} without gap`,
  );
  return [row(scenario, mSpread), row(scenario, mHot, mSpread, 0.5)];
}

/** The scenarios, in order: each `(ctx) => rows of the table`. */
export const SCENARIOS = [
  bookingThroughput,
  // 2 ET9 check-in (bookings-checkin.mjs): each ticket once, direct against raw node:http + pg
  // verifying the code and inserting the check-in with ON CONFLICT DO NOTHING
  (ctx) => checkInScenario(ctx),
  // 3 IN14 import of 10,000 rows (bookings-import.mjs): upload to job done against a raw
  // multi-row insert of the same rows
  (ctx) => importScenario({ ...ctx, serviceUrl: ctx.url }),
  // 4 on-sale (bookings-onsale.mjs): 200 buyers until one ticket type is sold out, against the
  // same sale in plain SQL by the service's design (one writer per event, micro-batches)
  (ctx) => onSaleScenario(ctx),
];

export async function ownNats() {
  if (process.env.NATS_URL) return { url: process.env.NATS_URL, stop: async () => {} };
  if (spawnSync('nats-server', ['--version']).status !== 0)
    return { url: 'nats://127.0.0.1:4222', stop: async () => {} };
  const port = await freePort();
  const store = await mkdtemp(path.join(os.tmpdir(), 'bench-bookings-nats-'));
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], {
    stdio: 'ignore',
  });
  await new Promise((r) => setTimeout(r, 500));
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

export async function main() {
  console.log('bench bookings: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const databaseUrl = await recreateDatabase(
    benchServer(),
    benchDbName('bk_bookings_invitations'),
    'bookings-invitations',
  );
  const nats = await ownNats();
  const internalToken = secret();
  const port = await freePort();
  const env = {
    NATS_URL: nats.url,
    INTERNAL_TOKEN: internalToken,
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
  };
  const mailWorker = process.env.BENCH_MAIL_WORKER ?? 'process';
  if (!['process', 'in-app', 'off'].includes(mailWorker))
    throw new Error(`BENCH_MAIL_WORKER=${mailWorker}: process, in-app or off`);
  const started =
    mailWorker === 'process'
      ? await startService('bookings-invitations', port, {
          ...env,
          ...(process.env.BENCH_MAIL_WORKER_NICE
            ? { MAIL_WORKER_NICE: process.env.BENCH_MAIL_WORKER_NICE }
            : {}),
        })
      : [
          await startApp('bookings-invitations', port, {
            ...env,
            PROCESS_ROLE: 'all',
            ...(mailWorker === 'off' ? { MAIL_WORKER_ENABLED: 'false' } : {}),
          }),
        ];
  const [app, ...workers] = started;
  console.log(
    `bench bookings: mail worker ${mailWorker === 'process' ? `in ${workers.map((w) => w.name).join(', ')} (nice ${process.env.BENCH_MAIL_WORKER_NICE ?? workersOf(['bookings-invitations'])[0]?.env.MAIL_WORKER_NICE ?? 0})` : mailWorker}`,
  );
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const rows = [];
  try {
    const ctx = {
      url: app.url,
      pool,
      databaseUrl,
      tenantId: TENANT,
      // what the gateway sends a service for a public operation
      headers: {
        'x-integration-name': 'bench',
        'x-integration-provider': 'bench',
        'x-service-tenantid': TENANT,
        'x-internal-token': internalToken,
      },
      seedEvent,
      seedTypes,
    };
    const only = process.env.BENCH_ONLY?.split(',').map(Number);
    for (const [n, scenario] of SCENARIOS.entries()) {
      if (only && !only.includes(n + 1)) continue;
      try {
        rows.push(...(await scenario(ctx)));
      } catch (err) {
        problems.push(`${scenario.name}: ${err.stack ?? err}`);
      }
    }
    // Mails lag behind an on-sale, none is lost: where the outbox stands when the scenarios end.
    const { rows: mails } = await pool.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE attempts > 0)::int AS attempted,
              count(*) FILTER (WHERE status = 'sent')::int AS sent FROM "Mail"`,
    );
    console.log(
      `bench bookings: mail outbox at the end: ${mails[0].total} mails, ${mails[0].attempted} attempted, ${mails[0].sent} sent`,
    );
  } finally {
    await pool.end();
    for (const p of started.reverse()) await p.stop();
    await nats.stop();
  }
  console.log('');
  printTable(rows);
  if (problems.length) {
    console.error(`\nbench bookings: ${problems.length} problem(s), their figures do not count:`);
    for (const p of problems) console.error(`- ${p}`);
    process.exitCode = 1;
  }
}
