import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { TicketTestKit } from '../ticket-types/test/ticket-test-kit';
import {
  bookingRow,
  historyOf,
  insertBooking,
  insertInvitation,
  invitationRow,
  mailRow,
  queueInvitationMail,
} from './test/fixtures';

// What other services' events change here, published to JetStream as their outbox relays do and
// applied by the real service: each once (the same event id again is skipped), and the same fact
// sent again under a new id changes nothing either; never another tenant's rows.

jest.setTimeout(60000);

let t: TicketTestKit;
beforeAll(async () => {
  t = await TicketTestKit.start('bookings_invitations_it_cross_service');
}, 60000);
afterAll(async () => t?.close());

/** Publishes and waits until applied. */
const apply = async (subject: string, payload: { tenantId: string } & Record<string, unknown>) => {
  const id = (await t.publish(subject, payload)) as ReturnType<typeof randomUUID>;
  await t.applied(id);
  return id;
};

describe('crm-people.people.merged', () => {
  it('re-points bookings and invitations of the sources to the target, with history, once', async () => {
    const eventId = randomUUID();
    const [source1, source2, target, other] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const b1 = await insertBooking(t, t.A, eventId, { personId: source1 });
    const b2 = await insertBooking(t, t.A, eventId, { personId: source2.toUpperCase() });
    const untouched = await insertBooking(t, t.A, eventId, { personId: other });
    const theirs = await insertBooking(t, t.B, eventId, { personId: source1 });
    const inv = await insertInvitation(t, t.A, eventId, { personId: source1 });
    const theirInv = await insertInvitation(t, t.B, eventId, { personId: source1 });

    const payload = {
      tenantId: t.A,
      targetId: target,
      sourceIds: [source1, source2.toUpperCase()],
    };
    await apply(Subjects.crmPeople.peopleMerged, payload);

    for (const b of [b1, b2]) {
      expect(await bookingRow(t, b.id)).toMatchObject({
        bookerPersonId: target,
        bookerEmail: 'erika@example.com',
      });
    }
    expect((await bookingRow(t, untouched.id)).bookerPersonId).toBe(other);
    expect((await bookingRow(t, theirs.id)).bookerPersonId).toBe(source1);
    expect((await invitationRow(t, inv)).personId).toBe(target);
    expect((await invitationRow(t, theirInv)).personId).toBe(source1);
    expect(await historyOf(t, b1.id)).toEqual([
      {
        action: 'person-merged',
        actor: 'system',
        data: { fromPersonId: source1, toPersonId: target },
      },
    ]);
    expect((await historyOf(t, b2.id))[0].data).toEqual({
      fromPersonId: source2,
      toPersonId: target,
    });
    expect(await historyOf(t, theirs.id)).toEqual([]);

    // the same fact again, under a new event id: nothing changes, no second history entry
    await apply(Subjects.crmPeople.peopleMerged, payload);
    expect(await historyOf(t, b1.id)).toHaveLength(1);
    expect((await bookingRow(t, b1.id)).bookerPersonId).toBe(target);
  });
});

describe('crm-people.people.deleted', () => {
  it('withdraws the people’s invitations without the person, bookings keep name and e-mail, once', async () => {
    const eventId = randomUUID();
    const [gone, kept] = [randomUUID(), randomUUID()];
    const booking = await insertBooking(t, t.A, eventId, {
      personId: gone,
      email: 'gone@example.com',
    });
    const keptBooking = await insertBooking(t, t.A, eventId, { personId: kept });
    const theirs = await insertBooking(t, t.B, eventId, { personId: gone });
    const sent = await insertInvitation(t, t.A, eventId, { personId: gone, status: 'sent' });
    const accepted = await insertInvitation(t, t.A, eventId, {
      personId: gone,
      status: 'accepted',
    });
    const keptInv = await insertInvitation(t, t.A, eventId, { personId: kept });
    const theirInv = await insertInvitation(t, t.B, eventId, { personId: gone });
    const queued = await queueInvitationMail(t, t.A, sent, eventId);
    const keptMail = await queueInvitationMail(t, t.A, keptInv, eventId);
    const theirMail = await queueInvitationMail(t, t.B, theirInv, eventId);

    const id = await apply(Subjects.crmPeople.peopleDeleted, {
      tenantId: t.A,
      personIds: [gone.toUpperCase()],
    });

    expect(await bookingRow(t, booking.id)).toMatchObject({
      bookerPersonId: null,
      bookerFirstname: 'Erika',
      bookerLastname: 'Muster',
      bookerEmail: 'gone@example.com',
      status: 'confirmed',
      modifiedBy: 'system',
    });
    expect(await historyOf(t, booking.id)).toEqual([
      { action: 'person-deleted', actor: 'system', data: { personId: gone } },
    ]);
    for (const inv of [sent, accepted]) {
      expect(await invitationRow(t, inv)).toMatchObject({ personId: null, status: 'withdrawn' });
    }
    expect(await invitationRow(t, keptInv)).toMatchObject({ personId: kept, status: 'sent' });
    expect(await invitationRow(t, theirInv)).toMatchObject({ personId: gone, status: 'sent' });
    // the invitation mail not yet sent to the deleted person never goes
    expect(await mailRow(t, queued)).toEqual({
      status: 'failed',
      lastError: 'Not sent: the invitation was withdrawn (the person was deleted)',
    });
    expect((await mailRow(t, keptMail)).status).toBe('queued');
    expect((await mailRow(t, theirMail)).status).toBe('queued');
    expect((await bookingRow(t, keptBooking.id)).bookerPersonId).toBe(kept);
    expect((await bookingRow(t, theirs.id)).bookerPersonId).toBe(gone);

    // the same event id again is skipped; the same fact under a new id finds nothing to change
    await t.publish(Subjects.crmPeople.peopleDeleted, { tenantId: t.A, personIds: [gone] }, id);
    await apply(Subjects.crmPeople.peopleDeleted, { tenantId: t.A, personIds: [gone] });
    expect(await historyOf(t, booking.id)).toHaveLength(1);
    expect(await t.count('ProcessedEvent', 'id = $1::uuid', [id])).toBe(1);
  });
});

