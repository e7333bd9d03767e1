import { randomUUID } from 'node:crypto';
import { AckPolicy, connect, DeliverPolicy, NatsConnection } from 'nats';
import { CRM_EVENTS_STREAM, Subjects } from '@crm/messaging';
import { NATS_TEST_URL } from '@crm/testing';
import { RunningService, startCrmPeople } from '../test/service-harness';
import { inTenant } from '../test/tenant-scope';
import { mergeTestClient } from './test/merge-fixtures';

// crm-people's outbox relay with the real service, database and NATS: the merge's event and a
// row inserted the way other helpers write theirs (tx.outboxEvent.create) reach JetStream.

const A = `tenant-ev-${randomUUID().slice(0, 8)}`;
const started = new Date();

let svc: RunningService;
let t: ReturnType<typeof mergeTestClient>;
let nc: NatsConnection;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_m_events');
  t = mergeTestClient(svc);
  nc = await connect({ servers: NATS_TEST_URL });
}, 60000);
afterAll(async () => {
  await nc?.close();
  await svc?.app.close();
});

/** The stream's message with this Nats-Msg-Id on `subject`, written since this file started. */
async function fromStream(subject: string, eventId: string, ms = 45_000) {
  const jsm = await nc.jetstreamManager();
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const ci = await jsm.consumers.add(CRM_EVENTS_STREAM, {
        filter_subject: subject,
        ack_policy: AckPolicy.None,
        deliver_policy: DeliverPolicy.StartTime,
        opt_start_time: started.toISOString(),
      });
      const c = await nc.jetstream().consumers.get(CRM_EVENTS_STREAM, ci.name);
      try {
        for (let m = await c.next({ expires: 1000 }); m; m = await c.next({ expires: 1000 })) {
          if (m.headers?.get('Nats-Msg-Id') === eventId) {
            return { payload: m.json(), tenant: m.headers.get('Crm-Tenant-Id') };
          }
        }
      } finally {
        await jsm.consumers.delete(CRM_EVENTS_STREAM, ci.name);
      }
    } catch {
      // the stream may not exist yet: the service creates it when it connects
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`event ${eventId} did not reach ${CRM_EVENTS_STREAM}`);
}

/** The outbox row once the relay has committed it as published (it publishes, then commits). */
async function publishedRow(id: string, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    const row = await inTenant(A, () => t.db.outboxEvent.findUniqueOrThrow({ where: { id } }));
    if (row.publishedAt || Date.now() > until) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('P20 writes a PeopleMergedEvent that the relay publishes to JetStream', async () => {
  const T = await t.person(A, { firstname: 'Target' });
  const S = await t.person(A, { firstname: 'Source' });
  const res = await t.rest(A, 'POST', '/people/merge', { targetId: T, sourceIds: [S] });
  expect(res.status).toBe(200);
  const [event] = await inTenant(A, () =>
    t.db.outboxEvent.findMany({
      where: { tenantId: A, subject: Subjects.crmPeople.peopleMerged },
    }),
  );
  const msg = await fromStream(Subjects.crmPeople.peopleMerged, event.id);
  expect(msg).toEqual({ payload: { tenantId: A, targetId: T, sourceIds: [S] }, tenant: A });
  const row = await publishedRow(event.id);
  expect(row.publishedAt).not.toBeNull();
  expect(row.attempts).toBe(0);
});

it('a row written with tx.outboxEvent.create (no notification) is published by the poll', async () => {
  const id = randomUUID();
  const payload = { tenantId: A, personIds: [randomUUID()] };
  // a transaction takes the scope it begins in
  await inTenant(A, () =>
    t.db.$transaction((tx) =>
      tx.outboxEvent.create({
        data: { id, tenantId: A, subject: Subjects.crmPeople.peopleDeleted, payload },
      }),
    ),
  );
  expect(await fromStream(Subjects.crmPeople.peopleDeleted, id)).toEqual({ payload, tenant: A });
  const row = await publishedRow(id);
  expect(row.publishedAt).not.toBeNull();
});
