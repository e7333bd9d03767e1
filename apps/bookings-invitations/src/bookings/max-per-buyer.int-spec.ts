import { randomUUID } from 'node:crypto';
import { tenantHeaders, TestAnswer } from '@crm/testing';
import { BookingTestKit } from './test/booking-test-kit';

// The event's maxTicketsPerBuyer (against scalpers): at most that many tickets per booker e-mail
// (in any case) over all of its bookings of the event, counted under a lock per buyer, also when
// the e-mail's bookings arrive at once at two replicas.

jest.setTimeout(180_000);

let t: BookingTestKit;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_max_per_buyer', { replica: true });
}, 120_000);
afterAll(async () => t?.close());

const booker = (email: string) => ({ firstname: 'Sam', lastname: 'Scalper', email });
const statuses = (answers: TestAnswer[]) =>
  answers.reduce<Record<number, number>>(
    (m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }),
    {},
  );

async function limitedEvent(max: number | null) {
  const tenant = `tenant-buyer-${randomUUID().slice(0, 8)}`;
  const eventId = await t.event(tenant, { maxTicketsPerBuyer: max });
  const type = await t.ticketType(eventId, { price: '10', quota: 1000 }, tenant);
  return { tenant, eventId, type };
}

const book = (
  e: { tenant: string; eventId: string; type: string },
  email: string,
  tickets: number,
  replica = false,
  lang = 'en',
) =>
  (replica ? t.replicaApi! : t.api).rest(
    'POST',
    '/bookings/public',
    t.body(e.eventId, [{ ticketTypeId: e.type, n: tickets }], { booker: booker(email) }),
    tenantHeaders(e.tenant, { 'Accept-Language': lang }),
  );

it('20 bookings of 2 tickets by one e-mail at once on two replicas, limit 5: exactly 2 written, the rest refused naming booker.email', async () => {
  const e = await limitedEvent(5);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      // the same address in other cases is the same buyer
      book(e, i % 3 ? 'sam@example.org' : 'SAM@Example.org', 2, i % 2 === 1),
    ),
  );
  expect(statuses(answers)).toEqual({ 201: 2, 409: 18 });
  const refused = answers.find((a) => a.status === 409)!;
  expect(refused.body.errors).toEqual([
    expect.objectContaining({ field: 'booker.email', rule: 'maxTicketsPerBuyer' }),
  ]);
  // one ticket still fits (4 + 1 = 5), a second does not; another buyer is not limited by Sam
  expect((await book(e, 'sam@example.org', 1)).status).toBe(201);
  const over = await book(e, 'Sam@example.org', 1, false, 'de');
  expect(over.status).toBe(409);
  expect(over.body.errors[0].message).toContain('höchstens 5 Tickets');
  expect((await book(e, 'other@example.org', 5)).status).toBe(201);
  const [row] = await t.sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM "EventTicket" WHERE "eventId" = $1::uuid AND status = 'valid'`,
    [e.eventId],
  );
  expect(row.n).toBe(10);
});

it('a booking over the limit on its own is refused; cancelled tickets no longer count', async () => {
  const e = await limitedEvent(3);
  const tooMany = await book(e, 'ann@example.org', 4);
  expect(tooMany.status).toBe(409);
  expect(tooMany.body.errors).toEqual([
    expect.objectContaining({ field: 'booker.email', rule: 'maxTicketsPerBuyer' }),
  ]);
  const first = await book(e, 'ann@example.org', 3);
  expect(first.status).toBe(201);
  expect((await book(e, 'ann@example.org', 1)).status).toBe(409);
  const cancelled = await t.call(
    'POST',
    `/bookings/${first.body.data.id}/cancel`,
    { waiveFee: true },
    e.tenant,
  );
  expect(cancelled.status).toBe(200);
  expect((await book(e, 'ann@example.org', 3)).status).toBe(201);
});

it('an event without a limit takes any number per buyer', async () => {
  const e = await limitedEvent(null);
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => book(e, 'fan@example.org', 3)),
  );
  expect(statuses(answers)).toEqual({ 201: 10 });
});
