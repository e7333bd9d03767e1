#!/usr/bin/env node
// The on-sale designs of issue 19, measured in plain SQL on this machine before one is built:
//   npm run bench -- onsale-designs [design ...]     (default: all; or node tools/bench/raw/onsale.mjs)
// Each design sells SEATS seats of ONE ticket type (1 paid ticket per booking, so each booking
// draws an invoice number of its tenant and year) to ONSALE_CLIENTS concurrent buyers until it is
// sold out, then checks the result is exact: seats sold = quota = bookings = tickets, invoice
// numbers 1..N without a gap or a repeat. It prints bookings/s and the buyers' p50/p99.
//   per-booking   today's shape: one transaction per booking takes the ticket type's counter,
//                 the event's counter and the tenant's invoice counter (each lock held until the
//                 commit is flushed).
//   split-counter the ticket type's quota split over SHARDS counter rows, a booking takes a seat
//                 from a random one (the next when it is empty); the invoice number per booking.
//   seat-rows     alf.io's: one row per seat, a booking takes a free one with FOR UPDATE SKIP
//                 LOCKED (no counter), but still draws its invoice number per booking.
//   batch-writer  one writer per event: buyers' requests queue in the process, the writer takes
//                 what is waiting (up to ONSALE_BATCH) and decides and writes them in ONE
//                 transaction: the counter row locked once, a range of invoice numbers drawn once,
//                 multi-row inserts; each buyer is answered after the commit.
//   batch-writer-2  the same with two writers (two replicas) selling the same event: the
//                 counter row's lock makes them take turns.
// Settings: ONSALE_SEATS (default 6000), ONSALE_CLIENTS (200), ONSALE_POOL (20 connections, the
// service's pool), ONSALE_BATCH (256), ONSALE_SHARDS (16), BENCH_DATABASE_SERVER (else the server of tools/bench).
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchDbName, benchServer, dbUrl } from '../stack.mjs';

const SEATS = Number(process.env.ONSALE_SEATS ?? 6000);
const CLIENTS = Number(process.env.ONSALE_CLIENTS ?? 200);
const POOL = Number(process.env.ONSALE_POOL ?? 20);
const BATCH = Number(process.env.ONSALE_BATCH ?? 256);
const SHARDS = Number(process.env.ONSALE_SHARDS ?? 16);
const TENANT = 'bench-onsale';
const YEAR = 2026;

const SCHEMA = `
DROP TABLE IF EXISTS "Booking", "EventTicket", "TicketType", "EventCopy", "InvoiceCounter", "QuotaShard";
CREATE TABLE "QuotaShard" ("ticketTypeId" uuid, shard int, quota int NOT NULL, sold int NOT NULL DEFAULT 0,
  PRIMARY KEY ("ticketTypeId", shard));
CREATE TABLE "EventCopy" ("tenantId" text, "eventId" uuid, capacity int, sold int NOT NULL DEFAULT 0,
  PRIMARY KEY ("tenantId", "eventId"));
CREATE TABLE "TicketType" (id uuid PRIMARY KEY, "tenantId" text NOT NULL, "eventId" uuid NOT NULL,
  price numeric(12,2) NOT NULL, quota int, sold int NOT NULL DEFAULT 0);
CREATE TABLE "InvoiceCounter" ("tenantId" text, year int, last int NOT NULL,
  PRIMARY KEY ("tenantId", year));
CREATE TABLE "Booking" (id uuid PRIMARY KEY, "tenantId" text NOT NULL, "eventId" uuid NOT NULL,
  status text NOT NULL, "paymentStatus" text NOT NULL, total numeric(12,2) NOT NULL,
  "bookerFirstname" text, "bookerLastname" text, "bookerEmail" text, answers jsonb,
  "invoiceNumber" text, "invoiceDate" timestamptz, "dateCreated" timestamptz NOT NULL DEFAULT now(),
  UNIQUE ("tenantId", "invoiceNumber"));
CREATE INDEX ON "Booking" ("tenantId", "eventId");
CREATE TABLE "EventTicket" (id uuid PRIMARY KEY, "tenantId" text NOT NULL, "eventId" uuid NOT NULL,
  "ticketTypeId" uuid NOT NULL, "bookingId" uuid, status text NOT NULL, code text,
  "participantFirstname" text, "participantLastname" text, "participantEmail" text,
  price numeric(12,2) NOT NULL, "dateCreated" timestamptz NOT NULL DEFAULT now());
CREATE INDEX ON "EventTicket" ("tenantId", "bookingId");
CREATE INDEX ON "EventTicket" ("ticketTypeId", status);
`;

