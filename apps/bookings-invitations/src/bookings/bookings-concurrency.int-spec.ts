import { randomUUID } from 'node:crypto';
import { metricValue, tenantHeaders, TestAnswer } from '@crm/testing';
import { BookingCreation } from './booking-creation.service';
import { BookingTestKit, TicketWish } from './test/booking-test-kit';

// Never oversell: many concurrent public bookings on two replicas of the service sharing one
// database (each with its own connection pool), over many HTTP connections. Also gap-free
// invoice numbers and one booking per Idempotency-Key under concurrency.

jest.setTimeout(180000);

let t: BookingTestKit;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_bookings_concurrency', { replica: true });
}, 60000);
afterAll(async () => t?.close());

/** Fires all bookings at once, alternating between the two replicas. */
function burst(
  eventId: string,
  wishes: TicketWish[][],
  tenant = t.A,
  extra: (i: number) => Record<string, string> = () => ({}),
): Promise<TestAnswer[]> {
  return Promise.all(
    wishes.map((w, i) =>
      (i % 2 ? t.replicaApi! : t.api).rest(
        'POST',
        '/bookings/public',
        t.body(eventId, w),
        tenantHeaders(tenant, extra(i)),
      ),
    ),
  );
}

const statuses = (answers: TestAnswer[]) =>
  answers.reduce<Record<number, number>>(
    (m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }),
    {},
  );

async function validTickets(eventId: string) {
  return t.sql<{ ticketTypeId: string; n: number }>(
    `SELECT "ticketTypeId"::text, count(*)::int AS n FROM "EventTicket"
      WHERE "eventId" = $1::uuid AND status = 'valid' GROUP BY 1 ORDER BY 1`,
    [eventId],
  );
}

async function eventSold(eventId: string) {
  const [row] = await t.sql<{ sold: number }>(
    `SELECT sold FROM "EventCopy" WHERE "eventId" = $1::uuid`,
    [eventId],
  );
  return row.sold;
}

it('500 concurrent bookings for 100 seats: exactly 100 succeed, 400 get 409, counters match the tickets', async () => {
  const eventId = await t.event();
  const type = await t.ticketType(eventId, { price: '0', quota: 100 });
  const answers = await burst(
    eventId,
    Array.from({ length: 500 }, () => [{ ticketTypeId: type }]),
  );
  expect(statuses(answers)).toEqual({ 201: 100, 409: 400 });
  for (const a of answers.filter((x) => x.status === 409)) {
    expect(a.body.errors).toEqual([
      expect.objectContaining({ field: 'tickets[0].ticketTypeId', rule: 'soldOut' }),
    ]);
  }
  expect(await t.counters(eventId)).toEqual([{ id: type, sold: 100 }]);
  expect(await validTickets(eventId)).toEqual([{ ticketTypeId: type, n: 100 }]);
  expect(await t.count('Booking', `"eventId" = $1::uuid`, [eventId])).toBe(100);
  expect(await eventSold(eventId)).toBe(100);
});

it('bookings of 1-4 tickets over several types, event capacity below the sum of quotas: never oversold', async () => {
  const eventId = await t.event(t.A, { capacity: 100 });
  const types: string[] = [];
  for (let i = 0; i < 4; i++)
    types.push(await t.ticketType(eventId, { name: `T${i}`, price: '0', quota: 40 }));
  // a fixed pseudo-random mix (reproducible): 1-4 tickets, spread over 1-2 types
  let seed = 42;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(seed / 65536) % n; // the high bits: an LCG's low bits cycle quickly
  };
  const wishes = Array.from({ length: 500 }, () => {
    const n = 1 + rnd(4);
    const a = types[rnd(4)];
    const b = types[rnd(4)];
    const first = 1 + rnd(n);
    return [
      { ticketTypeId: a, n: first },
      ...(n > first ? [{ ticketTypeId: b, n: n - first }] : []),
    ];
  });
  const answers = await burst(eventId, wishes);
  const st = statuses(answers);
  expect(Object.keys(st).sort()).toEqual(['201', '409']);
  for (const a of answers.filter((x) => x.status === 409)) {
    expect(['soldOut', 'capacityReached']).toContain(a.body.errors[0].rule);
  }
  const sold = await validTickets(eventId);
  const total = sold.reduce((s, r) => s + r.n, 0);
  // what the 201s sold is exactly what the tickets and the counters say
  const bookedTickets = answers
    .filter((a) => a.status === 201)
    .reduce((s, a) => s + a.body.data.tickets.length, 0);
  expect(total).toBe(bookedTickets);
  expect(total).toBeLessThanOrEqual(100);
  expect(total).toBeGreaterThanOrEqual(97); // 1-ticket bookings keep coming until the event is full
  expect(await eventSold(eventId)).toBe(total);
  const counters = await t.counters(eventId);
  for (const c of counters) {
    expect(c.sold).toBeLessThanOrEqual(40);
    expect(c.sold).toBe(sold.find((s) => s.ticketTypeId === c.id)?.n ?? 0);
  }
});

