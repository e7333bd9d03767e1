import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { startSmtpServer, tenantHeaders, type TestSmtpServer } from '@crm/testing';
import { Money } from '../common/money';
import { InvoiceSenderStandIn } from '../invoices/test/invoice-test-kit';
import { FAST_MAIL_ENV } from '../mails/test/mail-test-kit';
import { BookingTestKit } from './test/booking-test-kit';

// Issue 20: an unpaid booking cancelled in a fee tier owes the fee (fee_due), and single tickets
// are cancelled by the organiser (BK22, REST and GraphQL) and by the booker (BK23, with the
// confirmation token), priced by the tiers frozen at booking time. The real service, database,
// NATS and a real SMTP server.

jest.setTimeout(120_000);

let t: BookingTestKit;
let smtp: TestSmtpServer;
let senders: InvoiceSenderStandIn;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await BookingTestKit.start('bookings_invitations_it_ticket_cancellation', {
    env: { SMTP_URL: smtp.url, ...FAST_MAIL_ENV },
  });
  // the confirmation mails carry the invoice: the events service's sender, stood in for
  senders = new InvoiceSenderStandIn(t.nc);
  await senders.start();
}, 120_000);
afterAll(async () => {
  await senders?.stop();
  await t?.close();
  await smtp?.stop();
});

const days = (n: number) => new Date(Date.now() + n * 86400_000).toISOString();
/** Until 30 days before: free; until 7 days: 50 % + 5.00; then 100 %. The event is in 10 days. */
const tiers = [
  { daysBeforeStart: 30, feePercent: 0, feeFixed: '0' },
  { daysBeforeStart: 7, feePercent: 50, feeFixed: '5.00' },
  { daysBeforeStart: 1, feePercent: 100, feeFixed: '0' },
];
/** BK7's rule of the middle tier on `gross`, in exact decimals. */
const tierFee = (gross: string) =>
  Money.min(
    new Money(gross).times(50).dividedBy(100).toDecimalPlaces(2, Money.ROUND_HALF_UP).plus('5.00'),
    gross,
  );
const cents = (v: Decimal.Value) => new Money(v).toFixed(2);
const unique = () => `b-${randomUUID().slice(0, 8)}@example.org`;

/** A booking of `wishes` by a fresh e-mail (its mails are found by it). */
async function booking(
  eventId: string,
  wishes: { ticketTypeId: string; n?: number }[],
  tenant = t.A,
  language = 'en',
) {
  const email = unique();
  const res = await t.book(
    eventId,
    wishes,
    { booker: { firstname: 'Ada', lastname: 'Lovelace', email } },
    tenant,
    { 'Accept-Language': language },
  );
  if (res.status !== 201) throw new Error(`booking: ${res.status} ${res.text}`);
  const b = res.body.data as {
    id: string;
    confirmationToken: string;
    tickets: { id: string; ticketTypeId: string }[];
  };
  return { ...b, email };
}

const paid = (id: string, tenant = t.A) =>
  t.call('PUT', `/bookings/${id}/payment-status`, { paymentStatus: 'paid' }, tenant);
const cancelTickets = (id: string, body: Record<string, unknown>, tenant = t.A, lang = 'en') =>
  t.call('POST', `/bookings/${id}/tickets/cancel`, body, tenant, { 'Accept-Language': lang });
const cancelPublic = (id: string, body: Record<string, unknown>, tenant = t.A, lang = 'en') =>
  t.api.rest(
    'POST',
    `/bookings/public/${id}/tickets/cancel`,
    body,
    tenantHeaders(tenant, { 'Accept-Language': lang }),
  );
const mailTo = (email: string, subject: string) =>
  smtp.waitFor((m) => m.to.includes(email) && (m.parsed.subject ?? '').includes(subject), 30_000);
const soldOfEvent = async (eventId: string) =>
  (
    await t.sql<{ sold: number }>(`SELECT sold FROM "EventCopy" WHERE "eventId" = $1::uuid`, [
      eventId,
    ])
  )[0].sold;
const outbox = (subject: string, bookingId: string) =>
  t.sql<{ payload: Record<string, unknown> }>(
    `SELECT payload FROM "OutboxEvent" WHERE subject = $1 AND payload->>'bookingId' = $2 ORDER BY "dateCreated"`,
    [subject, bookingId],
  );

