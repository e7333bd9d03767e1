import { headers as natsHeaders } from 'nats';
import { randomUUID } from 'node:crypto';
import { PeopleDeletedEvent, PeopleMergedEvent, Subjects } from '@crm/messaging';
import { LockProbe, tenantHeaders, TestAnswer, tracked, until } from '@crm/testing';
import { BookingTestKit } from '../bookings/test/booking-test-kit';
import { PeopleStandIn as ContactsStandIn } from '../invitations/test/invitation-test-kit';
import {
  bookingRow,
  insertBooking,
  insertInvitation,
  invitationRow,
  queueInvitationMail,
} from './test/fixtures';

// A person deleted or merged away between a booking's or invitation's NATS check and its commit
// leaves no row pointing at it: the people.deleted / people.merged consumers and the writes meet
// on the person's advisory lock and tombstone (@crm/persistence foreign-references.ts); a public
// booking, whose person comes from its invitation's locked row, meets them on that row. Both bad
// orders are forced by holding a row lock one side needs (a connection of the test's own), then
// 50 writes race a deletion. Each wait is for a condition seen in pg_stat_activity or the database.

jest.setTimeout(180_000);

let kit: BookingTestKit;
let contacts: ContactsStandIn;
let probe: LockProbe;

beforeAll(async () => {
  kit = await BookingTestKit.start('bookings_invitations_it_people_race');
  contacts = new ContactsStandIn(kit.nc);
  await contacts.start();
  probe = await LockProbe.connect(kit.svc.databaseUrl);
}, 120_000);
afterAll(async () => {
  await probe?.close();
  await contacts?.stop();
  await kit?.close();
}, 30_000);

const yes = (v: boolean) => v;
type PeopleEvent = PeopleDeletedEvent | PeopleMergedEvent;

/** A person of tenant A that both crm-people checks (exist, contacts) know. */
const person = () => kit.people.add(contacts.person(kit.A));

/** crm-people deleted or merged the person away: its checks refuse it from now on. */
function forget(personId: string) {
  kit.people.forget(personId);
  contacts.forget(kit.A, personId);
}

