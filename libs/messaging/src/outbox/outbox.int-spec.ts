import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { IsString, IsUUID } from 'class-validator';
import { AckPolicy, JsMsg, nanos } from 'nats';
import { Pool } from 'pg';
import { freePort } from '@crm/testing';
import { ConsumeEvent, durableName, EventConsumer, EventContext } from './event-consumer';
import { CRM_EVENTS_STREAM } from './event-stream';
import { JetStreamConnection } from './jetstream-connection';
import { OutboxDb } from './outbox-db';
import { OutboxEventsModule } from './outbox-events.module';
import { OutboxRelay } from './outbox-relay';
import { addOutboxEvent } from './outbox-write';
import { natsServer, NatsProcess, pgOutboxDb, scratchDatabase, waitFor } from './test/scratch';

// Real PostgreSQL (a scratch database with the two outbox tables) and a nats-server process of
// this file's own (free port, temporary store), so the outage test can kill and restart it.

jest.setTimeout(60000);

const run = randomUUID().slice(0, 8);
const subject = (name: string, verb = 'deleted') => `t${run}.${name}.${verb}`;
const TENANT = `tenant-${run}`;

class ThingsDeleted {
  @IsString() tenantId!: string;
  @IsUUID('all', { each: true }) thingIds!: string[];
}

let nats: NatsProcess;
let storeDir: string;
let pool: Pool;
let db: OutboxDb;
let dbUrl: string;
const connections: JetStreamConnection[] = [];
const relays: OutboxRelay[] = [];
const consumers: EventConsumer[] = [];

function connection(): JetStreamConnection {
  const c = new JetStreamConnection({ service: `outbox-test-${run}`, natsUrl: nats.url });
  connections.push(c);
  return c;
}

function relay(
  conn = connection(),
  opts: Partial<ConstructorParameters<typeof OutboxRelay>[1]> = {},
) {
  const r = new OutboxRelay(conn, {
    service: `outbox-test-${run}`,
    db,
    databaseUrl: dbUrl,
    ...opts,
  });
  relays.push(r);
  return r;
}

function consumer(service: string, conn = connection(), ackWaitMs = 30_000) {
  const c = new EventConsumer(conn, { service, db, retryBaseMs: 200, ackWaitMs });
  consumers.push(c);
  return c;
}

/** Writes events in one transaction, as a service does with its change. */
async function write(subj: string, payloads: object[]): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const ids: string[] = [];
    for (const payload of payloads) {
      ids.push(await addOutboxEvent(tx, { tenantId: TENANT, subject: subj, payload }));
    }
    return ids;
  });
}

async function rows(ids: string[]) {
  return db.$queryRawUnsafe<
    { id: string; publishedAt: Date | null; attempts: number; lastError: string | null }[]
  >(
    `SELECT id::text AS id, "publishedAt", attempts, "lastError" FROM "OutboxEvent"
      WHERE id = ANY($1::uuid[]) ORDER BY "dateCreated"`,
    ids,
  );
}

const allPublished = (ids: string[]) => async () =>
  (await rows(ids)).every((r) => r.publishedAt !== null);

/** Every message of the stream on `subj`, read with a throw-away consumer. */
async function streamMessages(conn: JetStreamConnection, subj: string) {
  const info = await conn.jsm.streams.info(CRM_EVENTS_STREAM, { subjects_filter: subj });
  const count = info.state.subjects?.[subj] ?? 0;
  const ci = await conn.jsm.consumers.add(CRM_EVENTS_STREAM, {
    filter_subject: subj,
    ack_policy: AckPolicy.None,
    inactive_threshold: nanos(5000),
  });
  const c = await conn.js.consumers.get(CRM_EVENTS_STREAM, ci.name);
  const out: { id: string | undefined; payload: unknown }[] = [];
  while (out.length < count) {
    const m = await c.next({ expires: 2000 });
    if (!m) break;
    out.push({ id: m.headers?.get('Nats-Msg-Id'), payload: m.json() });
  }
  await conn.jsm.consumers.delete(CRM_EVENTS_STREAM, ci.name);
  return out;
}

