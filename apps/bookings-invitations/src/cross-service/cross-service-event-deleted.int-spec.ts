import { Subjects } from '@crm/messaging';
import { BookingTestKit } from '../bookings/test/booking-test-kit';

// events.events.deleted against real bookings made through BK1: every confirmed booking cancelled
// without a fee (tickets revoked, seats freed, bookings.cancelled for each, the booker told),
// invitations withdrawn, ticket types gone; applied once; bookings racing the deletion are either
// cancelled by it or refused, never left confirmed.

jest.setTimeout(90000);

let t: BookingTestKit;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_cross_service_deleted');
}, 60000);
afterAll(async () => t?.close());

const cancelledOutbox = (eventId: string) =>
  t.sql<{ payload: Record<string, unknown> }>(
    `SELECT payload FROM "OutboxEvent" WHERE subject = $1 AND payload->>'eventId' = $2
      ORDER BY "dateCreated", id`,
    [Subjects.bookingsInvitations.bookingCancelled, eventId],
  );

it('cancels the event’s bookings without a fee, revokes their tickets, frees the seats, once', async () => {
  const eventId = await t.event(t.A, { capacity: 10, title: 'Gone gala' });
  const standard = await t.ticketType(eventId, { quota: 5 });
  const vip = await t.ticketType(eventId, { name: 'VIP', price: '300' });
  const first = await t.booked(eventId, [{ ticketTypeId: standard, n: 2 }, { ticketTypeId: vip }]);
  const second = await t.booked(eventId, [{ ticketTypeId: standard }]);
  const earlier = await t.booked(eventId, [{ ticketTypeId: vip }]);
  const cancel = await t.call('POST', `/bookings/${earlier.id}/cancel`, {});
  expect(cancel.status).toBe(200);
  const otherEvent = await t.event(t.B, { capacity: 10 });
  const theirs = await t.booked(
    otherEvent,
    [{ ticketTypeId: await t.ticketType(otherEvent, {}, t.B) }],
    {},
    t.B,
  );
  await t.call('PUT', `/bookings/${first.id}/payment-status`, { paymentStatus: 'paid' });
  const mailsBefore = await t.count('Mail', '"eventId" = $1::uuid', [eventId]);

  await t.publishApplied(Subjects.events.eventsDeleted, { tenantId: t.A, eventIds: [eventId] });

  const bookings = await t.sql<Record<string, unknown>>(
    `SELECT id::text, status, "cancellationFee"::text AS fee, "refundAmount"::text AS refund,
            "totalGross"::text AS total, "paymentStatus"
       FROM "Booking" WHERE "eventId" = $1::uuid ORDER BY "dateCreated"`,
    [eventId],
  );
  expect(bookings.map((b) => b.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  // the paid booking gets all back; the open one had paid nothing and owes nothing (issue 20)
  expect(bookings.find((x) => x.id === first.id)).toMatchObject({
    fee: '0.00',
    refund: first.totalGross,
    paymentStatus: 'refunded',
  });
  expect(bookings.find((x) => x.id === second.id)).toMatchObject({
    fee: '0.00',
    refund: '0.00',
    paymentStatus: 'cancelled',
  });
  expect(
    await t.count('EventTicket', '"eventId" = $1::uuid AND (status <> $2 OR "revokedAt" IS NULL)', [
      eventId,
      'cancelled',
    ]),
  ).toBe(0);
  expect(await t.count('TicketType', '"eventId" = $1::uuid', [eventId])).toBe(0);
  const [copy] = await t.sql<{ sold: number; deleted: boolean }>(
    `SELECT sold, deleted FROM "EventCopy" WHERE "eventId" = $1::uuid`,
    [eventId],
  );
  expect(copy).toEqual({ sold: 0, deleted: true });

  // bookings.cancelled for each booking this deletion cancelled (the earlier one was already)
  const events = (await cancelledOutbox(eventId)).map((o) => o.payload);
  expect(events).toHaveLength(3);
  expect(events.slice(1).map((p) => [p.bookingId, p.reason, p.cancellationFee])).toEqual([
    [first.id, 'event-deleted', '0.00'],
    [second.id, 'event-deleted', '0.00'],
  ]);
  expect(events[1]).toMatchObject({ eventTitle: 'Gone gala', tenantId: t.A });
  const history = await t.sql<{ action: string; actor: string; data: Record<string, unknown> }>(
    `SELECT action, actor, data FROM "BookingHistory" WHERE "bookingId" = $1::uuid AND action = 'cancelled'`,
    [first.id],
  );
  expect(history).toEqual([
    expect.objectContaining({
      actor: 'system',
      data: expect.objectContaining({ reason: 'event-deleted' }),
    }),
  ]);
  // the bookers are told (cancellation mails queued for the two bookings)
  expect(await t.count('Mail', '"eventId" = $1::uuid', [eventId])).toBe(mailsBefore + 2);

  // another tenant's booking is untouched
  expect(
    (
      await t.sql<{ status: string }>(`SELECT status FROM "Booking" WHERE id = $1::uuid`, [
        theirs.id,
      ])
    )[0].status,
  ).toBe('confirmed');

  // the same fact again under a new event id: nothing more is cancelled or announced
  await t.publishApplied(Subjects.events.eventsDeleted, { tenantId: t.A, eventIds: [eventId] });
  expect(await cancelledOutbox(eventId)).toHaveLength(3);
  expect(await t.count('Mail', '"eventId" = $1::uuid', [eventId])).toBe(mailsBefore + 2);
  // a public booking for the deleted event is refused
  const late = await t.book(eventId, [{ ticketTypeId: standard }]);
  expect([404, 409]).toContain(late.status);
});

it('bookings racing the deletion end cancelled or refused, never confirmed; the counters match', async () => {
  const eventId = await t.event(t.A, { capacity: 100 });
  const tt = await t.ticketType(eventId, { quota: 80 });
  await t.booked(eventId, [{ ticketTypeId: tt }]);
  const racing = Array.from({ length: 30 }, () => t.book(eventId, [{ ticketTypeId: tt, n: 2 }]));
  const deletion = t.publishApplied(Subjects.events.eventsDeleted, {
    tenantId: t.A,
    eventIds: [eventId],
  });
  const answers = await Promise.all(racing);
  await deletion;
  // refused: the event is gone (404), its capacity row is closed (409) or its ticket type went (400)
  expect(
    answers.filter((a) => ![201, 400, 404, 409].includes(a.status)).map((a) => a.body),
  ).toEqual([]);
  expect(
    await t.count('Booking', '"eventId" = $1::uuid AND status = $2', [eventId, 'confirmed']),
  ).toBe(0);
  expect(
    await t.count('EventTicket', '"eventId" = $1::uuid AND status = $2', [eventId, 'valid']),
  ).toBe(0);
  const [copy] = await t.sql<{ sold: number }>(
    `SELECT sold FROM "EventCopy" WHERE "eventId" = $1::uuid`,
    [eventId],
  );
  expect(copy.sold).toBe(0);
  // one bookings.cancelled per booking that was made
  const made = await t.count('Booking', '"eventId" = $1::uuid', [eventId]);
  expect(await cancelledOutbox(eventId)).toHaveLength(made);
});