it('50 concurrent paid bookings get invoice numbers 1..50: no gap, no duplicate', async () => {
  const tenant = `tenant-inv-${randomUUID().slice(0, 8)}`;
  const eventId = await t.event(tenant);
  const type = await t.ticketType(eventId, { price: '10' }, tenant);
  const answers = await burst(
    eventId,
    Array.from({ length: 50 }, () => [{ ticketTypeId: type }]),
    tenant,
  );
  expect(statuses(answers)).toEqual({ 201: 50 });
  const numbers = answers.map((a) => a.body.data.invoiceNumber as string).sort();
  const year = numbers[0].slice(0, 4);
  expect(numbers).toEqual(
    Array.from({ length: 50 }, (_, i) => `${year}-${String(i + 1).padStart(6, '0')}`),
  );
  const [counter] = await t.sql<{ last: number }>(
    `SELECT last FROM "InvoiceCounter" WHERE "tenantId" = $1`,
    [tenant],
  );
  expect(counter.last).toBe(50);
});

it('20 concurrent creates with one Idempotency-Key make one booking and answer it 20 times', async () => {
  const eventId = await t.event();
  const type = await t.ticketType(eventId, { quota: 100 });
  const key = randomUUID();
  const answers = await burst(
    eventId,
    Array.from({ length: 20 }, () => [{ ticketTypeId: type }]),
    t.A,
    () => ({ 'Idempotency-Key': key }),
  );
  expect(statuses(answers)).toEqual({ 201: 20 });
  expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
  expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
  expect(await t.count('Booking', `"eventId" = $1::uuid`, [eventId])).toBe(1);
  expect(await t.counters(eventId)).toEqual([{ id: type, sold: 1 }]);
  const [inv] = await t.sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM "Booking" WHERE "tenantId" = $1 AND "invoiceNumber" IS NOT NULL AND "eventId" = $2::uuid`,
    [t.A, eventId],
  );
  expect(inv.n).toBe(1);
});

it('a cancellation frees the seats at once: sold out, cancel one, the next booking succeeds', async () => {
  const eventId = await t.event(t.A, { capacity: 3 });
  const type = await t.ticketType(eventId, { quota: 10 });
  const first = await t.booked(eventId, [{ ticketTypeId: type, n: 2 }]);
  await t.booked(eventId, [{ ticketTypeId: type }]);
  expect((await t.book(eventId, [{ ticketTypeId: type }])).status).toBe(409);
  expect((await t.call('POST', `/bookings/${first.id}/cancel`, {})).status).toBe(200);
  // two seats free: of three concurrent bookings on both replicas exactly two succeed
  const answers = await burst(eventId, [
    [{ ticketTypeId: type }],
    [{ ticketTypeId: type }],
    [{ ticketTypeId: type }],
  ]);
  expect(statuses(answers)).toEqual({ 201: 2, 409: 1 });
  expect(await eventSold(eventId)).toBe(3);
});

it('bookings arriving together are written in batches, each decided on its own', async () => {
  // 120 paid bookings at once at ONE replica (one writer for the event): a repeated
  // Idempotency-Key with another body, an invitation used twice and an unknown one are refused
  // with their own answers; every other booking of their batches is written, with gap-free
  // invoice numbers. (Sold-out refusals within batches: the 500-for-100 test above.)
  const tenant = `tenant-batch-${randomUUID().slice(0, 8)}`;
  const eventId = await t.event(tenant);
  const type = await t.ticketType(eventId, { price: '10', quota: 200 }, tenant);
  const invitation = { id: randomUUID(), token: randomUUID().replace(/-/g, '') };
  await t.sql(
    `INSERT INTO "Invitation" (id, "tenantId", "eventId", token, "personId", email, "emailKey",
       language, status, "createdBy", "modifiedBy")
     VALUES ($1, $2, $3, $4, $5, 'inv@example.org', $6, 'en', 'sent', 'test', 'test')`,
    [invitation.id, tenant, eventId, invitation.token, randomUUID(), `${invitation.id}@x.org`],
  );
  const key = randomUUID();
  const creation = t.svc.app.get(BookingCreation);
  const before = { ...creation.batchStats };
  const scrape = async () => ({
    batches: await metricValue(t.api.url, 'booking_sale_batches_total'),
    requests: await metricValue(t.api.url, 'booking_sale_batch_requests_total'),
    seconds: await metricValue(t.api.url, 'booking_sale_write_seconds_total'),
  });
  const scrapedBefore = await scrape();
  const answers = await Promise.all(
    Array.from({ length: 120 }, (_, i) => {
      const over: Record<string, unknown> = {};
      const headers: Record<string, string> = {};
      if (i === 3 || i === 4) over.invitationToken = invitation.token;
      if (i === 5) over.invitationToken = 'no-such-invitation';
      if (i === 6 || i === 7) headers['Idempotency-Key'] = key;
      if (i === 7) over.booker = { firstname: 'Eve', lastname: 'Other', email: 'eve@x.org' };
      return t.api.rest(
        'POST',
        '/bookings/public',
        t.body(eventId, [{ ticketTypeId: type }], over),
        tenantHeaders(tenant, headers),
      );
    }),
  );
  const after = creation.batchStats;
  // Fewer transactions than bookings: they were batched.
  expect(after.items - before.items).toBe(120);
  expect(after.batches - before.batches).toBeLessThan(120);
  // What an operator reads of the writer on /metrics: the same batches and requests, and time spent
  const scrapedAfter = await scrape();
  expect(scrapedAfter.requests - scrapedBefore.requests).toBe(120);
  expect(scrapedAfter.batches - scrapedBefore.batches).toBe(after.batches - before.batches);
  expect(scrapedAfter.seconds).toBeGreaterThan(scrapedBefore.seconds);

  // Which of two rivals comes first is up to the network: one wins, the other gets its own 409.
  const pair = (i: number, j: number) =>
    [answers[i], answers[j]].sort((a, b) => a.status - b.status);
  const [invited, secondInvited] = pair(3, 4);
  expect(invited.status).toBe(201);
  expect(secondInvited.status).toBe(409);
  expect(secondInvited.body.errors).toEqual([
    expect.objectContaining({ field: 'invitationToken', rule: 'invitationUsed' }),
  ]);
  expect(answers[5].status).toBe(400);
  const [keyed, otherBody] = pair(6, 7);
  expect(keyed.status).toBe(201);
  expect(otherBody.status).toBe(409);
  expect(otherBody.body.errors).toEqual([
    expect.objectContaining({ field: 'Idempotency-Key', rule: 'idempotencyConflict' }),
  ]);
  // 115 other bookings and the two winners: written; nobody else refused.
  expect(statuses(answers)).toEqual({ 201: 117, 400: 1, 409: 2 });
  const written = answers.filter((a) => a.status === 201);
  const numbers = written.map((a) => a.body.data.invoiceNumber as string).sort();
  const year = numbers[0].slice(0, 4);
  expect(numbers).toEqual(
    Array.from({ length: 117 }, (_, i) => `${year}-${String(i + 1).padStart(6, '0')}`),
  );
  expect(await t.counters(eventId)).toEqual([{ id: type, sold: 117 }]);
  expect(await validTickets(eventId)).toEqual([{ ticketTypeId: type, n: 117 }]);
  expect(await t.count('Booking', `"eventId" = $1::uuid`, [eventId])).toBe(117);
  const [events] = await t.sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM "OutboxEvent" WHERE "tenantId" = $1 AND subject = $2`,
    [tenant, 'bookings-invitations.bookings.created'],
  );
  expect(events.n).toBe(117);
  const [mails] = await t.sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM "Mail" WHERE "tenantId" = $1 AND kind = 'booking-confirmation'`,
    [tenant],
  );
  expect(mails.n).toBe(117);
});