const invoiceNumber = (n) => `${YEAR}-${String(n).padStart(6, '0')}`;
const buyer = (i) => ({
  firstname: 'Ada',
  lastname: `Buyer ${i}`,
  email: `buyer${i}@example.org`,
  answers: { company: 'ACME', diet: 'vegan', newsletter: i % 2 === 0 },
});

async function setUp(pool, { seatRows = false } = {}) {
  await pool.query(SCHEMA);
  const eventId = randomUUID();
  const typeId = randomUUID();
  await pool.query(`INSERT INTO "EventCopy" VALUES ($1, $2, $3, 0)`, [TENANT, eventId, SEATS]);
  await pool.query(`INSERT INTO "TicketType" VALUES ($1, $2, $3, 119, $4, 0)`, [
    typeId,
    TENANT,
    eventId,
    SEATS,
  ]);
  if (seatRows)
    await pool.query(
      `INSERT INTO "EventTicket" (id, "tenantId", "eventId", "ticketTypeId", status, price)
       SELECT gen_random_uuid(), $1, $2, $3, 'free', 119 FROM generate_series(1, $4::int)`,
      [TENANT, eventId, typeId, SEATS],
    );
  await pool.query('VACUUM ANALYZE');
  return { eventId, typeId };
}

/** `fn` in a transaction of one pooled connection: committed when it answers true. */
async function transaction(pool, fn) {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const ok = await fn(c);
    await c.query(ok ? 'COMMIT' : 'ROLLBACK');
    return ok;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}

/** One booking as today: counters and the invoice counter in the booking's own transaction. */
async function perBooking(pool, { eventId, typeId }, i) {
  return transaction(pool, async (c) => {
    const id = randomUUID();
    const b = buyer(i);
    await c.query(
      `INSERT INTO "Booking" (id, "tenantId", "eventId", status, "paymentStatus", total,
         "bookerFirstname", "bookerLastname", "bookerEmail", answers)
       VALUES ($1, $2, $3, 'confirmed', 'open', 119, $4, $5, $6, $7)`,
      [id, TENANT, eventId, b.firstname, b.lastname, b.email, b.answers],
    );
    await c.query(
      `INSERT INTO "EventTicket" (id, "tenantId", "eventId", "ticketTypeId", "bookingId", status,
         code, "participantFirstname", "participantLastname", "participantEmail", price)
       VALUES ($1, $2, $3, $4, $5, 'valid', $6, $7, $8, $9, 119)`,
      [randomUUID(), TENANT, eventId, typeId, id, randomUUID(), b.firstname, b.lastname, b.email],
    );
    const t = await c.query(
      `UPDATE "TicketType" SET sold = sold + 1 WHERE id = $1 AND sold + 1 <= quota`,
      [typeId],
    );
    const e = await c.query(
      `UPDATE "EventCopy" SET sold = sold + 1
        WHERE "tenantId" = $1 AND "eventId" = $2 AND sold + 1 <= capacity`,
      [TENANT, eventId],
    );
    if (!t.rowCount || !e.rowCount) {
      return false;
    }
    await c.query(
      `WITH n AS (INSERT INTO "InvoiceCounter" VALUES ($1, $2, 1)
         ON CONFLICT ("tenantId", year) DO UPDATE SET last = "InvoiceCounter".last + 1 RETURNING last)
       UPDATE "Booking" SET "invoiceNumber" = $2 || '-' || lpad(n.last::text, 6, '0'),
         "invoiceDate" = now() FROM n WHERE id = $3`,
      [TENANT, YEAR, id],
    );
    return true;
  });
}

