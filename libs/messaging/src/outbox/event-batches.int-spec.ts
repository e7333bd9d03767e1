import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IsString } from 'class-validator';
import { JsMsg } from 'nats';
import { Pool } from 'pg';
import { freePort } from '@crm/testing';
import { tenantScope } from '@crm/request-context';
import { durableName, EventConsumer, EventContext, EventHandlerSpec } from './event-consumer';
import { CRM_EVENTS_STREAM } from './event-stream';
import { JetStreamConnection } from './jetstream-connection';
import { OutboxDb } from './outbox-db';
import { uuidv7 } from './uuid7';
import { natsServer, NatsProcess, pgOutboxDb, scratchDatabase, waitFor } from './test/scratch';

// EventConsumer's batches against real PostgreSQL (a scratch database) and a nats-server of this
// file's own: one transaction per batch, a bad event failing alone, duplicates skipped, order
// kept, the skip path writing nothing, stop, two replicas, and kill -9 in the middle of a batch.

jest.setTimeout(60000);

const ROOT = path.resolve(__dirname, '../../../..');
const run = randomUUID().slice(0, 8);
const WANTED = 'wanted-tenant';
const OTHER = 'other-tenant';

class ThingDeleted {
  @IsString() tenantId!: string;
}

let nats: NatsProcess;
let storeDir: string;
let pool: Pool;
let db: OutboxDb;
let dbUrl: string;
let publisher: JetStreamConnection;
const connections: JetStreamConnection[] = [];
const consumers: EventConsumer[] = [];
const children: ChildProcess[] = [];

let tests = 0;
/** A subject and a service of the test's own: a durable nothing else has touched. */
function fresh() {
  tests++;
  return { subj: `t${run}.batch${tests}.deleted`, service: `svc-${run}-${tests}` };
}

/** The database, counting the transactions opened through it. */
function counting(base: OutboxDb) {
  const counter = { transactions: 0 };
  const counted: OutboxDb = {
    ...base,
    $transaction: (fn, options) => {
      counter.transactions++;
      return base.$transaction(fn, options);
    },
  };
  return { db: counted, counter };
}

function consumer(service: string, opts: { ackWaitMs?: number; db?: OutboxDb } = {}) {
  const conn = new JetStreamConnection({ service, natsUrl: nats.url });
  connections.push(conn);
  const c = new EventConsumer(conn, {
    service,
    db: opts.db ?? db,
    retryBaseMs: 200,
    ackWaitMs: opts.ackWaitMs ?? 30_000,
  });
  consumers.push(c);
  return { c, conn };
}

/** Publishes one event per tenant given, in order, as a relay does; answers their ids. */
async function publish(subj: string, tenants: (string | number)[]): Promise<string[]> {
  const ids: string[] = [];
  for (const tenantId of tenants) {
    const id = uuidv7();
    await publisher.js.publish(subj, JSON.stringify({ tenantId }), { msgID: id });
    ids.push(id);
  }
  return ids;
}

const wanted = (count: number) => Array.from({ length: count }, () => WANTED);

/** A handler writing each event into "Applied" with its transaction's id; `fails` throws. */
function recorder(opts: { fails?: (ctx: EventContext) => boolean; delayMs?: number } = {}) {
  const calls: string[] = [];
  const handle = async (_event: object, ctx: EventContext) => {
    calls.push(ctx.eventId);
    await ctx.tx.$executeRawUnsafe(
      `INSERT INTO "Applied" ("eventId", "subject", "txid", "deliveryCount")
       VALUES ($1::uuid, $2, txid_current(), $3)`,
      ctx.eventId,
      ctx.subject,
      ctx.deliveryCount,
    );
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    if (opts.fails?.(ctx)) throw new Error(`handler refuses ${ctx.eventId}`);
  };
  return { calls, handle };
}

/** What was applied (committed) on the subject, in the order it was applied. */
const applied = (subj: string) =>
  db.$queryRawUnsafe<{ eventId: string; txid: string; deliveryCount: number }[]>(
    `SELECT "eventId"::text AS "eventId", txid::text AS txid, "deliveryCount" FROM "Applied"
      WHERE subject = $1 ORDER BY seq`,
    subj,
  );

