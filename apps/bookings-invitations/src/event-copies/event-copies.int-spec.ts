import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { TicketTestKit } from '../ticket-types/test/ticket-test-kit';
import { EventCopiesRepository } from './event-copies.repository';

// The service's copy of the events service's events, fed over JetStream as the events relay
// publishes them: newer snapshots only, deletions that stick, website migrations, and the ticket
// types of a duplicated event copied once.

jest.setTimeout(60000);

let t: TicketTestKit;
beforeAll(async () => {
  t = await TicketTestKit.start('bookings_invitations_it_event_copies');
}, 60000);
afterAll(async () => t?.close());

const ticket = (eventId: string, name: string, over: Record<string, unknown> = {}) =>
  t.call('POST', '/tickets', { eventId, name, price: '20', currency: 'EUR', ...over });

describe('events.events.changed', () => {
  it('keeps every field of the snapshot', async () => {
    const eventId = randomUUID();
    const website = randomUUID();
    const fieldSet = randomUUID();
    await t.snapshot(t.A, eventId, {
      sequence: 3,
      capacity: 250,
      taxRateId: 'at-standard',
      cancellationTiers: [{ daysBefore: 14, percent: '50.00' }],
      bookingFormFieldSetId: fieldSet,
      websiteIds: [website.toUpperCase()],
      published: false,
      status: 'draft',
    });
    expect(await t.copy(t.A, eventId)).toMatchObject({
      sequence: 3,
      title: 'Summit',
      startsAt: new Date('2030-06-01T08:00:00.000Z'),
      timeZone: 'Europe/Berlin',
      capacity: 250,
      published: false,
      status: 'draft',
      taxRateId: 'at-standard',
      cancellationTiers: [{ daysBefore: 14, percent: '50.00' }],
      bookingFormFieldSetId: fieldSet,
      websiteIds: [website],
      deleted: false,
    });
  });

  it('keeps the fields of the booking form field set; a snapshot without them (older producer) keeps the copy’s', async () => {
    const eventId = randomUUID();
    const fields = [{ key: 'diet', label: 'Diet', type: 'text', required: true }];
    await t.snapshot(t.A, eventId, { sequence: 1, bookingFormFields: fields });
    expect(await t.copy(t.A, eventId)).toMatchObject({ bookingFormFields: fields });
    // the contract's other fields only, as events wrote them before bookingFormFields
    await t.snapshot(t.A, eventId, { sequence: 2, title: 'Renamed' });
    expect(await t.copy(t.A, eventId)).toMatchObject({
      title: 'Renamed',
      bookingFormFields: fields,
    });
    await t.snapshot(t.A, eventId, { sequence: 3, bookingFormFields: null });
    expect(await t.copy(t.A, eventId)).toMatchObject({ sequence: 3, bookingFormFields: null });
    // an older snapshot does not bring old fields back
    await t.snapshot(t.A, eventId, { sequence: 2, bookingFormFields: fields });
    expect(await t.copy(t.A, eventId)).toMatchObject({ sequence: 3, bookingFormFields: null });
  });

  it('keeps the sale terms; a snapshot without them (older producer) keeps the copy’s, a new copy the defaults', async () => {
    const eventId = randomUUID();
    // as events wrote snapshots before the terms: the column defaults
    await t.snapshot(t.A, eventId, { sequence: 1 });
    expect(await t.copy(t.A, eventId)).toMatchObject({
      holdMinutes: 15,
      paymentDeadlineHours: null,
      paymentReminderHours: null,
    });
    const terms = { holdMinutes: 30, paymentDeadlineHours: 72, paymentReminderHours: 24 };
    await t.snapshot(t.A, eventId, { sequence: 2, ...terms });
    expect(await t.copy(t.A, eventId)).toMatchObject({ sequence: 2, ...terms });
    await t.snapshot(t.A, eventId, { sequence: 3, title: 'Renamed' });
    expect(await t.copy(t.A, eventId)).toMatchObject({ sequence: 3, title: 'Renamed', ...terms });
    // null clears the deadline and the reminder
    await t.snapshot(t.A, eventId, {
      sequence: 4,
      holdMinutes: 15,
      paymentDeadlineHours: null,
      paymentReminderHours: null,
    });
    expect(await t.copy(t.A, eventId)).toMatchObject({
      sequence: 4,
      holdMinutes: 15,
      paymentDeadlineHours: null,
      paymentReminderHours: null,
    });
    // an older snapshot does not bring old terms back
    await t.snapshot(t.A, eventId, { sequence: 3, ...terms });
    expect(await t.copy(t.A, eventId)).toMatchObject({ sequence: 4, holdMinutes: 15 });
    // the first snapshot of a copy with the terms
    const other = randomUUID();
    await t.snapshot(t.A, other, { sequence: 1, holdMinutes: 5, paymentDeadlineHours: 1 });
    expect(await t.copy(t.A, other)).toMatchObject({
      holdMinutes: 5,
      paymentDeadlineHours: 1,
      paymentReminderHours: null,
    });
  });

  it('keeps the waiting-list terms: offer minutes (default 1440) and each website’s waiting-list page', async () => {
    const eventId = randomUUID();
    const site = randomUUID();
    await t.snapshot(t.A, eventId, { sequence: 1 });
    expect(await t.copy(t.A, eventId)).toMatchObject({
      waitingListOfferMinutes: 1440,
      waitingListLinks: null,
    });
    await t.snapshot(t.A, eventId, {
      sequence: 2,
      waitingListOfferMinutes: 60,
      websiteIds: [site],
      websites: [
        {
          id: site,
          invitationLink: 'https://p.example/invitations/{token}',
          waitingListLink: 'https://p.example/waiting-list/{token}',
        },
      ],
    });
    expect(await t.copy(t.A, eventId)).toMatchObject({
      waitingListOfferMinutes: 60,
      waitingListLinks: { [site]: 'https://p.example/waiting-list/{token}' },
    });
    // a snapshot of an older producer (neither of them) keeps what the copy has
    await t.snapshot(t.A, eventId, { sequence: 3, title: 'Renamed' });
    expect(await t.copy(t.A, eventId)).toMatchObject({
      waitingListOfferMinutes: 60,
      waitingListLinks: { [site]: 'https://p.example/waiting-list/{token}' },
    });
  });

  it('an older snapshot arriving after a newer one changes nothing', async () => {
    const eventId = randomUUID();
    await t.snapshot(t.A, eventId, { sequence: 5, title: 'Newer', capacity: 80 });
    await t.snapshot(t.A, eventId, { sequence: 4, title: 'Older', capacity: 999 });
    await t.snapshot(t.A, eventId, { sequence: 5, title: 'Same sequence again' });
    expect(await t.copy(t.A, eventId)).toMatchObject({ sequence: 5, title: 'Newer', capacity: 80 });
    await t.snapshot(t.A, eventId, { sequence: 6, title: 'Newest', capacity: null });
    expect(await t.copy(t.A, eventId)).toMatchObject({
      sequence: 6,
      title: 'Newest',
      capacity: null,
    });
  });

  it('a snapshot of one tenant never touches another tenant’s copy of the same id', async () => {
    const eventId = randomUUID();
    await t.snapshot(t.A, eventId, { sequence: 1, title: 'Mine' });
    await t.snapshot(t.B, eventId, { sequence: 9, title: 'Theirs' });
    expect(await t.copy(t.A, eventId)).toMatchObject({ sequence: 1, title: 'Mine' });
    expect(await t.copy(t.B, eventId)).toMatchObject({ sequence: 9, title: 'Theirs' });
  });
});