describe('an unpaid booking cancelled in a fee tier owes the fee', () => {
  it('BK8: fee_due with the fee owed, no refund; the mail says the fee is due; BK12 fee_due -> paid', async () => {
    const eventId = await t.event(t.A, {
      startsAt: days(10),
      cancellationTiers: [{ daysBeforeStart: 7, feePercent: 50, feeFixed: '0' }],
    });
    const type = await t.ticketType(eventId, { price: '49' });
    const b = await booking(eventId, [{ ticketTypeId: type }], t.A, 'de');
    const res = await t.call('POST', `/bookings/${b.id}/cancel`, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'fee_due',
      cancellationFee: '24.50',
      refundAmount: '0.00',
      amountDue: '24.50',
    });
    const gql = await t.gql(`query($id: ID!) { booking(id: $id) { paymentStatus amountDue } }`, {
      id: b.id,
    });
    expect(gql.body.data.booking).toEqual({ paymentStatus: 'fee_due', amountDue: '24.50' });
    const [h] = await t.sql<{ data: Record<string, unknown> }>(
      `SELECT data FROM "BookingHistory" WHERE "bookingId" = $1::uuid AND action = 'cancelled'`,
      [b.id],
    );
    expect(h.data).toMatchObject({
      fee: '24.50',
      refund: '0.00',
      feeDue: '24.50',
      amountDue: '24.50',
      paymentStatus: { from: 'open', to: 'fee_due' },
    });
    const [ev] = await outbox(Subjects.bookingsInvitations.bookingCancelled, b.id);
    expect(ev.payload).toMatchObject({
      cancellationFee: '24.50',
      refundAmount: '0.00',
      amountDue: '24.50',
    });
    const mail = await mailTo(b.email, 'storniert');
    expect(mail.parsed.text).toContain('Fällige Stornogebühr: 24.50 EUR');
    expect(mail.parsed.text).not.toContain('Erstattung');

    // the fee is received: fee_due -> paid, nothing is owed any more; refunded is no move of it
    const wrong = await t.call('PUT', `/bookings/${b.id}/payment-status`, {
      paymentStatus: 'refunded',
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body.errors[0]).toMatchObject({
      field: 'paymentStatus',
      rule: 'paymentTransition',
    });
    const settled = await paid(b.id);
    expect(settled.body.data).toMatchObject({ paymentStatus: 'paid', amountDue: '0.00' });
  });

  it('without a fee an open booking stays cancelled and owes nothing (en mail)', async () => {
    const eventId = await t.event(t.A, { startsAt: days(40), cancellationTiers: tiers });
    const type = await t.ticketType(eventId, { price: '49' });
    const b = await booking(eventId, [{ ticketTypeId: type }]);
    const res = await t.call('POST', `/bookings/${b.id}/cancel`, {});
    expect(res.body.data).toMatchObject({
      paymentStatus: 'cancelled',
      cancellationFee: '0.00',
      refundAmount: '0.00',
      amountDue: '0.00',
    });
    const mail = await mailTo(b.email, 'cancelled');
    expect(mail.parsed.text).toContain('nothing is owed');
    expect(mail.parsed.text).not.toContain('Refund');
  });
});