/** A booking row with the next invoice number of the tenant, drawn in the same statement. */
function insertInvoicedBooking(c, id, eventId, b) {
  return c.query(
    `WITH n AS (INSERT INTO "InvoiceCounter" VALUES ($1, $2, 1)
       ON CONFLICT ("tenantId", year) DO UPDATE SET last = "InvoiceCounter".last + 1 RETURNING last)
     INSERT INTO "Booking" (id, "tenantId", "eventId", status, "paymentStatus", total,
       "bookerFirstname", "bookerLastname", "bookerEmail", answers, "invoiceNumber", "invoiceDate")
     SELECT $3, $1, $4, 'confirmed', 'open', 119, $5, $6, $7, $8,
       $2 || '-' || lpad(n.last::text, 6, '0'), now() FROM n`,
    [TENANT, YEAR, id, eventId, b.firstname, b.lastname, b.email, b.answers],
  );
}

/** The split-counter shape: a seat from one of SHARDS counter rows, then the invoice number. */
async function splitCounter(pool, { eventId, typeId }, i) {
  return transaction(pool, async (c) => {
    const id = randomUUID();
    const b = buyer(i);
    const first = i % SHARDS;
    let taken = false;
    for (let k = 0; k < SHARDS && !taken; k++) {
      const shard = (first + k) % SHARDS;
      const r = await c.query(
        `UPDATE "QuotaShard" SET sold = sold + 1
          WHERE "ticketTypeId" = $1 AND shard = $2 AND sold < quota`,
        [typeId, shard],
      );
      taken = r.rowCount === 1;
    }
    if (!taken) {
      return false;
    }
    await insertInvoicedBooking(c, id, eventId, b);
    await c.query(
      `INSERT INTO "EventTicket" (id, "tenantId", "eventId", "ticketTypeId", "bookingId", status,
         code, "participantFirstname", "participantLastname", "participantEmail", price)
       VALUES ($1, $2, $3, $4, $5, 'valid', $6, $7, $8, $9, 119)`,
      [randomUUID(), TENANT, eventId, typeId, id, randomUUID(), b.firstname, b.lastname, b.email],
    );
    return true;
  });
}