describe('events.events.deleted', () => {
  it('marks the copy deleted, removes its ticket types, and a late snapshot does not revive it', async () => {
    const eventId = randomUUID();
    const kept = randomUUID();
    await t.snapshot(t.A, eventId);
    await t.snapshot(t.A, kept);
    expect((await ticket(eventId, 'Gone')).status).toBe(201);
    expect((await ticket(kept, 'Kept')).status).toBe(201);
    await t.applied(
      await t.publish(Subjects.events.eventsDeleted, { tenantId: t.A, eventIds: [eventId] }),
    );
    expect(await t.copy(t.A, eventId)).toMatchObject({ deleted: true });
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [eventId])).toBe(0);
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [kept])).toBe(1);
    await t.snapshot(t.A, eventId, { sequence: 7 });
    expect(await t.copy(t.A, eventId)).toMatchObject({ deleted: true });
    // the event is gone for the routes too
    expect((await ticket(eventId, 'Again')).status).toBe(404);
    expect((await t.call('GET', `/tickets?eventId=${eventId}`)).status).toBe(404);
    expect(t.events.asked.filter((a) => a.eventIds.includes(eventId))).toEqual([]);
  });

  it('a deletion applied between the check of the event and the write: 404, nothing written', async () => {
    const eventId = randomUUID();
    await t.snapshot(t.A, eventId);
    const before = await t.copy(t.A, eventId);
    await t.applied(
      await t.publish(Subjects.events.eventsDeleted, { tenantId: t.A, eventIds: [eventId] }),
    );
    // the check before the transaction still saw the live copy
    const spy = jest
      .spyOn(t.svc.app.get(EventCopiesRepository), 'find')
      .mockResolvedValueOnce(before as never);
    try {
      expect((await ticket(eventId, 'Late')).status).toBe(404);
    } finally {
      spy.mockRestore();
    }
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });

  it('another tenant’s deletion of the same id changes nothing here', async () => {
    const eventId = randomUUID();
    await t.snapshot(t.A, eventId);
    expect((await ticket(eventId, 'Mine')).status).toBe(201);
    await t.applied(
      await t.publish(Subjects.events.eventsDeleted, { tenantId: t.B, eventIds: [eventId] }),
    );
    expect(await t.copy(t.A, eventId)).toMatchObject({ deleted: false });
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [eventId])).toBe(1);
  });

  it('an event deleted before its first snapshot arrived stays deleted', async () => {
    const eventId = randomUUID();
    await t.applied(
      await t.publish(Subjects.events.eventsDeleted, { tenantId: t.A, eventIds: [eventId] }),
    );
    await t.snapshot(t.A, eventId, { sequence: 1 });
    expect(await t.copy(t.A, eventId)).toMatchObject({ deleted: true });
  });
});