const processed = async (ids: string[]) =>
  (
    await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM "ProcessedEvent" WHERE id = ANY($1::uuid[]) ORDER BY id`,
      ids,
    )
  ).map((r) => r.id);

const info = (conn: JetStreamConnection, service: string, subj: string) =>
  conn.jsm.consumers.info(CRM_EVENTS_STREAM, durableName(service, subj));

/** Waits until the durable has nothing left to deliver and nothing unacknowledged. */
const settled = (conn: JetStreamConnection, service: string, subj: string) =>
  waitFor(
    async () => {
      const i = await info(conn, service, subj);
      return i.num_pending === 0 && i.num_ack_pending === 0 ? i : null;
    },
    20000,
    'every message acked',
  );

/** `count` messages of the durable taken by hand (nothing consumes it), to apply as one batch. */
async function take(conn: JetStreamConnection, service: string, subj: string, count: number) {
  const durable = await conn.js.consumers.get(CRM_EVENTS_STREAM, durableName(service, subj));
  const out: JsMsg[] = [];
  for (let round = 0; out.length < count && round < 10; round++) {
    const batch = await durable.fetch({ max_messages: count - out.length, expires: 2000 });
    for await (const m of batch) out.push(m);
  }
  expect(out).toHaveLength(count);
  return out;
}

/** The message with its ack lost on the way (applied and committed, the server never hears). */
const ackLost = (m: JsMsg) =>
  new Proxy(m, {
    get: (t, p) => (p === 'ack' ? () => undefined : (Reflect.get(t, p, t) as unknown)),
  });

beforeAll(async () => {
  storeDir = mkdtempSync(path.join(os.tmpdir(), 'batches-nats-'));
  nats = await natsServer(await freePort(), storeDir);
  dbUrl = await scratchDatabase(
    'crm_people_it_m_batches',
    `CREATE TABLE "Applied" ("seq" BIGSERIAL PRIMARY KEY, "eventId" UUID NOT NULL,
       "subject" TEXT NOT NULL, "txid" BIGINT NOT NULL, "deliveryCount" INT NOT NULL DEFAULT 1);`,
  );
  pool = new Pool({ connectionString: dbUrl, max: 8 });
  db = pgOutboxDb(pool);
  publisher = new JetStreamConnection({ service: `batches-${run}`, natsUrl: nats.url });
  await publisher.open(); // creates the stream
}, 30000);

afterEach(async () => {
  children.splice(0).forEach((c) => c.kill('SIGKILL'));
  await Promise.all(consumers.splice(0).map((c) => c.stop()));
  await Promise.all(connections.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await publisher?.close();
  await pool?.end();
  await nats?.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

describe('batches', () => {
  it('applies the events taken together in one transaction, in order, acked after the commit', async () => {
    const { subj, service } = fresh();
    const { db: counted, counter } = counting(db);
    const { c, conn } = consumer(service, { db: counted });
    const rec = recorder();
    const spec: EventHandlerSpec = { subject: subj, payload: ThingDeleted, handle: rec.handle };
    c.register(spec);
    await c.prepare();
    const ids = await publish(subj, wanted(30));
    await c.applyBatch(spec, await take(conn, service, subj, 30));
    expect(counter.transactions).toBe(1);
    const rows = await applied(subj);
    expect(rows.map((r) => r.eventId)).toEqual(ids);
    expect(new Set(rows.map((r) => r.txid)).size).toBe(1);
    expect(await processed(ids)).toEqual([...ids].sort());
    await settled(conn, service, subj);
  });

  it("applies a batch of several tenants' events in a transaction per tenant, each handler in its event's tenant scope", async () => {
    const { subj, service } = fresh();
    const { db: counted, counter } = counting(db);
    const { c, conn } = consumer(service, { db: counted });
    const scopes: { tenant: string; scope: unknown; txid: string }[] = [];
    const spec: EventHandlerSpec<ThingDeleted> = {
      subject: subj,
      payload: ThingDeleted,
      concerns: (e) => {
        // the check runs in the event's scope too (it may read the tenant's rows)
        expect(tenantScope()).toEqual({ tenantId: e.tenantId });
        return true;
      },
      handle: async (e, ctx) => {
        const [row] = await ctx.tx.$queryRawUnsafe<{ txid: string }[]>(
          'SELECT txid_current()::text AS txid',
        );
        scopes.push({ tenant: e.tenantId, scope: tenantScope(), txid: row.txid });
      },
    };
    c.register(spec);
    await c.prepare();
    await publish(subj, [WANTED, OTHER, WANTED, OTHER, WANTED]);
    await c.applyBatch(spec as EventHandlerSpec, await take(conn, service, subj, 5));
    expect(counter.transactions).toBe(2);
    // each tenant's events in their order, each handler seeing its own tenant only
    expect(scopes.map((s) => s.tenant)).toEqual([WANTED, WANTED, WANTED, OTHER, OTHER]);
    for (const s of scopes) expect(s.scope).toEqual({ tenantId: s.tenant });
    const txOf = (t: string) => new Set(scopes.filter((s) => s.tenant === t).map((s) => s.txid));
    expect(txOf(WANTED).size).toBe(1);
    expect(txOf(OTHER).size).toBe(1);
    expect([...txOf(WANTED)][0]).not.toBe([...txOf(OTHER)][0]);
    await settled(conn, service, subj);
  });

  it('consumes a backlog in batches, in publish order, and a lone event at once', async () => {
    const { subj, service } = fresh();
    const { db: counted, counter } = counting(db);
    const { c } = consumer(service, { db: counted });
    const rec = recorder();
    c.register({ subject: subj, payload: ThingDeleted, handle: rec.handle });
    await c.prepare();
    const ids = await publish(subj, wanted(250));
    await c.start();
    await waitFor(async () => (await applied(subj)).length === 250, 30000, 'backlog applied');
    const rows = await applied(subj);
    expect(rows.map((r) => r.eventId)).toEqual(ids);
    // One transaction per event before batches; here at least 10 events per transaction.
    const transactions = new Set(rows.map((r) => r.txid)).size;
    expect(transactions).toBeLessThanOrEqual(25);
    expect(counter.transactions).toBe(transactions);

    const started = Date.now();
    const [lone] = await publish(subj, wanted(1));
    await waitFor(
      async () => (await applied(subj)).some((r) => r.eventId === lone),
      10000,
      'lone event applied',
    );
    // Not held back to fill a batch (a pull waits up to 30 s for one to fill).
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a failing event fails alone: its neighbours are applied once, it is retried later', async () => {
    const { subj, service } = fresh();
    const { c, conn } = consumer(service);
    const ids = await publish(subj, wanted(5));
    const poisoned = ids[2];
    const rec = recorder({ fails: (ctx) => ctx.eventId === poisoned && ctx.deliveryCount === 1 });
    const spec: EventHandlerSpec = { subject: subj, payload: ThingDeleted, handle: rec.handle };
    c.register(spec);
    await c.prepare();
    await c.applyBatch(spec, await take(conn, service, subj, 5));
    // The batch (0, 1, then 2 failing) rolled back; then one by one, 2 failing on its own.
    expect(rec.calls).toEqual([ids[0], ids[1], ids[2], ...ids]);
    const neighbours = [ids[0], ids[1], ids[3], ids[4]];
    expect((await applied(subj)).map((r) => r.eventId)).toEqual(neighbours);
    expect(await processed(ids)).toEqual([...neighbours].sort());

    await c.start(); // the nak'ed event comes back after its delay
    await waitFor(async () => (await applied(subj)).length === 5, 15000, 'retried');
    const rows = await applied(subj);
    expect(rows.map((r) => r.eventId)).toEqual([...neighbours, poisoned]);
    expect(rows[4].deliveryCount).toBe(2);
    await settled(conn, service, subj);
  });

  it('terminates an invalid payload alone; the rest of its batch is applied together', async () => {
    const { subj, service } = fresh();
    const { db: counted, counter } = counting(db);
    const { c, conn } = consumer(service, { db: counted });
    const rec = recorder();
    const spec: EventHandlerSpec = { subject: subj, payload: ThingDeleted, handle: rec.handle };
    c.register(spec);
    await c.prepare();
    const [first, bad, last] = await publish(subj, [WANTED, 42, WANTED]);
    await c.applyBatch(spec, await take(conn, service, subj, 3));
    expect((await applied(subj)).map((r) => r.eventId)).toEqual([first, last]);
    expect(counter.transactions).toBe(1);
    expect(await processed([bad])).toEqual([]);
    const i = await settled(conn, service, subj);
    expect(i.num_redelivered).toBe(0);
  });

  it('acks and skips an event applied before: a redelivery, or twice in one batch', async () => {
    const { subj, service } = fresh();
    const { c, conn } = consumer(service, { ackWaitMs: 1000 });
    const rec = recorder();
    const spec: EventHandlerSpec = { subject: subj, payload: ThingDeleted, handle: rec.handle };
    c.register(spec);
    await c.prepare();
    const ids = await publish(subj, wanted(3));
    const lost = (await take(conn, service, subj, 3)).map(ackLost);
    await c.applyBatch(spec, [...lost, lost[0]]);
    expect(rec.calls).toEqual(ids);
    // After the ack wait the server sends all three again: found in ProcessedEvent, skipped.
    await c.start();
    await waitFor(
      async () => {
        const i = await info(conn, service, subj);
        return i.delivered.consumer_seq === 6 && i.num_ack_pending === 0;
      },
      15000,
      'redelivered and acked',
    );
    expect(rec.calls).toEqual(ids);
    expect((await applied(subj)).map((r) => r.eventId)).toEqual(ids);
  });

  it('skips what the check declines: acked, with no transaction and no ProcessedEvent row', async () => {
    const { subj, service } = fresh();
    const { db: counted, counter } = counting(db);
    const { c, conn } = consumer(service, { db: counted });
    const rec = recorder();
    const spec: EventHandlerSpec<ThingDeleted> = {
      subject: subj,
      payload: ThingDeleted,
      concerns: (e) => {
        if (e.tenantId === 'unsure') throw new Error('lookup failed');
        return e.tenantId !== OTHER;
      },
      handle: rec.handle,
    };
    c.register(spec);
    await c.prepare();
    const ids = await publish(subj, [WANTED, OTHER, OTHER, 'unsure', OTHER]);
    await c.applyBatch(spec as EventHandlerSpec, await take(conn, service, subj, 5));
    // A check that fails does not skip: the event goes the full way. The two concerned events
    // are of two tenants: a transaction each.
    const concerned = [ids[0], ids[3]];
    expect(rec.calls).toEqual(concerned);
    expect(counter.transactions).toBe(2);
    expect(await processed(ids)).toEqual([...concerned].sort());
    await settled(conn, service, subj);

    const others = await publish(subj, [OTHER, OTHER]);
    await c.applyBatch(spec as EventHandlerSpec, await take(conn, service, subj, 2));
    expect(counter.transactions).toBe(2);
    expect(await processed(others)).toEqual([]);
    await settled(conn, service, subj);
  });
});

describe('replicas and stopping', () => {
  it('two replicas applying the same events at the same time apply each once', async () => {
    const { subj, service } = fresh();
    const { c: a, conn } = consumer(service);
    const { c: b } = consumer(service);
    const rec = recorder({ delayMs: 2 });
    const spec: EventHandlerSpec = { subject: subj, payload: ThingDeleted, handle: rec.handle };
    a.register(spec);
    b.register(spec);
    await a.prepare();
    const ids = await publish(subj, wanted(40));
    const msgs = await take(conn, service, subj, 40);
    // e.g. redelivered to b after the ack wait while a still applies them; b in another order
    await Promise.all([a.applyBatch(spec, msgs), b.applyBatch(spec, [...msgs].reverse())]);
    const rows = await applied(subj);
    expect(rows.map((r) => r.eventId).sort()).toEqual([...ids].sort());
    expect(rec.calls).toHaveLength(40);
  });

  it('two replicas sharing the durable apply a stream of events once each', async () => {
    const { subj, service } = fresh();
    const rec = recorder();
    const replicas = [consumer(service), consumer(service)];
    for (const { c } of replicas) c.register({ subject: subj, handle: rec.handle });
    await Promise.all(replicas.map(({ c }) => c.start()));
    const ids = await publish(subj, wanted(300));
    await waitFor(async () => (await applied(subj)).length >= 300, 30000, 'applied');
    await settled(replicas[0].conn, service, subj);
    expect((await applied(subj)).map((r) => r.eventId).sort()).toEqual([...ids].sort());
  });

  it('stop finishes the batch in hand, takes no more, and hands the rest back at once', async () => {
    const { subj, service } = fresh();
    // An ack wait far longer than the test: what reaches the next replica was handed back.
    const { c: a } = consumer(service, { ackWaitMs: 120_000 });
    const stop: { called: Promise<void> | null } = { called: null };
    const rec = recorder({ delayMs: 3 });
    a.register({
      subject: subj,
      handle: async (event, ctx) => {
        await rec.handle(event, ctx);
        if (rec.calls.length === 150) stop.called = a.stop(); // in the middle of a batch
      },
    });
    await a.prepare();
    const ids = await publish(subj, wanted(300));
    await a.start();
    await waitFor(async () => stop.called !== null, 30000, 'stop called');
    await stop.called;
    const handled = rec.calls.length;
    expect(handled).toBeGreaterThanOrEqual(150);
    expect(handled).toBeLessThan(300);
    // The batch in hand was committed whole.
    expect(await applied(subj)).toHaveLength(handled);
    await new Promise((r) => setTimeout(r, 300));
    expect(rec.calls).toHaveLength(handled);

    const { c: b, conn } = consumer(service, { ackWaitMs: 120_000 });
    b.register({ subject: subj, handle: rec.handle });
    await b.start();
    await waitFor(async () => (await applied(subj)).length >= 300, 20000, 'the rest applied');
    await settled(conn, service, subj);
    expect((await applied(subj)).map((r) => r.eventId)).toEqual(ids);
  });

  it('kill -9 in the middle of a batch loses nothing and applies nothing twice', async () => {
    const { subj, service } = fresh();
    const ids = await publish(subj, wanted(300));
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', path.join(__dirname, 'test/consumer.child.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          SWC_NODE_PROJECT: 'tsconfig.json',
          DATABASE_URL: dbUrl,
          NATS_URL: nats.url,
          CHILD_SERVICE: service,
          CHILD_SUBJECT: subj,
          CHILD_ACK_WAIT_MS: '3000',
          CHILD_DELAY_MS: '5',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    const handled = new Set<string>();
    let output = '';
    child.stdout!.on('data', (b: Buffer) => {
      output += b.toString();
      for (const [, id] of output.matchAll(/handled (\S+)\n/g)) handled.add(id);
    });
    child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    const exited = new Promise((r) => child.once('exit', r));
    // In the middle of a batch: a committed batch behind it, 20 events handled but not committed.
    await waitFor(
      async () => {
        const committed = (await applied(subj)).length;
        return committed > 0 && handled.size - committed >= 20;
      },
      45000,
      `the child in the middle of a batch (output: ${output.slice(-500)})`,
    );
    child.kill('SIGKILL');
    await exited;
    const committed = (await applied(subj)).length;
    expect(committed).toBeLessThan(handled.size); // handled events died with their transaction

    const { c, conn } = consumer(service, { ackWaitMs: 3000 });
    c.register({ subject: subj, handle: recorder().handle });
    await c.start();
    await waitFor(async () => (await applied(subj)).length >= 300, 30000, 'all applied');
    await settled(conn, service, subj);
    const rows = await applied(subj);
    expect(rows).toHaveLength(300);
    expect(rows.map((r) => r.eventId).sort()).toEqual([...ids].sort());
    expect(await processed(ids)).toHaveLength(300);
  });
});