/** alf.io's shape: a free seat row taken with SKIP LOCKED, the invoice number still per booking. */
async function seatRows(pool, { eventId, typeId }, i) {
  return transaction(pool, async (c) => {
    const id = randomUUID();
    const b = buyer(i);
    const seat = await c.query(
      `UPDATE "EventTicket" SET status = 'valid', "bookingId" = $1, code = $2,
         "participantFirstname" = $3, "participantLastname" = $4, "participantEmail" = $5
        WHERE id = (SELECT id FROM "EventTicket" WHERE "ticketTypeId" = $6 AND status = 'free'
                    LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [id, randomUUID(), b.firstname, b.lastname, b.email, typeId],
    );
    if (!seat.rowCount) {
      return false;
    }
    await insertInvoicedBooking(c, id, eventId, b);
    return true;
  });
}

/**
 * One writer for the event: requests wait in `queue`; the writer takes up to BATCH of them and
 * decides them in one transaction. Several writers (replicas) serialise on the counter row.
 */
function batchWriter(pool, { eventId, typeId }) {
  const queue = [];
  let busy = false;
  const batchSizes = [];

  async function writeBatch(batch) {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const {
        rows: [type],
      } = await c.query(`SELECT quota - sold AS free FROM "TicketType" WHERE id = $1 FOR UPDATE`, [
        typeId,
      ]);
      const admitted = batch.slice(0, Math.max(0, type.free));
      const refused = batch.slice(admitted.length);
      if (admitted.length) {
        const k = admitted.length;
        await c.query(`UPDATE "TicketType" SET sold = sold + $2 WHERE id = $1`, [typeId, k]);
        await c.query(
          `UPDATE "EventCopy" SET sold = sold + $3 WHERE "tenantId" = $1 AND "eventId" = $2`,
          [TENANT, eventId, k],
        );
        const {
          rows: [{ last }],
        } = await c.query(
          `INSERT INTO "InvoiceCounter" VALUES ($1, $2, $3)
           ON CONFLICT ("tenantId", year) DO UPDATE SET last = "InvoiceCounter".last + $3
           RETURNING last`,
          [TENANT, YEAR, k],
        );
        const ids = admitted.map(() => randomUUID());
        const b = admitted.map((r) => buyer(r.i));
        await c.query(
          `INSERT INTO "Booking" (id, "tenantId", "eventId", status, "paymentStatus", total,
             "bookerFirstname", "bookerLastname", "bookerEmail", answers, "invoiceNumber", "invoiceDate")
           SELECT id, $1, $2, 'confirmed', 'open', 119, f, l, e, a, n, now()
             FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::text[])
               AS x(id, f, l, e, a, n)`,
          [
            TENANT,
            eventId,
            ids,
            b.map((x) => x.firstname),
            b.map((x) => x.lastname),
            b.map((x) => x.email),
            b.map((x) => JSON.stringify(x.answers)),
            ids.map((_, j) => invoiceNumber(last - k + 1 + j)),
          ],
        );
        await c.query(
          `INSERT INTO "EventTicket" (id, "tenantId", "eventId", "ticketTypeId", "bookingId", status,
             code, "participantFirstname", "participantLastname", "participantEmail", price)
           SELECT gen_random_uuid(), $1, $2, $3, bid, 'valid', gen_random_uuid()::text, f, l, e, 119
             FROM unnest($4::uuid[], $5::text[], $6::text[], $7::text[]) AS x(bid, f, l, e)`,
          [
            TENANT,
            eventId,
            typeId,
            ids,
            b.map((x) => x.firstname),
            b.map((x) => x.lastname),
            b.map((x) => x.email),
          ],
        );
      }
      await c.query('COMMIT');
      batchSizes.push(batch.length);
      for (const r of admitted) r.resolve(true);
      for (const r of refused) r.resolve(false);
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      for (const r of batch) r.reject(err);
    } finally {
      c.release();
    }
  }

  async function run() {
    if (busy) return;
    busy = true;
    while (queue.length) await writeBatch(queue.splice(0, BATCH));
    busy = false;
  }

  return {
    batchSizes,
    book: (i) =>
      new Promise((resolve, reject) => {
        queue.push({ i, resolve, reject });
        void run();
      }),
  };
}

/** CLIENTS buyers, each booking until one is refused (sold out); latencies of the admitted. */
async function sell(book) {
  const latencies = [];
  let next = 0;
  let soldOut = false;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (!soldOut) {
        const t0 = process.hrtime.bigint();
        const ok = await book(next++);
        if (!ok) soldOut = true;
        else latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { sold: latencies.length, seconds, p50: pct(0.5), p99: pct(0.99) };
}

/** Seats, bookings, tickets and invoice numbers agree, or the design is not exact. */
async function check(pool, { typeId, noCounter }) {
  const { rows } = await pool.query(
    `SELECT (SELECT sold FROM "TicketType" WHERE id = $1) AS sold,
            (SELECT count(*)::int FROM "Booking") AS bookings,
            (SELECT count(*)::int FROM "EventTicket" WHERE status = 'valid') AS tickets,
            (SELECT count(DISTINCT "invoiceNumber")::int FROM "Booking") AS numbers,
            (SELECT max("invoiceNumber") FROM "Booking") AS last`,
    [typeId],
  );
  const r = rows[0];
  const sold = noCounter ? r.tickets : r.sold; // seat-rows keeps no counter
  const exact =
    sold === SEATS &&
    r.bookings === SEATS &&
    r.tickets === SEATS &&
    r.numbers === SEATS &&
    r.last === invoiceNumber(SEATS);
  return { exact, ...r };
}

const DESIGNS = {
  'per-booking': async (pool) => {
    const ctx = await setUp(pool);
    return { ctx, result: await sell((i) => perBooking(pool, ctx, i)) };
  },
  'split-counter': async (pool) => {
    const ctx = await setUp(pool);
    await pool.query(
      `INSERT INTO "QuotaShard" SELECT $1, s, $2 / $3 + CASE WHEN s < $2 % $3 THEN 1 ELSE 0 END, 0
         FROM generate_series(0, $3 - 1) AS s`,
      [ctx.typeId, SEATS, SHARDS],
    );
    return {
      ctx: { ...ctx, noCounter: true },
      result: await sell((i) => splitCounter(pool, ctx, i)),
    };
  },
  'seat-rows': async (pool) => {
    const ctx = await setUp(pool, { seatRows: true });
    return { ctx: { ...ctx, noCounter: true }, result: await sell((i) => seatRows(pool, ctx, i)) };
  },
  'batch-writer': async (pool) => {
    const ctx = await setUp(pool);
    const writer = batchWriter(pool, ctx);
    const result = await sell(writer.book);
    return { ctx, result, batches: writer.batchSizes };
  },
  'batch-writer-2': async (pool) => {
    const ctx = await setUp(pool);
    const writers = [batchWriter(pool, ctx), batchWriter(pool, ctx)];
    const result = await sell((i) => writers[i % 2].book(i));
    return { ctx, result, batches: writers.flatMap((w) => w.batchSizes) };
  },
};

/** A fresh database for the designs on the bench server; `drop` removes it. */
async function designDatabase() {
  const server = benchServer();
  const name = benchDbName('onsale_designs');
  const admin = new pg.Client({ connectionString: dbUrl(server, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  const pool = new pg.Pool({ connectionString: dbUrl(server, name), max: POOL });
  // An idle connection ended by the server is replaced by the pool; it must not end the run.
  pool.on('error', () => undefined);
  return {
    pool,
    drop: async () => {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * One design measured on a database of its own: bookings/s, p50 and p99 in ms, whether the
 * result was exact. The on-sale scenario of `npm run bench -- bookings` prints the chosen
 * design's figure beside the service's.
 */
export async function measureDesign(design) {
  const db = await designDatabase();
  try {
    const { ctx, result, batches } = await DESIGNS[design](db.pool);
    const verdict = await check(db.pool, ctx);
    return {
      rate: result.sold / result.seconds,
      p50: result.p50,
      p99: result.p99,
      sold: result.sold,
      seconds: result.seconds,
      meanBatch: batches?.length ? result.sold / batches.length : null,
      exact: verdict.exact,
      verdict,
    };
  } finally {
    await db.drop();
  }
}

/** Runs `designs` (default: all) in turn; exits 1 when one was not exact. */
export async function main(designs = []) {
  const chosen = designs.length ? designs : Object.keys(DESIGNS);
  const unknown = chosen.filter((d) => !DESIGNS[d]);
  if (unknown.length) {
    console.error(
      `unknown design(s): ${unknown.join(', ')}; known: ${Object.keys(DESIGNS).join(', ')}`,
    );
    process.exit(2);
  }
  console.log(
    `on-sale designs: ${SEATS} seats of one ticket type, ${CLIENTS} buyers, ${POOL} connections`,
  );
  for (const design of chosen) {
    const m = await measureDesign(design);
    const mean = m.meanBatch ? ` mean batch ${m.meanBatch.toFixed(1)}` : '';
    console.log(
      `${design.padEnd(15)} ${String(Math.round(m.rate)).padStart(6)} bookings/s  p50 ${m.p50.toFixed(1)} ms` +
        `  p99 ${m.p99.toFixed(1)} ms  ${m.sold} sold in ${m.seconds.toFixed(1)} s` +
        `${mean}  ${m.exact ? 'exact' : `NOT EXACT ${JSON.stringify(m.verdict)}`}`,
    );
    if (!m.exact) process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