describe('BK22 the organiser cancels single tickets', () => {
  it('a paid booking: quoted by BK7, priced by the tickets’ gross, partially_refunded, then refunded with the last (GraphQL)', async () => {
    const eventId = await t.event(t.A, {
      startsAt: days(10),
      cancellationTiers: tiers,
      capacity: 10,
    });
    const full = await t.ticketType(eventId, { price: '100', quota: 5 });
    const reduced = await t.ticketType(eventId, { price: '30.33', quota: 5 });
    const b = await booking(eventId, [
      { ticketTypeId: full, n: 2 },
      { ticketTypeId: reduced, n: 1 },
    ]);
    await paid(b.id);
    const [a1, a2] = b.tickets.filter((x) => x.ticketTypeId === full).map((x) => x.id);
    const [r1] = b.tickets.filter((x) => x.ticketTypeId === reduced).map((x) => x.id);
    const gross = new Money('100').plus('30.33');
    const fee = tierFee(gross.toFixed(2));
    const refund = gross.minus(fee);

    const quote = await t.call('GET', `/bookings/${b.id}/cancellation-rules?ticketIds=${a1},${r1}`);
    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({
      total: cents(gross),
      fee: cents(fee),
      refund: cents(refund),
      feeDue: '0.00',
      rule: 'tier',
    });
    expect(quote.body.data.ticketIds.sort()).toEqual([a1, r1].sort());

    const res = await cancelTickets(b.id, { ticketIds: [a1, r1.toUpperCase()], reason: 'Ill' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      bookingId: b.id,
      fee: cents(fee), // 65.17 + 5.00
      refund: cents(refund),
      feeDue: '0.00',
      amountDue: '0.00',
      paymentStatus: 'partially_refunded',
      bookingCancelled: false,
    });
    expect(res.body.data.ticketIds.sort()).toEqual([a1, r1].sort());
    expect(res.body.data.booking).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'partially_refunded',
      cancellationFee: cents(fee),
      refundAmount: cents(refund),
    });
    const statuses = Object.fromEntries(
      res.body.data.booking.tickets.map((x: { id: string; status: string }) => [x.id, x.status]),
    );
    expect(statuses).toEqual({ [a1]: 'cancelled', [a2]: 'valid', [r1]: 'cancelled' });
    // the seats are free at once
    expect(await t.counters(eventId)).toEqual(
      expect.arrayContaining([
        { id: full, sold: 1 },
        { id: reduced, sold: 0 },
      ]),
    );
    expect(await soldOfEvent(eventId)).toBe(1);
    const [h] = await t.sql<{ data: Record<string, unknown>; actor: string }>(
      `SELECT data, actor FROM "BookingHistory" WHERE "bookingId" = $1::uuid AND action = 'tickets-cancelled'`,
      [b.id],
    );
    expect(h.data).toMatchObject({
      reason: 'organiser',
      note: 'Ill',
      fee: cents(fee),
      refund: cents(refund),
      tickets: 2,
      paymentStatus: { from: 'paid', to: 'partially_refunded' },
    });
    const [partial] = await outbox(Subjects.bookingsInvitations.ticketsCancelled, b.id);
    expect(partial.payload).toMatchObject({
      cancellationFee: cents(fee),
      refundAmount: cents(refund),
      paymentStatus: 'partially_refunded',
      reason: 'organiser',
    });
    expect(await outbox(Subjects.bookingsInvitations.bookingCancelled, b.id)).toEqual([]);
    const mail = await mailTo(b.email, 'Tickets of your booking');
    expect(mail.parsed.text).toContain('2 tickets of your booking');
    expect(mail.parsed.text).toContain(`Refund: ${cents(refund)} EUR`);
    expect(mail.parsed.text).toContain('30.33 EUR');

    // the last valid ticket, over GraphQL: the booking is cancelled and refunded
    const last = await t.gql(
      `mutation($id: ID!, $input: CancelBookingTicketsInput!) {
         cancelBookingTickets(id: $id, input: $input) {
           fee refund paymentStatus bookingCancelled booking { status refundAmount cancellationFee }
         } }`,
      { id: b.id, input: { ticketIds: [a2] } },
    );
    expect(last.body.errors).toBeUndefined();
    const lastFee = tierFee('100.00');
    expect(last.body.data.cancelBookingTickets).toEqual({
      fee: cents(lastFee),
      refund: cents(new Money(100).minus(lastFee)),
      paymentStatus: 'refunded',
      bookingCancelled: true,
      booking: {
        status: 'cancelled',
        refundAmount: cents(refund.plus(100).minus(lastFee)),
        cancellationFee: cents(fee.plus(lastFee)),
      },
    });
    expect(await outbox(Subjects.bookingsInvitations.bookingCancelled, b.id)).toHaveLength(1);
    expect(await t.counters(eventId)).toEqual(
      expect.arrayContaining([
        { id: full, sold: 0 },
        { id: reduced, sold: 0 },
      ]),
    );
    await mailTo(b.email, 'Your booking has been cancelled');
  });

  it('an open booking stays open with a lower amount due; the last ticket makes it fee_due (booker, de mail)', async () => {
    const eventId = await t.event(t.A, { startsAt: days(10), cancellationTiers: tiers });
    const type = await t.ticketType(eventId, { price: '49' });
    const b = await booking(eventId, [{ ticketTypeId: type, n: 2 }], t.A, 'de');
    const [x, y] = b.tickets.map((k) => k.id);
    const feeOne = tierFee('49.00'); // 24.50 + 5.00
    const first = await cancelTickets(b.id, { ticketIds: [x] });
    expect(first.body.data).toMatchObject({
      fee: cents(feeOne),
      refund: '0.00',
      feeDue: cents(feeOne),
      amountDue: cents(feeOne.plus(49)),
      paymentStatus: 'open',
    });
    const mail = await mailTo(b.email, 'Tickets Ihrer Buchung');
    expect(mail.parsed.text).toContain('1 Ticket Ihrer Buchung');
    expect(mail.parsed.text).toContain(`Noch offener Betrag: ${cents(feeOne.plus(49))} EUR`);
    expect(mail.parsed.text).not.toContain('Erstattung');

    const confirmation = await t.api.rest(
      'GET',
      `/bookings/public/${b.id}/confirmation?token=${b.confirmationToken}`,
      undefined,
      tenantHeaders(t.A),
    );
    expect(confirmation.body.data.amountDue).toBe(cents(feeOne.plus(49)));
    expect(confirmation.body.data.tickets.map((k: { id: string }) => k.id).sort()).toEqual(
      [x, y].sort(),
    );

    const last = await cancelPublic(b.id, { token: b.confirmationToken, ticketIds: [y] });
    expect(last.status).toBe(200);
    expect(last.body.data).toMatchObject({
      paymentStatus: 'fee_due',
      bookingCancelled: true,
      amountDue: cents(feeOne.times(2)),
      booking: {
        status: 'cancelled',
        refundAmount: '0.00',
        cancellationFee: cents(feeOne.times(2)),
      },
    });
    expect(last.body.data.booking.bookerInformation).toBeUndefined();
    const [h] = await t.sql<{ actor: string; reason: string }>(
      `SELECT actor, data->>'reason' AS reason FROM "BookingHistory" WHERE "bookingId" = $1::uuid AND action = 'cancelled'`,
      [b.id],
    );
    expect(h).toEqual({ actor: 'public', reason: 'booker' });
    const whole = await mailTo(b.email, 'Ihre Buchung wurde storniert');
    expect(whole.parsed.text).toContain(`Fällige Stornogebühr: ${cents(feeOne.times(2))} EUR`);
  });
});

