import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { createAppLogging, fieldsFromHeaders, runInRequest } from '@crm/logging';
import { freePort } from '@crm/testing';
import { EventConsumer } from './event-consumer';
import { JetStreamConnection } from './jetstream-connection';
import { OutboxDb } from './outbox-db';
import { OutboxRelay } from './outbox-relay';
import { addOutboxEvent, addOutboxEvents } from './outbox-write';
import { natsServer, NatsProcess, pgOutboxDb, scratchDatabase, waitFor } from './test/scratch';

// Real PostgreSQL and nats-server: an event written inside a request is consumed as part of it
// (the consumer's lines and its handler's carry the request id and trace id the change had),
// through the outbox row's headers, the relay and the message's headers.

jest.setTimeout(60000);

const run = randomUUID().slice(0, 8);
const SERVICE = `outbox-request-${run}`;
const TENANT = `tenant-${run}`;
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const TRACEPARENT = `00-${TRACE}-b7ad6b7169203331-01`;

const lines: Record<string, unknown>[] = [];
Logger.overrideLogger(
  createAppLogging({
    app: 'outbox-test',
    nodeEnv: 'production',
    level: 'debug',
    destination: {
      write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>),
    },
  }).nest,
);

let nats: NatsProcess;
let storeDir: string;
let pool: Pool;
let db: OutboxDb;
let dbUrl: string;
const connections: JetStreamConnection[] = [];
let relay: OutboxRelay;
let consumer: EventConsumer;
const subject = `t${run}.things.changed`;

function connection(): JetStreamConnection {
  const c = new JetStreamConnection({ service: SERVICE, natsUrl: nats.url });
  connections.push(c);
  return c;
}

beforeAll(async () => {
  storeDir = mkdtempSync(path.join(os.tmpdir(), 'outbox-request-nats-'));
  nats = await natsServer(await freePort(), storeDir);
  dbUrl = await scratchDatabase('crm_people_it_m_outbox_request');
  pool = new Pool({ connectionString: dbUrl, max: 4 });
  db = pgOutboxDb(pool);
  consumer = new EventConsumer(connection(), { service: SERVICE, db });
  const handler = new Logger('ThingsHandler');
  consumer.register<{ n: number }>({
    subject,
    handle: async (event, { eventId }) => handler.log(`handled ${event.n} ${eventId}`),
  });
  await consumer.start();
  relay = new OutboxRelay(connection(), { service: SERVICE, db, databaseUrl: dbUrl });
  relay.start();
}, 30000);

afterAll(async () => {
  await relay?.stop();
  await consumer?.stop();
  await Promise.all(connections.map((c) => c.close()));
  await pool?.end();
  await nats?.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

/** The line with message `msg`, once written. */
const lineOf = (msg: string) =>
  waitFor(async () => lines.find((l) => l.msg === msg), 20000, `line "${msg}"`);

it("an event written inside a request is consumed with that request's id on the lines", async () => {
  const requestId = `req-${randomUUID()}`;
  const fields = fieldsFromHeaders({ requestId, tenant: TENANT, traceparent: TRACEPARENT }, 'x');
  const eventId = await runInRequest(fields, () =>
    db.$transaction((tx) => addOutboxEvent(tx, { tenantId: TENANT, subject, payload: { n: 1 } })),
  );
  const expected = { requestId, tenant: TENANT, traceId: TRACE };
  expect(await lineOf(`handled 1 ${eventId}`)).toMatchObject({ level: 'info', ...expected });
  // the consumer's own line per applied event (debug)
  expect(await lineOf(`applied ${subject} ${eventId}`)).toMatchObject({
    level: 'debug',
    ...expected,
  });
});

it("events of several requests written in one transaction each carry their own request's", async () => {
  // as the bookings' batch writer does: the headers given per event (requestHeaders() of each)
  const ids = [`req-${randomUUID()}`, `req-${randomUUID()}`];
  const eventIds = await db.$transaction((tx) =>
    addOutboxEvents(
      tx,
      ids.map((id, i) => ({
        tenantId: TENANT,
        subject,
        payload: { n: 10 + i },
        headers: { 'X-Request-Id': id },
      })),
    ),
  );
  for (const [i, id] of ids.entries()) {
    expect((await lineOf(`handled ${10 + i} ${eventIds[i]}`)).requestId).toBe(id);
  }
});

it('an event written outside a request is consumed under its own id', async () => {
  const eventId = await db.$transaction((tx) =>
    addOutboxEvent(tx, { tenantId: TENANT, subject, payload: { n: 2 } }),
  );
  const line = await lineOf(`handled 2 ${eventId}`);
  expect(line).toMatchObject({ requestId: eventId, tenant: TENANT });
  expect(line.traceId).toBeUndefined();
});
