import { until } from '@crm/testing';
import { BookingTestKit } from './test/booking-test-kit';

// Payment deadlines (the event's paymentDeadlineHours, BK21) with the real sweeper (every
// 500 ms): an open booking past its deadline is cancelled without a fee, its seats return to
// sale and the booker gets a mail; a reminder goes out once per deadline.

jest.setTimeout(120000);

let t: BookingTestKit;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_payment_deadlines', { replica: true });
}, 60000);
afterAll(async () => t?.close());

async function paymentTerms(
  eventId: string,
  deadlineHours: number | null,
  reminderHours: number | null,
) {
  await t.sql(
    `UPDATE "EventCopy" SET "paymentDeadlineHours" = $2, "paymentReminderHours" = $3 WHERE "eventId" = $1::uuid`,
    [eventId, deadlineHours, reminderHours],
  );
}

const mails = (bookingId: string, kind: string) =>
  t.count('Mail', `"bookingId" = $1::uuid AND kind = $2`, [bookingId, kind]);

it('a paid booking gets the event’s deadline, never after the event starts; a free one none', async () => {
  const eventId = await t.event();
  await paymentTerms(eventId, 48, null);
  const paid = await t.ticketType(eventId, {});
  const free = await t.ticketType(eventId, { name: 'Free', price: '0' });
  const before = Date.now();
  const b = await t.booked(eventId, [{ ticketTypeId: paid }]);
  const due = Date.parse(b.paymentDueAt) - before;
  expect(due).toBeGreaterThan(47.9 * 3600_000);
  expect(due).toBeLessThan(48.1 * 3600_000);
  expect((await t.booked(eventId, [{ ticketTypeId: free }])).paymentDueAt).toBeNull();

  const soon = await t.event(t.A, { startsAt: new Date(Date.now() + 3600_000).toISOString() });
  await paymentTerms(soon, 48, null);
  const type = await t.ticketType(soon, {});
  const capped = await t.booked(soon, [{ ticketTypeId: type }]);
  const [copy] = await t.sql<{ startsAt: Date }>(
    `SELECT "startsAt" FROM "EventCopy" WHERE "eventId" = $1::uuid`,
    [soon],
  );
  expect(Date.parse(capped.paymentDueAt)).toBe(copy.startsAt.getTime());
});

it('past its deadline an open booking is cancelled without a fee, its seats freed, the booker told', async () => {
  const eventId = await t.event();
  await paymentTerms(eventId, 48, null);
  const type = await t.ticketType(eventId, { quota: 1 });
  const b = await t.booked(eventId, [{ ticketTypeId: type }]);
  expect((await t.book(eventId, [{ ticketTypeId: type }])).status).toBe(409);
  const due = new Date(Date.now() + 1500).toISOString();
  const moved = await t.call('PUT', `/bookings/${b.id}/payment-deadline`, { paymentDueAt: due });
  expect(moved.status).toBe(200);
  expect(moved.body.data.paymentDueAt).toBe(due);
  const [row] = await until(
    'cancelled',
    () =>
      t.sql<{
        status: string;
        paymentStatus: string;
        cancellationFee: string;
        refundAmount: string;
      }>(
        `SELECT status, "paymentStatus", "cancellationFee"::text, "refundAmount"::text FROM "Booking" WHERE id = $1::uuid`,
        [b.id],
      ),
    (rows) => rows[0].status === 'cancelled',
  );
  expect(row).toEqual({
    status: 'cancelled',
    paymentStatus: 'cancelled',
    cancellationFee: '0.00',
    refundAmount: '0.00',
  });
  expect(await t.counters(eventId)).toEqual([{ id: type, sold: 0 }]);
  expect(await mails(b.id, 'payment-overdue')).toBe(1);
  expect(await mails(b.id, 'booking-cancellation')).toBe(0);
  const [event] = await t.sql<{ payload: { reason: string } }>(
    `SELECT payload FROM "OutboxEvent" WHERE subject = 'bookings-invitations.bookings.cancelled' AND payload->>'bookingId' = $1`,
    [b.id],
  );
  expect(event?.payload.reason ?? (await t.sql(`SELECT DISTINCT subject FROM "OutboxEvent"`))).toBe(
    'payment-overdue',
  );
  const history = await t.call('GET', `/bookings/events/${eventId}/history`);
  expect(JSON.stringify(history.body)).toContain('payment-overdue');
  // the seat is for sale again
  expect((await t.book(eventId, [{ ticketTypeId: type }])).status).toBe(201);
});

it('past its deadline, the fee of tickets cancelled before stays owed (fee_due), the mail says so', async () => {
  const eventId = await t.event(t.A, {
    startsAt: new Date(Date.now() + 10 * 86400_000).toISOString(),
    cancellationTiers: [{ daysBeforeStart: 7, feePercent: 50, feeFixed: '0' }],
  });
  await paymentTerms(eventId, 48, null);
  const type = await t.ticketType(eventId, { price: '49' });
  const b = await t.booked(eventId, [{ ticketTypeId: type, n: 2 }]);
  const partial = await t.call('POST', `/bookings/${b.id}/tickets/cancel`, {
    ticketIds: [b.tickets[0].id],
  });
  expect(partial.body.data).toMatchObject({ feeDue: '24.50', amountDue: '73.50' });
  await t.call('PUT', `/bookings/${b.id}/payment-deadline`, {
    paymentDueAt: new Date(Date.now() + 1500).toISOString(),
  });
  const [row] = await until(
    'cancelled',
    () =>
      t.sql<{ status: string; paymentStatus: string; fee: string; refund: string }>(
        `SELECT status, "paymentStatus", "cancellationFee"::text AS fee, "refundAmount"::text AS refund
           FROM "Booking" WHERE id = $1::uuid`,
        [b.id],
      ),
    (rows) => rows[0].status === 'cancelled',
  );
  // the deadline adds no fee; the one of the ticket the booker cancelled is still owed
  expect(row).toEqual({
    status: 'cancelled',
    paymentStatus: 'fee_due',
    fee: '24.50',
    refund: '0.00',
  });
  expect(await mails(b.id, 'payment-overdue')).toBe(0);
  const [mail] = await t.sql<{ text: string }>(
    `SELECT text FROM "Mail" WHERE "bookingId" = $1::uuid AND kind = 'booking-cancellation'`,
    [b.id],
  );
  expect(mail.text).toContain('Cancellation fee due: 24.50 EUR');
});