async function publish(subject: string, event: PeopleEvent): Promise<string> {
  const id = randomUUID();
  const h = natsHeaders();
  h.set('Crm-Tenant-Id', event.tenantId);
  for (let attempt = 0; ; attempt++) {
    try {
      await kit.nc.jetstream().publish(subject, JSON.stringify(event), { msgID: id, headers: h });
      return id;
    } catch (err) {
      // the service creates the stream when it connects
      if (attempt > 50) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const deleted = (personId: string): [string, PeopleEvent] => [
  Subjects.crmPeople.peopleDeleted,
  { tenantId: kit.A, personIds: [personId] },
];
const merged = (source: string, target: string): [string, PeopleEvent] => [
  Subjects.crmPeople.peopleMerged,
  { tenantId: kit.A, targetId: target, sourceIds: [source] },
];

const applied = async (eventId: string) =>
  (await probe.count(`SELECT count(*)::int FROM "ProcessedEvent" WHERE id = $1::uuid`, [eventId])) >
  0;

/** Bookings and invitations of the tenant pointing at the person. */
const pointingAt = (personId: string) =>
  probe.count(
    `SELECT (SELECT count(*) FROM "Booking" WHERE "tenantId" = $1 AND "bookerPersonId" = $2::uuid)
          + (SELECT count(*) FROM "Invitation" WHERE "tenantId" = $1 AND "personId" = $2::uuid)`,
    [kit.A, personId],
  );

// the writes
const link = (bookingId: string, personId: string) =>
  kit.call('PUT', `/bookings/${bookingId}/booker`, { personId });
const invite = (eventId: string, personId: string) =>
  kit.call('POST', '/invitations', { eventId, personId });
const bookInvited = (eventId: string, ticketTypeId: string, invitationToken: string) =>
  kit.book(eventId, [{ ticketTypeId }], { invitationToken });

function importPeople(eventId: string, personIds: string[]): Promise<TestAnswer> {
  const form = new FormData();
  form.append('eventId', eventId);
  form.append(
    'file',
    new Blob([`personId\n${personIds.join('\n')}\n`], { type: 'text/csv' }),
    'people.csv',
  );
  const headers = tenantHeaders(kit.A);
  delete headers['Content-Type']; // fetch writes the multipart boundary
  return kit.api.rest('POST', '/invitations/import', form, headers);
}

async function importFinished(jobId: string) {
  const job = await until(
    'the import job is finished',
    async () => (await kit.call('GET', `/invitations/import/${jobId}`)).body.data,
    (d) => ['done', 'failed'].includes(d?.status),
    90_000,
  );
  return job;
}

/** An invitation of the person to a bookable event (one ticket type), with its token. */
async function invitedToBook(personId: string) {
  const eventId = await kit.event();
  const ticketTypeId = await kit.ticketType(eventId);
  const invitationId = await insertInvitation(kit, kit.A, eventId, { personId });
  const [{ token }] = await kit.sql<{ token: string }>(
    `SELECT token FROM "Invitation" WHERE id = $1::uuid`,
    [invitationId],
  );
  return { eventId, ticketTypeId, invitationId, token };
}

// rows the test holds to park one side
const holdBooking = (id: string) =>
  probe.holdRows(`SELECT id FROM "Booking" WHERE id = $1::uuid`, [id]);
const holdEventCopy = (eventId: string) =>
  probe.holdRows(
    `SELECT "eventId" FROM "EventCopy" WHERE "tenantId" = $1 AND "eventId" = $2::uuid`,
    [kit.A, eventId],
  );
const holdTicketType = (id: string) =>
  probe.holdRows(`SELECT id FROM "TicketType" WHERE id = $1::uuid`, [id]);

/**
 * Publishes the event while a write checked before it is parked on a row held by the test (after
 * its person's lock, or its invitation's), so that without them the consumer commits first; then
 * lets the write go.
 */
async function eventDuringParkedWrite(
  hold: () => Promise<() => Promise<void>>,
  write: () => Promise<TestAnswer>,
  [subject, event]: [string, PeopleEvent],
) {
  const release = await hold();
  const parked = tracked(write());
  await until(
    'the write waits for the held row',
    () => probe.waiting('row'),
    (n) => n >= 1,
  );
  const eventId = await publish(subject, event);
  await until(
    'the consumer is applied or waits for the write',
    async () =>
      (await applied(eventId)) ||
      (await probe.waiting('advisory')) >= 1 ||
      (await probe.waiting('row')) >= 2,
    yes,
  );
  await release();
  await parked.done;
  await until('the event is applied', () => applied(eventId), yes);
  return parked.answer!;
}

/**
 * Parks the consumer of the event on a row held by the test (it has taken the people's locks),
 * then starts the writes; without the lock they commit while it waits. Then lets it go.
 */
async function writesDuringParkedEvent(
  hold: () => Promise<() => Promise<void>>,
  [subject, event]: [string, PeopleEvent],
  writes: (() => Promise<TestAnswer>)[],
) {
  const release = await hold();
  const eventId = await publish(subject, event);
  await until(
    'the consumer waits for the held row',
    () => probe.waiting('row'),
    (n) => n >= 1,
  );
  const started = writes.map((w) => tracked(w()));
  // a write waits for a person's lock, or for a row the consumer changed (besides the consumer)
  await until(
    'each write answered or waits for the consumer',
    async () =>
      started.filter((w) => !w.answer).length <=
      (await probe.waiting('advisory')) + (await probe.waiting('row')) - 1,
    yes,
  );
  await release();
  const answers = await Promise.all(started.map((w) => w.done));
  await until('the event is applied', () => applied(eventId), yes);
  return answers;
}

/**
 * A queued mail of an invitation of the person: the deletion's consumer updates it after the
 * person's bookings and invitations, so holding it parks the consumer with those done.
 */
async function queuedMailOf(personId: string) {
  const eventId = randomUUID();
  const invitationId = await insertInvitation(kit, kit.A, eventId, { personId });
  return queueInvitationMail(kit, kit.A, invitationId, eventId);
}
const holdMail = (id: string) => probe.holdRows(`SELECT id FROM "Mail" WHERE id = $1::uuid`, [id]);

const unknownPerson = (a: TestAnswer) => {
  expect(a.status).toBe(400);
  expect(a.body.errors).toEqual([
    expect.objectContaining({ field: 'personId', rule: 'unknownPerson' }),
  ]);
};

describe('people.deleted racing booking and invitation writes', () => {
  it('a booking linked to the person, checked before the deletion and committed after its consumer ran, loses the person', async () => {
    const p = person();
    const booking = await insertBooking(kit, kit.A, randomUUID());
    const answer = await eventDuringParkedWrite(
      () => holdBooking(booking.id),
      () => link(booking.id, p),
      deleted(p),
    );
    expect(answer.status).toBe(200);
    expect((await bookingRow(kit, booking.id)).bookerPersonId).toBeNull();
    expect(await pointingAt(p)).toBe(0);
  });

  it('an invitation of the person, checked before the deletion and committed after its consumer ran, is withdrawn without the person', async () => {
    const p = person();
    const eventId = await kit.event();
    const answer = await eventDuringParkedWrite(
      () => holdEventCopy(eventId),
      () => invite(eventId, p),
      deleted(p),
    );
    expect(answer.status).toBe(201);
    expect(await invitationRow(kit, answer.body.data.id)).toMatchObject({
      personId: null,
      status: 'withdrawn',
    });
    expect(await pointingAt(p)).toBe(0);
  });

  it('a public booking through the person’s invitation, committed after the consumer reached the invitation, loses the person', async () => {
    const p = person();
    const inv = await invitedToBook(p);
    // the booking holds the invitation and waits for the ticket type's counters
    const answer = await eventDuringParkedWrite(
      () => holdTicketType(inv.ticketTypeId),
      () => bookInvited(inv.eventId, inv.ticketTypeId, inv.token),
      deleted(p),
    );
    expect(answer.status).toBe(201);
    expect((await bookingRow(kit, answer.body.data.id)).bookerPersonId).toBeNull();
    expect(await pointingAt(p)).toBe(0);
  });

  it('writes checked before the deletion and reaching their transaction after the consumer are refused as for an unknown person', async () => {
    const p = person();
    const mail = await queuedMailOf(p);
    const booking = await insertBooking(kit, kit.A, randomUUID());
    const eventId = await kit.event();
    const inv = await invitedToBook(p);
    // crm-people answered "exists" before its delete committed: the checks pass
    const [linked, invited, booked] = await writesDuringParkedEvent(
      () => holdMail(mail),
      deleted(p),
      [
        () => link(booking.id, p),
        () => invite(eventId, p),
        // waits for the invitation the consumer withdrew: refused as a withdrawn one
        () => bookInvited(inv.eventId, inv.ticketTypeId, inv.token),
      ],
    );
    unknownPerson(linked);
    unknownPerson(invited);
    expect(booked.status).toBe(409);
    expect((await bookingRow(kit, booking.id)).bookerPersonId).toBeNull();
    expect(await kit.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(0);
    expect(await kit.count('Booking', `"eventId" = $1::uuid`, [inv.eventId])).toBe(0);
    expect(await pointingAt(p)).toBe(0);
  });

  it('a public booking through the person’s invitation while the consumer waits for their bookings is written, then loses the person', async () => {
    const p = person();
    const held = await insertBooking(kit, kit.A, randomUUID(), { personId: p });
    const inv = await invitedToBook(p);
    // takes the invitation before the consumer does: its person is the invitation's, not asked
    const [booked] = await writesDuringParkedEvent(() => holdBooking(held.id), deleted(p), [
      () => bookInvited(inv.eventId, inv.ticketTypeId, inv.token),
    ]);
    expect(booked.status).toBe(201);
    expect((await bookingRow(kit, booked.body.data.id)).bookerPersonId).toBeNull();
    expect(await invitationRow(kit, inv.invitationId)).toMatchObject({
      personId: null,
      status: 'withdrawn',
    });
    expect(await pointingAt(p)).toBe(0);
  });

  it('an import job checked before the deletion and reaching its transaction after the consumer fails the person’s rows', async () => {
    const [p, kept] = [person(), person()];
    const mail = await queuedMailOf(p);
    const eventId = await kit.event();
    const release = await holdMail(mail);
    const deletion = await publish(...deleted(p));
    await until(
      'the consumer waits for the mail',
      () => probe.waiting('row'),
      (n) => n >= 1,
    );
    const upload = await importPeople(eventId, [p, kept]);
    expect(upload.status).toBe(202);
    const jobId = upload.body.data.jobId;
    await until(
      'the import waits for the consumer or is finished',
      async () =>
        (await probe.waiting('advisory')) >= 1 ||
        (await probe.count(
          `SELECT count(*)::int FROM "ImportJob" WHERE id = $1::uuid AND status = 'done'`,
          [jobId],
        )) > 0,
      yes,
    );
    await release();
    await until('the event is applied', () => applied(deletion), yes);
    const job = await importFinished(jobId);
    expect(job).toMatchObject({ status: 'done', created: 1, failed: 1 });
    expect(job.results).toEqual([
      expect.objectContaining({
        status: 'failed',
        errors: [expect.objectContaining({ field: 'personId', rule: 'unknownPerson' })],
      }),
      expect.objectContaining({ status: 'created' }),
    ]);
    expect(await pointingAt(p)).toBe(0);
    expect(await pointingAt(kept)).toBe(1);
  });

  it('50 writes racing the deletion: each succeeded and was cleared, or was refused', async () => {
    const p = person();
    const events = await Promise.all(Array.from({ length: 25 }, () => kit.event()));
    const bookings = await Promise.all(
      Array.from({ length: 25 }, () => insertBooking(kit, kit.A, randomUUID())),
    );
    let eventId: string | null = null;
    let answered = 0;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? invite(events[i >> 1], p) : link(bookings[i >> 1].id, p)).then((a) => {
          // crm-people deletes the person while most writes are still under way
          if (++answered === 5) {
            forget(p);
            void publish(...deleted(p)).then((id) => (eventId = id));
          }
          return a;
        }),
      ),
    );
    await until(
      'the deletion is published',
      async () => eventId,
      (id) => id !== null,
    );
    await until('the event is applied', () => applied(eventId!), yes);

    const outcome = answers.map((a, i) => {
      if (a.status === 400) {
        unknownPerson(a);
        return 'refused';
      }
      expect(a.status).toBe(i % 2 ? 201 : 200);
      return 'written';
    });
    expect(await pointingAt(p)).toBe(0);
    // every link that succeeded was cleared; every refused one changed nothing (none had a person)
    expect(
      await probe.count(
        `SELECT count(*)::int FROM "Booking" WHERE id = ANY($1::uuid[]) AND "bookerPersonId" IS NULL`,
        [bookings.map((b) => b.id)],
      ),
    ).toBe(25);
    // every invitation that succeeded exists, withdrawn without the person; a refused one does not
    const invited = answers.filter((a, i) => i % 2 && a.status === 201).map((a) => a.body.data.id);
    expect(
      await probe.count(
        `SELECT count(*)::int FROM "Invitation" WHERE "eventId" = ANY($1::uuid[])`,
        [events],
      ),
    ).toBe(invited.length);
    expect(
      await probe.count(
        `SELECT count(*)::int FROM "Invitation"
          WHERE id = ANY($1::uuid[]) AND "personId" IS NULL AND status = 'withdrawn'`,
        [invited],
      ),
    ).toBe(invited.length);
    // the race happened: some writes were made before the deletion (later cleared)
    expect(outcome.filter((o) => o === 'written').length).toBeGreaterThan(0);
    expect(
      await probe.count(
        `SELECT count(*)::int FROM "BookingHistory"
          WHERE "bookingId" = ANY($1::uuid[]) AND action = 'person-deleted'`,
        [bookings.map((b) => b.id)],
      ),
    ).toBe(outcome.filter((o, i) => o === 'written' && i % 2 === 0).length);
  });
});

describe('people.merged racing booking and invitation writes', () => {
  it('a booking linked to a source, committed after the merge was applied, moves to the target', async () => {
    const [target, source] = [person(), person()];
    const booking = await insertBooking(kit, kit.A, randomUUID());
    const answer = await eventDuringParkedWrite(
      () => holdBooking(booking.id),
      () => link(booking.id, source),
      merged(source, target),
    );
    expect(answer.status).toBe(200);
    expect((await bookingRow(kit, booking.id)).bookerPersonId).toBe(target);
    expect(await pointingAt(source)).toBe(0);
  });

  it('a public booking through a source’s invitation, committed after the consumer reached the invitation, moves to the target', async () => {
    const [target, source] = [person(), person()];
    const inv = await invitedToBook(source);
    const answer = await eventDuringParkedWrite(
      () => holdTicketType(inv.ticketTypeId),
      () => bookInvited(inv.eventId, inv.ticketTypeId, inv.token),
      merged(source, target),
    );
    expect(answer.status).toBe(201);
    expect((await bookingRow(kit, answer.body.data.id)).bookerPersonId).toBe(target);
    expect((await invitationRow(kit, inv.invitationId)).personId).toBe(target);
    expect(await pointingAt(source)).toBe(0);
  });

  it('writes naming a source reaching their transaction after the consumer are refused, not redirected', async () => {
    const [target, source] = [person(), person()];
    const held = await insertBooking(kit, kit.A, randomUUID(), { personId: source });
    const other = await insertBooking(kit, kit.A, randomUUID());
    const eventId = await kit.event();
    const [linked, invited] = await writesDuringParkedEvent(
      () => holdBooking(held.id),
      merged(source, target),
      [() => link(other.id, source), () => invite(eventId, source)],
    );
    unknownPerson(linked);
    unknownPerson(invited);
    expect((await bookingRow(kit, other.id)).bookerPersonId).toBeNull();
    expect((await bookingRow(kit, held.id)).bookerPersonId).toBe(target);
    expect(await kit.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(0);
    expect(await pointingAt(source)).toBe(0);
  });

  it('a merge into a person whose deletion was applied first clears the sources’ rows', async () => {
    const [target, source] = [person(), person()];
    const booking = await insertBooking(kit, kit.A, randomUUID(), { personId: source });
    const invitation = await insertInvitation(kit, kit.A, randomUUID(), { personId: source });
    const gone = await publish(...deleted(target));
    await until('the deletion is applied', () => applied(gone), yes);
    const merge = await publish(...merged(source, target));
    await until('the merge is applied', () => applied(merge), yes);
    expect((await bookingRow(kit, booking.id)).bookerPersonId).toBeNull();
    expect(await invitationRow(kit, invitation)).toMatchObject({
      personId: null,
      status: 'withdrawn',
    });
    expect(await pointingAt(source)).toBe(0);
    expect(await pointingAt(target)).toBe(0);
  });
});