describe('events.websites.migrated', () => {
  it('moves the website of the events’ bookings and invitations to the target', async () => {
    const [eventId, otherEvent] = [randomUUID(), randomUUID()];
    const [from, to, elsewhere] = [randomUUID(), randomUUID(), randomUUID()];
    const booking = await insertBooking(t, t.A, eventId, { websiteId: from });
    const otherSite = await insertBooking(t, t.A, eventId, { websiteId: elsewhere });
    const notNamed = await insertBooking(t, t.A, otherEvent, { websiteId: from });
    const theirs = await insertBooking(t, t.B, eventId, { websiteId: from });
    const inv = await insertInvitation(t, t.A, eventId, { websiteId: from });
    const theirInv = await insertInvitation(t, t.B, eventId, { websiteId: from });

    const migrated = {
      tenantId: t.A,
      websiteId: from.toUpperCase(),
      targetWebsiteId: to,
      eventIds: [eventId],
    };
    await apply(Subjects.events.websiteMigrated, migrated);
    expect((await bookingRow(t, booking.id)).websiteId).toBe(to);
    expect((await invitationRow(t, inv)).websiteId).toBe(to);
    expect((await bookingRow(t, otherSite.id)).websiteId).toBe(elsewhere);
    expect((await bookingRow(t, notNamed.id)).websiteId).toBe(from);
    expect((await bookingRow(t, theirs.id)).websiteId).toBe(from);
    expect((await invitationRow(t, theirInv)).websiteId).toBe(from);

    // the same migration again under a new event id touches no row
    const before = await bookingRow(t, booking.id);
    await apply(Subjects.events.websiteMigrated, migrated);
    expect(await bookingRow(t, booking.id)).toEqual(before);
  });
});

describe('events.events.deleted', () => {
  it('withdraws the events’ invitations (their queued mails not sent) and removes their ticket types, of the tenant only', async () => {
    const eventId = randomUUID();
    await t.snapshot(t.A, eventId);
    const tt = await t.call('POST', '/tickets', {
      eventId,
      name: 'Standard',
      price: '10',
      currency: 'EUR',
    });
    expect(tt.status).toBe(201);
    const sent = await insertInvitation(t, t.A, eventId, { status: 'sent' });
    const rejected = await insertInvitation(t, t.A, eventId, { status: 'rejected' });
    const theirs = await insertInvitation(t, t.B, eventId, { status: 'sent' });
    const queued = await queueInvitationMail(t, t.A, sent, eventId);
    const theirMail = await queueInvitationMail(t, t.B, theirs, eventId);

    await apply(Subjects.events.eventsDeleted, { tenantId: t.A, eventIds: [eventId] });
    for (const inv of [sent, rejected]) {
      expect(await invitationRow(t, inv)).toMatchObject({
        status: 'withdrawn',
        modifiedBy: 'system',
      });
    }
    expect((await invitationRow(t, theirs)).status).toBe('sent');
    expect(await mailRow(t, queued)).toMatchObject({ status: 'failed' });
    expect((await mailRow(t, theirMail)).status).toBe('queued');
    expect(await t.count('TicketType', '"eventId" = $1::uuid', [eventId])).toBe(0);
    expect(await t.copy(t.A, eventId)).toMatchObject({ deleted: true });
  });
});