beforeAll(async () => {
  storeDir = mkdtempSync(path.join(os.tmpdir(), 'outbox-nats-'));
  nats = await natsServer(await freePort(), storeDir);
  dbUrl = await scratchDatabase(
    'crm_people_it_m_outbox',
    `CREATE TABLE "Applied" ("eventId" UUID NOT NULL, "subject" TEXT NOT NULL, "payload" JSONB);`,
  );
  pool = new Pool({ connectionString: dbUrl, max: 8 });
  db = pgOutboxDb(pool);
}, 30000);

afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
  await Promise.all(consumers.splice(0).map((c) => c.stop()));
  await Promise.all(connections.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await pool?.end();
  await nats?.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

describe('OutboxRelay', () => {
  it('publishes each committed event once, in order, with Nats-Msg-Id = event id', async () => {
    const subj = subject('once');
    const ids = await write(subj, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    // A rolled back change leaves no event behind.
    await db
      .$transaction(async (tx) => {
        await addOutboxEvent(tx, { tenantId: TENANT, subject: subj, payload: { n: 99 } });
        throw new Error('rollback');
      })
      .then(
        () => undefined,
        () => undefined,
      );
    const conn = connection();
    const r = relay(conn);
    r.start();
    await waitFor(allPublished(ids), 10000, 'published');
    await new Promise((res) => setTimeout(res, 300));
    const messages = await streamMessages(conn, subj);
    expect(messages.map((m) => m.id)).toEqual(ids);
    expect(messages.map((m) => m.payload)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(r.stats).toEqual({ published: 3, duplicates: 0, failed: 0 });
    expect((await rows(ids)).map((x) => x.attempts)).toEqual([0, 0, 0]);
  });

  it('wakes on the commit notification instead of waiting for the next poll', async () => {
    const r = relay(connection(), { pollIntervalMs: 60_000 });
    r.start();
    await waitFor(async () => connections[0].ready, 10000, 'connected');
    await new Promise((res) => setTimeout(res, 500)); // the first (empty) poll has run
    const started = Date.now();
    const ids = await write(subject('notified'), [{ n: 1 }]);
    await waitFor(allPublished(ids), 5000, 'published');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a repeated publish of the same event is dropped by the stream', async () => {
    const subj = subject('dup');
    const ids = await write(subj, [{ n: 1 }, { n: 2 }]);
    const conn = connection();
    const r = relay(conn);
    r.start();
    await waitFor(allPublished(ids), 10000, 'published');
    // A relay that published and crashed before marking the row publishes it again.
    await db.$executeRawUnsafe(
      `UPDATE "OutboxEvent" SET "publishedAt" = NULL WHERE id = $1::uuid`,
      ids[0],
    );
    r.wake();
    await waitFor(allPublished(ids), 10000, 'republished');
    expect(r.stats).toEqual({ published: 2, duplicates: 1, failed: 0 });
    const again = await conn.js.publish(subj, JSON.stringify({ n: 1 }), { msgID: ids[0] });
    expect(again.duplicate).toBe(true);
    expect((await streamMessages(conn, subj)).map((m) => m.id)).toEqual(ids);
  });

  it('skips a row another transaction holds (FOR UPDATE SKIP LOCKED) and publishes it later', async () => {
    const subj = subject('locked');
    const ids = await write(subj, [{ n: 1 }, { n: 2 }]);
    const holder = await pool.connect();
    try {
      // Another replica is publishing ids[0] right now: it holds the row lock.
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM "OutboxEvent" WHERE id = $1 FOR UPDATE`, [ids[0]]);
      const r = relay(connection());
      r.start();
      await waitFor(allPublished([ids[1]]), 10000, 'unlocked row published');
      expect((await rows([ids[0]]))[0].publishedAt).toBeNull();
      expect(r.stats.published).toBe(1);
      await holder.query('COMMIT');
      await waitFor(allPublished(ids), 10000, 'locked row published after release');
      expect(r.stats).toEqual({ published: 2, duplicates: 0, failed: 0 });
    } finally {
      holder.release();
    }
  });

  it('two relays on one table never publish a row twice', async () => {
    const subj = subject('replicas');
    const ids = await write(
      subj,
      Array.from({ length: 300 }, (_, n) => ({ n })),
    );
    const a = relay(connection(), { batchSize: 20 });
    const b = relay(connection(), { batchSize: 20 });
    a.start();
    b.start();
    await waitFor(allPublished(ids), 20000, 'published');
    // Had both published a row, the stream would have answered "duplicate" to one of them.
    expect(a.stats.published + b.stats.published).toBe(300);
    expect(a.stats.duplicates + b.stats.duplicates).toBe(0);
  });

  it('a row the stream refuses records attempts and lastError, backs off, and others go on', async () => {
    // `updated` is not an event verb of the stream: JetStream has no responder for it.
    const bad = await write(subject('refused', 'updated'), [{ n: 1 }]);
    const good = await write(subject('after-refused'), [{ n: 2 }]);
    const r = relay(connection(), { retryBaseMs: 400, pollIntervalMs: 100 });
    r.start();
    await waitFor(allPublished(good), 10000, 'good row published');
    const failed = await waitFor(
      async () => ((await rows(bad))[0].attempts >= 2 ? (await rows(bad))[0] : null),
      10000,
      'retried',
    );
    expect(failed.publishedAt).toBeNull();
    expect(failed.lastError).toMatch(/503|no responders/i);
    // Backoff 400 ms, 800 ms, 1600 ms...: in ~2 s at most 3-4 attempts, not one per 100 ms poll.
    await new Promise((res) => setTimeout(res, 2000));
    expect((await rows(bad))[0].attempts).toBeLessThanOrEqual(5);
    await db.$executeRawUnsafe(`DELETE FROM "OutboxEvent" WHERE id = $1::uuid`, bad[0]);
  });

  it('prunes published rows and applied event ids past their retention, nothing newer', async () => {
    const [oldPublished, recentPublished, unpublished] = [randomUUID(), randomUUID(), randomUUID()];
    const insert = (id: string, publishedAt: string | null) =>
      db.$executeRawUnsafe(
        `INSERT INTO "OutboxEvent" (id, "tenantId", subject, payload, "publishedAt")
         VALUES ($1::uuid, $2, $3, '{}'::jsonb, $4::timestamptz)`,
        id,
        TENANT,
        subject('pruned'),
        publishedAt,
      );
    const now = new Date('2026-06-30T12:00:00Z');
    await insert(oldPublished, '2026-06-20T12:00:00Z');
    await insert(recentPublished, '2026-06-29T12:00:00Z');
    await insert(unpublished, null);
    const [oldApplied, recentApplied] = [randomUUID(), randomUUID()];
    for (const [id, at] of [
      [oldApplied, '2026-05-01T00:00:00Z'],
      [recentApplied, '2026-06-25T00:00:00Z'],
    ]) {
      await db.$executeRawUnsafe(
        `INSERT INTO "ProcessedEvent" (id, subject, "dateProcessed") VALUES ($1::uuid, 'x', $2::timestamptz)`,
        id,
        at,
      );
    }
    const r = new OutboxRelay(connection(), { service: `outbox-test-${run}`, db });
    expect(await r.prune(now)).toEqual({ published: 1, processed: 1 });
    const left = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM "OutboxEvent" WHERE id = ANY($1::uuid[])
       UNION ALL SELECT id::text FROM "ProcessedEvent" WHERE id = ANY($1::uuid[])`,
      [oldPublished, recentPublished, unpublished, oldApplied, recentApplied],
    );
    expect(left.map((x) => x.id).sort()).toEqual(
      [recentPublished, unpublished, recentApplied].sort(),
    );
    await db.$executeRawUnsafe(`DELETE FROM "OutboxEvent" WHERE id = ANY($1::uuid[])`, [
      recentPublished,
      unpublished,
    ]);
  });
});

describe('EventConsumer', () => {
  /** A handler that records what it applied, in the event's own transaction. */
  function recorder(fail: { times: number } = { times: 0 }) {
    const seen: EventContext[] = [];
    return {
      seen,
      handle: async (event: object, ctx: EventContext) => {
        seen.push(ctx);
        await ctx.tx.$executeRawUnsafe(
          `INSERT INTO "Applied" ("eventId", "subject", "payload") VALUES ($1::uuid, $2, $3::jsonb)`,
          ctx.eventId,
          ctx.subject,
          JSON.stringify(event),
        );
        if (fail.times > 0) {
          fail.times--;
          throw new Error('handler failed'); // rolls back the insert above
        }
      },
    };
  }

  const applied = (subj: string) =>
    db.$queryRawUnsafe<{ eventId: string; payload: unknown }[]>(
      `SELECT "eventId"::text AS "eventId", payload FROM "Applied" WHERE subject = $1`,
      subj,
    );

  it('applies an event once even when it is delivered twice (lost ack)', async () => {
    const subj = subject('twice');
    const service = `svc-${run}-twice`;
    const conn = connection();
    const rec = recorder();
    const spec = { subject: subj, payload: ThingsDeleted, handle: rec.handle };
    const c = consumer(service, conn, 1000);
    c.register(spec);
    await c.prepare(); // the durable exists; nothing consumes yet, the test takes the event by hand
    const ids = await write(subj, [{ tenantId: TENANT, thingIds: [randomUUID()] }]);
    relay(conn).start();
    await waitFor(allPublished(ids), 10000, 'published');
    // First delivery: applied and committed, but the ack never reaches the server.
    const durable = await conn.js.consumers.get(CRM_EVENTS_STREAM, durableName(service, subj));
    const first = await durable.next({ expires: 5000 });
    expect(first).not.toBeNull();
    const lostAck = new Proxy(first!, {
      get: (t, p) => (p === 'ack' ? () => undefined : (Reflect.get(t, p, t) as unknown)),
    }) as JsMsg;
    await c.applyBatch(spec as never, [lostAck]);
    expect(await applied(subj)).toHaveLength(1);
    // The second delivery (after ack_wait) finds the event in ProcessedEvent: acked, skipped.
    await c.start();
    await waitFor(
      async () => {
        const info = await conn.jsm.consumers.info(CRM_EVENTS_STREAM, durableName(service, subj));
        // Two deliveries of the one message, and nothing left unacknowledged.
        return info.delivered.consumer_seq === 2 && info.num_ack_pending === 0;
      },
      15000,
      'redelivered and acked',
    );
    expect(rec.seen.map((s) => s.deliveryCount)).toEqual([1]);
    expect(await applied(subj)).toEqual([{ eventId: ids[0], payload: expect.any(Object) }]);
    const processed = await db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "ProcessedEvent" WHERE id = $1::uuid`,
      ids[0],
    );
    expect(processed[0].n).toBe(1);
  });

  it('naks a failing handler with a delay and applies the event on a later delivery', async () => {
    const subj = subject('retry');
    const conn = connection();
    const rec = recorder({ times: 2 });
    const c = consumer(`svc-${run}-retry`, conn);
    c.register({ subject: subj, payload: ThingsDeleted, handle: rec.handle });
    await c.start();
    const started = Date.now();
    const ids = await write(subj, [{ tenantId: TENANT, thingIds: [randomUUID()] }]);
    relay(conn).start();
    await waitFor(async () => (await applied(subj)).length === 1, 15000, 'applied');
    expect(rec.seen.map((s) => s.deliveryCount)).toEqual([1, 2, 3]);
    // Backoff 200 ms then 400 ms between the deliveries.
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect((await applied(subj))[0].eventId).toBe(ids[0]);
  });

  it('terminates an event whose payload fails validation; the next one is applied', async () => {
    const subj = subject('invalid');
    const service = `svc-${run}-invalid`;
    const conn = connection();
    const rec = recorder();
    const c = consumer(service, conn);
    c.register({ subject: subj, payload: ThingsDeleted, handle: rec.handle });
    await c.start();
    const [bad] = await write(subj, [{ tenantId: TENANT, thingIds: ['not-a-uuid'] }]);
    const [good] = await write(subj, [{ tenantId: TENANT, thingIds: [randomUUID()] }]);
    relay(conn).start();
    await waitFor(async () => (await applied(subj)).length === 1, 15000, 'applied');
    expect((await applied(subj)).map((a) => a.eventId)).toEqual([good]);
    // Both left the consumer for good: the bad one terminated, never redelivered.
    const info = await waitFor(async () => {
      const i = await conn.jsm.consumers.info(CRM_EVENTS_STREAM, durableName(service, subj));
      return i.num_ack_pending === 0 && i.num_pending === 0 ? i : null;
    });
    expect(info.num_redelivered).toBe(0);
    expect(info.delivered.consumer_seq).toBe(2);
    const processed = await db.$queryRawUnsafe<unknown[]>(
      `SELECT id FROM "ProcessedEvent" WHERE id = $1::uuid`,
      bad,
    );
    expect(processed).toEqual([]);
  });
});

describe('OutboxEventsModule', () => {
  it('starts the relay and the @ConsumeEvent handlers of a Nest app, and stops them on close', async () => {
    const subj = subject('module');
    const seen: { event: ThingsDeleted; eventId: string }[] = [];

    @Injectable()
    class ThingsListener {
      @ConsumeEvent(subj, ThingsDeleted)
      async onDeleted(event: ThingsDeleted, ctx: EventContext) {
        expect(event).toBeInstanceOf(ThingsDeleted);
        await ctx.tx.$executeRawUnsafe(
          `INSERT INTO "Applied" ("eventId", "subject") VALUES ($1::uuid, $2)`,
          ctx.eventId,
          ctx.subject,
        );
        seen.push({ event, eventId: ctx.eventId });
      }
    }

    const mod = await Test.createTestingModule({
      imports: [
        OutboxEventsModule.forRootAsync({
          useFactory: () => ({
            service: `svc-${run}-module`,
            natsUrl: nats.url,
            db,
            databaseUrl: dbUrl,
          }),
        }),
      ],
      providers: [ThingsListener],
    }).compile();
    const app = mod.createNestApplication(new FastifyAdapter(), { logger: false });
    await app.init();
    try {
      const thingId = randomUUID();
      const [id] = await write(subj, [{ tenantId: TENANT, thingIds: [thingId] }]);
      await waitFor(async () => seen.length === 1, 15000, 'handled');
      expect(seen[0]).toMatchObject({
        eventId: id,
        event: { tenantId: TENANT, thingIds: [thingId] },
      });
      expect(app.get(EventConsumer).subjects).toEqual([subj]);
      await waitFor(allPublished([id]), 5000, 'marked published');
      expect(app.get(OutboxRelay).stats.published).toBe(1);
    } finally {
      await app.close();
    }
    expect(app.get(JetStreamConnection).ready).toBe(false);
  });
});

describe('NATS outage', () => {
  it('an event written while NATS is down is delivered after NATS comes back', async () => {
    const subj = subject('outage');
    const conn = connection();
    const rec = recorder2();
    const c = consumer(`svc-${run}-outage`, conn);
    c.register({ subject: subj, payload: ThingsDeleted, handle: rec });
    await c.start();
    const r = relay(conn);
    r.start();
    await waitFor(async () => conn.ready, 10000, 'connected');

    await nats.stop();
    await waitFor(async () => !conn.ready, 5000, 'disconnect noticed');
    const thingId = randomUUID();
    const ids = await write(subj, [{ tenantId: TENANT, thingIds: [thingId] }]);
    await new Promise((res) => setTimeout(res, 2500));
    // Nothing is tried while disconnected: the row just waits.
    expect((await rows(ids))[0]).toMatchObject({ publishedAt: null, attempts: 0 });
    expect(await appliedIds(subj)).toEqual([]);

    await nats.start();
    await waitFor(async () => (await appliedIds(subj)).length === 1, 30000, 'delivered');
    expect(await appliedIds(subj)).toEqual([ids[0]]);
    // The relay commits publishedAt after the stream's ack: the consumer may be quicker.
    await waitFor(allPublished(ids), 5000, 'marked published');
    expect(r.stats.published).toBe(1);
  }, 60000);

  function recorder2() {
    return async (event: object, ctx: EventContext) => {
      await ctx.tx.$executeRawUnsafe(
        `INSERT INTO "Applied" ("eventId", "subject", "payload") VALUES ($1::uuid, $2, $3::jsonb)`,
        ctx.eventId,
        ctx.subject,
        JSON.stringify(event),
      );
    };
  }

  const appliedIds = async (subj: string) =>
    (
      await db.$queryRawUnsafe<{ eventId: string }[]>(
        `SELECT "eventId"::text AS "eventId" FROM "Applied" WHERE subject = $1`,
        subj,
      )
    ).map((a) => a.eventId);
});