describe('the tiers are those agreed at booking', () => {
  it('BK22 prices single tickets by the tiers frozen at booking, not the event’s tiers changed since (BK7 quotes the same)', async () => {
    const eventId = await t.event(t.A, { startsAt: days(10), cancellationTiers: tiers });
    const type = await t.ticketType(eventId, { price: '80' });
    const b = await booking(eventId, [{ ticketTypeId: type, n: 3 }]);
    expect((await paid(b.id)).status).toBe(200);
    // the organiser makes cancellation free afterwards, then charges 100 %: neither applies
    for (const changed of ['[]', '[{"daysBeforeStart": 30, "feePercent": 100, "feeFixed": "0"}]']) {
      await t.sql(
        `UPDATE "EventCopy" SET "cancellationTiers" = $2::jsonb WHERE "eventId" = $1::uuid`,
        [eventId, changed],
      );
      const quote = await t.call('GET', `/bookings/${b.id}/cancellation-rules`);
      expect(quote.body.data).toMatchObject({ fee: cents(tierFee('240.00')) }); // feeFixed once
    }
    const [x] = b.tickets.map((k) => k.id);
    const one = await cancelTickets(b.id, { ticketIds: [x] });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({
      fee: cents(tierFee('80.00')), // 40.00 + 5.00 of the middle tier agreed at booking
      refund: cents(new Money('80.00').minus(tierFee('80.00'))),
      paymentStatus: 'partially_refunded',
    });
  });
});