describe('events.websites.migrated', () => {
  it('moves the references of the events named, each website once', async () => {
    const [from, to, other] = [randomUUID(), randomUUID(), randomUUID()];
    const moved = randomUUID();
    const both = randomUUID();
    const untouched = randomUUID();
    await t.snapshot(t.A, moved, { websiteIds: [from, other] });
    await t.snapshot(t.A, both, { websiteIds: [from, to] });
    await t.snapshot(t.A, untouched, { websiteIds: [from] });
    await t.applied(
      await t.publish(Subjects.events.websiteMigrated, {
        tenantId: t.A,
        websiteId: from,
        targetWebsiteId: to,
        eventIds: [moved, both],
      }),
    );
    expect((await t.copy(t.A, moved))!.websiteIds).toEqual([other, to].sort());
    expect((await t.copy(t.A, both))!.websiteIds).toEqual([to]);
    expect((await t.copy(t.A, untouched))!.websiteIds).toEqual([from]);
  });
});

describe('events.events.duplicated', () => {
  it('copies the source’s ticket types to the copy, once, also when the event is sent again', async () => {
    const source = await (async () => {
      const id = randomUUID();
      await t.snapshot(t.A, id);
      return id;
    })();
    const copy = randomUUID();
    await ticket(source, 'Early', { quota: 10, taxRateId: 'de-reduced', maxPerBooking: 4 });
    await ticket(source, 'Regular', { price: '35.5', saleEndsAt: '2030-05-01T00:00:00.000Z' });
    const event = { tenantId: t.A, sourceEventId: source, eventId: copy };
    await t.applied(await t.publish(Subjects.events.eventDuplicated, event));
    // the relay sent it again (a new message id, e.g. after the duplicate window): no second copy
    await t.applied(await t.publish(Subjects.events.eventDuplicated, event));
    const rows = await t.sql<Record<string, unknown>>(
      `SELECT name, price::text, currency, "taxRateId", quota, "saleEndsAt", "maxPerBooking",
              "copiedFromId" IS NOT NULL AS copied
         FROM "TicketType" WHERE "tenantId" = $1 AND "eventId" = $2::uuid ORDER BY name`,
      [t.A, copy],
    );
    expect(rows).toEqual([
      {
        name: 'Early',
        price: '20.00',
        currency: 'EUR',
        taxRateId: 'de-reduced',
        quota: 10,
        saleEndsAt: null,
        maxPerBooking: 4,
        copied: true,
      },
      {
        name: 'Regular',
        price: '35.50',
        currency: 'EUR',
        taxRateId: null,
        quota: null,
        saleEndsAt: new Date('2030-05-01T00:00:00.000Z'),
        maxPerBooking: null,
        copied: true,
      },
    ]);
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [source])).toBe(2);
    // the copy has a signing key of its own, written with its types (reads of codes never write)
    const keys = await t.sql<{ eventId: string; keyId: string }>(
      `SELECT "eventId"::text AS "eventId", "keyId" FROM "EventSigningKey"
        WHERE "tenantId" = $1 AND "eventId" = ANY($2::uuid[])`,
      [t.A, [source, copy]],
    );
    expect(keys.map((k) => k.eventId).sort()).toEqual([source, copy].sort());
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(2);
    // the copy's types are its own: changing one leaves the source's alone
    await t.snapshot(t.A, copy);
    const list = await t.call('GET', `/tickets?eventId=${copy}&sort=name`);
    expect(list.body.data.map((x: { name: string }) => x.name)).toEqual(['Early', 'Regular']);
    await t.call('PUT', `/tickets/${list.body.data[0].id}`, { name: 'Early (copy)' });
    const src = await t.call('GET', `/tickets?eventId=${source}&sort=name`);
    expect(src.body.data.map((x: { name: string }) => x.name)).toEqual(['Early', 'Regular']);
  });

  it('copies nothing to an event whose deletion was applied first', async () => {
    const source = randomUUID();
    await t.snapshot(t.A, source);
    await ticket(source, 'Seat');
    const copy = randomUUID();
    await t.applied(
      await t.publish(Subjects.events.eventsDeleted, { tenantId: t.A, eventIds: [copy] }),
    );
    await t.applied(
      await t.publish(Subjects.events.eventDuplicated, {
        tenantId: t.A,
        sourceEventId: source,
        eventId: copy,
      }),
    );
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [copy])).toBe(0);
    expect(await t.count('EventSigningKey', `"eventId" = $1::uuid`, [copy])).toBe(0);
  });

  it('copies nothing across tenants', async () => {
    const source = randomUUID();
    await t.snapshot(t.A, source);
    await ticket(source, 'Mine');
    const copy = randomUUID();
    await t.applied(
      await t.publish(Subjects.events.eventDuplicated, {
        tenantId: t.B,
        sourceEventId: source,
        eventId: copy,
      }),
    );
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [copy])).toBe(0);
  });
});