it('a booking paid before its deadline stays', async () => {
  const eventId = await t.event();
  await paymentTerms(eventId, 48, null);
  const type = await t.ticketType(eventId, {});
  const b = await t.booked(eventId, [{ ticketTypeId: type }]);
  await t.call('PUT', `/bookings/${b.id}/payment-deadline`, {
    paymentDueAt: new Date(Date.now() + 1000).toISOString(),
  });
  expect(
    (await t.call('PUT', `/bookings/${b.id}/payment-status`, { paymentStatus: 'paid' })).status,
  ).toBe(200);
  // a later booking's deadline passing proves the sweeper ran past this one's
  const probe = await t.booked(eventId, [{ ticketTypeId: type }]);
  await t.call('PUT', `/bookings/${probe.id}/payment-deadline`, {
    paymentDueAt: new Date(Date.now() + 1200).toISOString(),
  });
  await until(
    'probe cancelled',
    () => t.call('GET', `/bookings/${probe.id}`),
    (r) => r.body.data.status === 'cancelled',
  );
  const read = await t.call('GET', `/bookings/${b.id}`);
  expect(read.body.data).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
});

it('a reminder goes out once per deadline, the event’s reminder hours before it', async () => {
  const eventId = await t.event();
  await paymentTerms(eventId, 48, 1);
  const type = await t.ticketType(eventId, {});
  const b = await t.booked(eventId, [{ ticketTypeId: type }]);
  // 48 hours ahead: no reminder yet; 30 minutes ahead: within the hour, reminded once
  await t.call('PUT', `/bookings/${b.id}/payment-deadline`, {
    paymentDueAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  });
  await until(
    'reminded',
    () => mails(b.id, 'payment-reminder'),
    (n) => n === 1,
  );
  const [mail] = await t.sql<{ text: string; language: string }>(
    `SELECT text, language FROM "Mail" WHERE "bookingId" = $1::uuid AND kind = 'payment-reminder'`,
    [b.id],
  );
  expect(mail.text).toContain('119.00 EUR');
  // a moved deadline is reminded again when its time comes, not before
  await t.call('PUT', `/bookings/${b.id}/payment-deadline`, {
    paymentDueAt: new Date(Date.now() + 3 * 3600_000).toISOString(),
  });
  const probe = await t.booked(eventId, [{ ticketTypeId: type }]);
  await t.call('PUT', `/bookings/${probe.id}/payment-deadline`, {
    paymentDueAt: new Date(Date.now() + 20 * 60_000).toISOString(),
  });
  await until(
    'probe reminded',
    () => mails(probe.id, 'payment-reminder'),
    (n) => n === 1,
  );
  expect(await mails(b.id, 'payment-reminder')).toBe(1);
  const [row] = await t.sql<{ paymentRemindedAt: Date | null }>(
    `SELECT "paymentRemindedAt" FROM "Booking" WHERE id = $1::uuid`,
    [b.id],
  );
  expect(row.paymentRemindedAt).toBeNull();
});

it('BK21 refuses a past deadline, a paid or cancelled booking and another tenant’s booking', async () => {
  const eventId = await t.event();
  const type = await t.ticketType(eventId, {});
  const b = await t.booked(eventId, [{ ticketTypeId: type }]);
  const past = await t.call(
    'PUT',
    `/bookings/${b.id}/payment-deadline`,
    { paymentDueAt: '2020-01-01T00:00:00Z' },
    t.A,
    {
      'accept-language': 'de',
    },
  );
  expect(past.status).toBe(400);
  expect(past.body.errors).toEqual([
    expect.objectContaining({
      field: 'paymentDueAt',
      rule: 'notFuture',
      message: expect.stringContaining('Zukunft'),
    }),
  ]);
  const missing = await t.call('PUT', `/bookings/${b.id}/payment-deadline`, {});
  expect(missing.status).toBe(400);
  const foreign = await t.call(
    'PUT',
    `/bookings/${b.id}/payment-deadline`,
    { paymentDueAt: null },
    t.B,
  );
  expect(foreign.status).toBe(404);
  const removed = await t.call('PUT', `/bookings/${b.id}/payment-deadline`, { paymentDueAt: null });
  expect(removed.body.data.paymentDueAt).toBeNull();
  await t.call('PUT', `/bookings/${b.id}/payment-status`, { paymentStatus: 'paid' });
  const paid = await t.call('PUT', `/bookings/${b.id}/payment-deadline`, {
    paymentDueAt: new Date(Date.now() + 3600_000).toISOString(),
  });
  expect(paid.status).toBe(409);
  expect(paid.body.errors).toEqual([
    expect.objectContaining({ field: 'paymentDueAt', rule: 'notOpenForPayment' }),
  ]);
  const gql = await t.gql(
    `mutation($id: ID!, $input: SetPaymentDeadlineInput!) { setBookingPaymentDeadline(id: $id, input: $input) { paymentDueAt } }`,
    { id: b.id, input: { paymentDueAt: null } },
  );
  expect(gql.body.errors[0].extensions.statusCode).toBe(409);
});