describe('BK23 and BK7 over GraphQL', () => {
  it('quotes chosen tickets and cancels them with the token; a wrong token is NOT_FOUND', async () => {
    const eventId = await t.event(t.A, { startsAt: days(10), cancellationTiers: tiers });
    const type = await t.ticketType(eventId, { price: '19.99' });
    const b = await booking(eventId, [{ ticketTypeId: type, n: 3 }]);
    const [x] = b.tickets.map((k) => k.id);
    const quote = await t.gql(
      `query($id: ID!, $t: [ID!]) { bookingCancellationRules(id: $id, ticketIds: $t) {
         total fee refund feeDue amountDue ticketIds } }`,
      { id: b.id, t: [x] },
    );
    const fee = tierFee('19.99'); // 9.995 -> 10.00, + 5.00
    expect(quote.body.data.bookingCancellationRules).toEqual({
      total: '19.99',
      fee: cents(fee),
      refund: '0.00',
      feeDue: cents(fee),
      amountDue: cents(fee.plus('39.98')),
      ticketIds: [x],
    });
    const op = `mutation($id: ID!, $token: String!, $t: [ID!]!) {
      cancelBookingTicketsWithToken(id: $id, token: $token, ticketIds: $t) {
        fee feeDue amountDue paymentStatus booking { tickets { id status } } } }`;
    const wrong = await t.gql(op, { id: b.id, token: 'nope', t: [x] });
    expect(wrong.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const foreign = await t.gql(op, { id: b.id, token: b.confirmationToken, t: [x] }, t.B);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const done = await t.gql(op, { id: b.id, token: b.confirmationToken, t: [x] });
    expect(done.body.errors).toBeUndefined();
    expect(done.body.data.cancelBookingTicketsWithToken).toMatchObject({
      fee: cents(fee),
      feeDue: cents(fee),
      amountDue: cents(fee.plus('39.98')),
      paymentStatus: 'open',
    });
    expect(
      done.body.data.cancelBookingTicketsWithToken.booking.tickets.filter(
        (k: { status: string }) => k.status === 'cancelled',
      ),
    ).toEqual([{ id: x, status: 'cancelled' }]);
  });
});

describe('BK22, BK23 refuse what cannot be cancelled', () => {
  it('names the field: foreign, cancelled, checked-in tickets, a minimum per booking, a wrong token, another tenant', async () => {
    const eventId = await t.event(t.A, { startsAt: days(40), cancellationTiers: tiers });
    const type = await t.ticketType(eventId, { price: '10', minPerBooking: 2 });
    const b = await booking(eventId, [{ ticketTypeId: type, n: 4 }]);
    const other = await booking(eventId, [{ ticketTypeId: type, n: 2 }]);
    const [k1, k2, k3, k4] = b.tickets.map((x) => x.id);

    const malformed = await cancelTickets(b.id, { ticketIds: ['nope'] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].field).toBe('ticketIds');
    expect((await cancelTickets(b.id, { ticketIds: [] })).status).toBe(400);

    const foreign = await cancelTickets(b.id, { ticketIds: [k1, other.tickets[0].id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toEqual([
      expect.objectContaining({ field: 'ticketIds[1]', rule: 'unknownTicket' }),
    ]);

    // 4 -> 1 would leave fewer than the minimum of 2
    const below = await cancelTickets(b.id, { ticketIds: [k1, k2, k3] }, t.A, 'de');
    expect(below.status).toBe(409);
    expect(below.body.errors).toEqual([
      expect.objectContaining({ field: 'ticketIds', rule: 'belowMinPerBooking' }),
    ]);
    expect(below.body.errors[0].message).toContain('mindestens 2');
    expect((await cancelTickets(b.id, { ticketIds: [k1, k2] })).status).toBe(200);

    const again = await cancelTickets(b.id, { ticketIds: [k3, k1] });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      expect.objectContaining({ field: 'ticketIds[1]', rule: 'ticketCancelled' }),
    ]);

    await t.sql(
      `INSERT INTO "CheckIn" (id, "tenantId", "eventId", "ticketId", actor)
       VALUES ($1::uuid, $2, $3::uuid, $4::uuid, 'test')`,
      [randomUUID(), t.A, eventId, other.tickets[1].id],
    );
    const checkedIn = await cancelPublic(other.id, {
      token: other.confirmationToken,
      ticketIds: [other.tickets[1].id],
    });
    expect(checkedIn.status).toBe(409);
    expect(checkedIn.body.errors).toEqual([
      expect.objectContaining({ field: 'ticketIds[0]', rule: 'ticketCheckedIn' }),
    ]);

    const wrongToken = await cancelPublic(b.id, { token: 'x'.repeat(22), ticketIds: [k3] });
    expect(wrongToken.status).toBe(404);
    const otherBookingsToken = await cancelPublic(b.id, {
      token: other.confirmationToken,
      ticketIds: [k3],
    });
    expect(otherBookingsToken.status).toBe(404);
    expect((await cancelPublic(b.id, { ticketIds: [k3] })).status).toBe(400);

    // another tenant sees nothing and changes nothing
    expect((await cancelTickets(b.id, { ticketIds: [k3] }, t.B)).status).toBe(404);
    expect(
      (await cancelPublic(b.id, { token: b.confirmationToken, ticketIds: [k3] }, t.B)).status,
    ).toBe(404);
    const eventB = await t.event(t.B, { startsAt: days(40) });
    const typeB = await t.ticketType(eventB, { price: '10' }, t.B);
    const theirs = await booking(eventB, [{ ticketTypeId: typeB, n: 2 }], t.B);
    const mixed = await cancelTickets(theirs.id, { ticketIds: [theirs.tickets[0].id] });
    expect(mixed.status).toBe(404);
    const crossTicket = await cancelTickets(
      theirs.id,
      { ticketIds: [theirs.tickets[0].id, k3] },
      t.B,
    );
    expect(crossTicket.status).toBe(404);
    expect(crossTicket.body.errors).toEqual([
      expect.objectContaining({ field: 'ticketIds[1]', rule: 'unknownTicket' }),
    ]);
    const states = await t.sql<{ status: string }>(
      `SELECT status FROM "EventTicket" WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [[k3, k4, ...theirs.tickets.map((x) => x.id)]],
    );
    expect(states.map((s) => s.status)).toEqual(['valid', 'valid', 'valid', 'valid']);
    // the quote of a cancelled ticket is refused as the cancellation is
    const quote = await t.call('GET', `/bookings/${b.id}/cancellation-rules?ticketIds=${k1}`);
    expect(quote.status).toBe(409);
    expect(quote.body.errors[0]).toMatchObject({ field: 'ticketIds[0]', rule: 'ticketCancelled' });
  });
});

describe('concurrent cancellations', () => {
  it('20 concurrent cancels of the same ticket: one succeeds, the seat is freed once', async () => {
    const eventId = await t.event(t.A, { startsAt: days(40), capacity: 5 });
    const type = await t.ticketType(eventId, { price: '20', quota: 5 });
    const b = await booking(eventId, [{ ticketTypeId: type, n: 3 }]);
    const target = b.tickets[0].id;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? cancelTickets(b.id, { ticketIds: [target] })
          : cancelPublic(b.id, { token: b.confirmationToken, ticketIds: [target] }),
      ),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    expect(await t.counters(eventId)).toEqual([{ id: type, sold: 2 }]);
    expect(await soldOfEvent(eventId)).toBe(2);
    expect(
      await t.count('BookingHistory', `"bookingId" = $1::uuid AND action = 'tickets-cancelled'`, [
        b.id,
      ]),
    ).toBe(1);
    expect(await outbox(Subjects.bookingsInvitations.ticketsCancelled, b.id)).toHaveLength(1);
  });

  it('concurrent cancels of different tickets of one paid booking add up; the last cancels it once', async () => {
    const eventId = await t.event(t.A, {
      startsAt: days(10),
      cancellationTiers: tiers,
      capacity: 10,
    });
    const type = await t.ticketType(eventId, { price: '33.33', quota: 10 });
    const b = await booking(eventId, [{ ticketTypeId: type, n: 6 }]);
    await paid(b.id);
    const answers = await Promise.all(
      b.tickets.map((k, i) =>
        i % 2
          ? cancelTickets(b.id, { ticketIds: [k.id] })
          : cancelPublic(b.id, { token: b.confirmationToken, ticketIds: [k.id] }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const each = tierFee('33.33');
    const sum = (k: 'fee' | 'refund') =>
      cents(answers.reduce((s, a) => s.plus(a.body.data[k]), new Money(0)));
    expect(sum('fee')).toBe(cents(each.times(6)));
    expect(sum('refund')).toBe(cents(new Money('33.33').minus(each).times(6)));
    expect(answers.filter((a) => a.body.data.bookingCancelled)).toHaveLength(1);
    const read = await t.call('GET', `/bookings/${b.id}`);
    expect(read.body.data).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'refunded',
      cancellationFee: sum('fee'),
      refundAmount: sum('refund'),
      amountDue: '0.00',
    });
    expect(await t.counters(eventId)).toEqual([{ id: type, sold: 0 }]);
    expect(await soldOfEvent(eventId)).toBe(0);
    expect(await outbox(Subjects.bookingsInvitations.ticketsCancelled, b.id)).toHaveLength(5);
    expect(await outbox(Subjects.bookingsInvitations.bookingCancelled, b.id)).toHaveLength(1);
  });
});
