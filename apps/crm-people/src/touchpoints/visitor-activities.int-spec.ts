import { connect, headers as natsHeaders, NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { NATS_TEST_URL } from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import { inTenant, overAllTenants } from '../test/tenant-scope';
import { RunningService, startCrmPeople } from '../test/service-harness';
import { apiOf } from './test/api';
import { VisitorActivitiesEvents } from './visitor-activities.events';

// bookings-invitations' visitor activities become touchpoints of the known person: published to
// JetStream the way its outbox relay does, consumed by the running crm-people. One touchpoint per
// outbox event (also when the event comes again), none for an unknown or foreign person.

jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let db: PrismaService;
let nc: NatsConnection;
const api = apiOf(() => svc);

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_visitor_activities');
  db = svc.app.get(PrismaService);
  nc = await connect({ servers: NATS_TEST_URL, name: 'bookings-invitations-relay-stand-in' });
}, 60000);
afterAll(async () => {
  await nc?.close();
  await svc?.app.close();
});

async function publish(subject: string, payload: object, id: string = randomUUID()) {
  const h = natsHeaders();
  h.set('Crm-Tenant-Id', (payload as { tenantId: string }).tenantId);
  for (let attempt = 0; ; attempt++) {
    try {
      await nc.jetstream().publish(subject, JSON.stringify(payload), { msgID: id, headers: h });
      return id;
    } catch (err) {
      if (attempt > 50) throw err; // the service creates the stream when it connects
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Waits until crm-people recorded the outbox event as applied. */
async function applied(id: string, ms = 45_000) {
  const end = Date.now() + ms;
  while (!(await db.processedEvent.findUnique({ where: { id } }))) {
    if (Date.now() > end) throw new Error(`event ${id} not applied within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const activity = (personId: string | null, over: Record<string, unknown> = {}) => ({
  tenantId: A,
  eventId: randomUUID(),
  eventTitle: 'Summer Summit',
  personId,
  at: '2026-05-04T10:30:00.000Z',
  ...over,
});

const timeline = async (personId: string, tenant = A) => {
  const res = await api.call(tenant, 'GET', `/touchpoints?personId=${personId}&sort=start`);
  expect(res.status).toBe(200);
  return res.body.data as {
    id: string;
    type: string;
    subject: string;
    description: string | null;
    start: string;
  }[];
};

it('writes a touchpoint per kind of activity, at its time, with a subject in the visitor’s language', async () => {
  const person = await api.person(A, 'Visitor');
  const bookingId = randomUUID();
  const cases: [
    string,
    Record<string, unknown>,
    Partial<{ type: string; subject: string; description: string | null }>,
  ][] = [
    [
      Subjects.bookingsInvitations.bookingCreated,
      {
        bookingId,
        tickets: 3,
        totalGross: '357.00',
        currency: 'EUR',
        invitationId: null,
        at: '2026-05-01T08:00:00.000Z',
      },
      {
        type: 'event-booking',
        subject: 'Booked: Summer Summit',
        description: '3 ticket(s), 357.00 EUR',
      },
    ],
    [
      // a booking whose booker the organiser linked to the person later (BK9): at booking time
      Subjects.bookingsInvitations.bookingLinked,
      {
        bookingId: randomUUID(),
        tickets: 1,
        totalGross: '119.00',
        currency: 'EUR',
        invitationId: null,
        at: '2026-05-01T09:00:00.000Z',
        language: 'de',
      },
      {
        type: 'event-booking',
        subject: 'Gebucht: Summer Summit',
      },
    ],
    [
      Subjects.bookingsInvitations.invitationAccepted,
      { invitationId: randomUUID(), at: '2026-05-02T08:00:00.000Z', language: 'de-DE' },
      {
        type: 'event-invitation-accepted',
        subject: 'Einladung angenommen: Summer Summit',
        description: null,
      },
    ],
    [
      Subjects.bookingsInvitations.invitationRejected,
      { invitationId: randomUUID(), at: '2026-05-03T08:00:00.000Z' },
      { type: 'event-invitation-rejected', subject: 'Invitation declined: Summer Summit' },
    ],
    [
      Subjects.bookingsInvitations.ticketCheckedIn,
      { ticketId: randomUUID(), bookingId, location: 'Gate 2', at: '2026-05-04T08:00:00.000Z' },
      {
        type: 'event-check-in',
        subject: 'Checked in: Summer Summit',
        description: 'Location: Gate 2',
      },
    ],
    [
      Subjects.bookingsInvitations.bookingCancelled,
      {
        bookingId,
        cancellationFee: '0.00',
        refundAmount: '357.00',
        reason: 'event-deleted',
        at: '2026-05-05T08:00:00.000Z',
        language: 'de',
      },
      {
        type: 'event-booking-cancelled',
        subject: 'Buchung storniert: Summer Summit',
        description: 'Stornogebühr 0.00, Erstattung 357.00 (Grund: Veranstaltung gelöscht)',
      },
    ],
  ];
  const ids: string[] = [];
  for (const [subject, over] of cases) {
    const id = await publish(subject, activity(person.toUpperCase(), over));
    await applied(id);
    ids.push(id);
  }
  const items = await timeline(person);
  expect(items.map((i) => i.id)).toEqual(ids);
  cases.forEach(([, over, expected], i) => {
    expect(items[i]).toMatchObject({ ...expected, start: (over as { at: string }).at });
  });
  const read = await api.call(A, 'GET', `/touchpoints/${ids[0]}`);
  expect(read.body.data).toMatchObject({ createdBy: 'bookings-invitations' });
});

it('writes each outbox event once, and nothing for no person, an unknown one or another tenant’s', async () => {
  const mine = await api.person(A, 'Once');
  const theirs = await api.person(B, 'Other tenant');
  const payload = activity(mine, {
    bookingId: randomUUID(),
    tickets: 1,
    totalGross: '10.00',
    currency: 'EUR',
    invitationId: null,
  });
  const id = await publish(Subjects.bookingsInvitations.bookingCreated, payload);
  await applied(id);
  // the same outbox event applied again (ProcessedEvent forgotten, a replay by hand): no second one
  const handler = svc.app.get(VisitorActivitiesEvents);
  // as the consumer applies it: a transaction of the event's tenant
  await inTenant(A, () =>
    db.$transaction((tx) =>
      handler.onBooked(payload as never, {
        tx,
        eventId: id,
        subject: Subjects.bookingsInvitations.bookingCreated,
        deliveryCount: 2,
      }),
    ),
  );
  expect(await timeline(mine)).toHaveLength(1);

  const skipped = [
    activity(null, { invitationId: randomUUID() }),
    activity(randomUUID(), { invitationId: randomUUID() }),
    activity(theirs, { invitationId: randomUUID() }),
  ];
  const touchpoints = () =>
    overAllTenants(() => db.touchpoint.count({ where: { tenantId: { in: [A, B] } } }));
  const before = await touchpoints();
  expect(before).toBeGreaterThan(0);
  const ids: string[] = [];
  for (const p of skipped)
    ids.push(await publish(Subjects.bookingsInvitations.invitationRejected, p));
  // one subject's events are applied in order: once the last is, the others are done too
  await applied(ids[2]);
  expect(await touchpoints()).toBe(before);
  // the one without a person was skipped before any transaction: not even recorded as applied
  expect(await db.processedEvent.findUnique({ where: { id: ids[0] } })).toBeNull();
  expect(await db.processedEvent.findUnique({ where: { id: ids[1] } })).not.toBeNull();
  expect(await timeline(theirs, B)).toEqual([]);
  // and it is not visible to the other tenant
  expect((await api.call(B, 'GET', `/touchpoints/${id}`)).status).toBe(404);
});
