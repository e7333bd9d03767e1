import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Subjects } from '@crm/messaging';
import { asTenant } from '@crm/request-context';
import { PrismaService } from '../database/prisma.service';
import { BookingCancellation } from './booking-cancellation';
import { SYSTEM_ACTOR } from './booking-history';
import { BookingTestKit } from './test/booking-test-kit';

// BK3-BK9, BK12-BK15 against the real service, database and NATS (crm-people stood in for).

jest.setTimeout(60000);

let t: BookingTestKit;
beforeAll(async () => {
  // no sale sweeps (holds, payment deadlines): their "Booking" statements would count in the N+1 test
  t = await BookingTestKit.start('bookings_invitations_it_bookings_organiser', {
    env: { SALE_SWEEP_INTERVAL_MS: '0' },
  });
}, 60000);
afterAll(async () => t?.close());

const days = (n: number) => new Date(Date.now() + n * 86400_000).toISOString();

describe('BK3 list, BK4 read', () => {
  it('lists with filters, search, sort and paging; reads one with its tickets', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const a = await t.booked(eventId, [{ ticketTypeId: type }], {
      booker: { firstname: 'Grace', lastname: 'Hopper', email: 'grace@navy.example' },
    });
    const b = await t.booked(eventId, [{ ticketTypeId: type, n: 2 }]);
    const other = await t.event();
    const otherType = await t.ticketType(other);
    await t.booked(other, [{ ticketTypeId: otherType }]);
    const page = await t.call('GET', `/bookings?eventId=${eventId}&sort=-totalGross&pageSize=1`);
    expect(page.status).toBe(200);
    expect(page.body.metaData.totalResults).toBe(2);
    expect(page.body.data.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect(page.body.data[0].tickets).toHaveLength(2);
    expect(page.body.data[0].confirmationToken).toBeUndefined();
    const found = await t.call('GET', `/bookings?q=NAVY`);
    expect(found.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    await t.call('PUT', `/bookings/${a.id}/payment-status`, { paymentStatus: 'paid' });
    const paid = await t.call(
      'GET',
      `/bookings?eventId=${eventId}&paymentStatus=paid&status=confirmed`,
    );
    expect(paid.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const theirs = await t.call('GET', `/bookings?eventId=${eventId}`, undefined, t.B);
    expect(theirs.body.metaData.totalResults).toBe(0);

    const read = await t.call('GET', `/bookings/${b.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: b.id, bookerInformation: null, tickets: b.tickets });
    expect((await t.call('GET', `/bookings/${b.id}`, undefined, t.B)).status).toBe(404);
    expect((await t.call('GET', `/bookings/nope`)).status).toBe(404);
  });
});

describe('BK3 without N+1', () => {
  it('lists 2 or 12 bookings with their tickets in the same two statements', async () => {
    const statementsFor = async (n: number) => {
      const eventId = await t.event();
      const type = await t.ticketType(eventId, { price: '0' });
      for (let i = 0; i < n; i++) await t.booked(eventId, [{ ticketTypeId: type, n: 2 }]);
      const spy = jest.spyOn(pg.Client.prototype, 'query');
      try {
        const res = await t.call('GET', `/bookings?eventId=${eventId}`);
        expect(res.body.data).toHaveLength(n);
        expect(res.body.data.every((b: { tickets: unknown[] }) => b.tickets.length === 2)).toBe(
          true,
        );
        return spy.mock.calls
          .map(([q]) => (typeof q === 'string' ? q : String((q as { text?: string })?.text)))
          .filter((q) => /"(Booking|EventTicket)"/.test(q)).length; // the outbox relay polls meanwhile
      } finally {
        spy.mockRestore();
      }
    };
    expect(await statementsFor(2)).toBe(2);
    expect(await statementsFor(12)).toBe(2);
  });
});

describe('BK5, BK6 delete', () => {
  it('deletes free bookings and frees their seats; history stays; invoiced ones are a 409', async () => {
    const eventId = await t.event(t.A, { capacity: 10 });
    const free = await t.ticketType(eventId, { price: '0', quota: 5 });
    const paid = await t.ticketType(eventId, { quota: 5 });
    const one = await t.booked(eventId, [{ ticketTypeId: free, n: 2 }]);
    const invoiced = await t.booked(eventId, [{ ticketTypeId: paid }]);
    expect((await t.call('DELETE', `/bookings/${one.id}`, undefined, t.B)).status).toBe(404);
    const del = await t.call('DELETE', `/bookings/${one.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ ids: [one.id] });
    expect(await t.counters(eventId)).toEqual(expect.arrayContaining([{ id: free, sold: 0 }]));
    expect(await t.count('EventTicket', `"bookingId" = $1::uuid`, [one.id])).toBe(0);
    expect(
      await t.sql(`SELECT action FROM "BookingHistory" WHERE "bookingId" = $1::uuid ORDER BY at`, [
        one.id,
      ]),
    ).toEqual([{ action: 'created' }, { action: 'deleted' }]);
    expect((await t.call('DELETE', `/bookings/${one.id}`)).status).toBe(404);
    const refused = await t.call('DELETE', `/bookings/${invoiced.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(invoiced.invoiceNumber);
    // every 409 names its field and rule, like a 400
    expect(refused.body.errors).toEqual([
      {
        field: 'invoiceNumber',
        rule: 'hasInvoice',
        message: 'invoiceNumber: the booking has an invoice number and cannot be deleted',
      },
    ]);

    const x = await t.booked(eventId, [{ ticketTypeId: free }]);
    const y = await t.booked(eventId, [{ ticketTypeId: free }]);
    const bad = await t.call('DELETE', '/bookings/batch', {
      ids: [x.id, randomUUID(), 'nope', y.id],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['ids[1]', 'ids[2]']);
    const mixed = await t.call('DELETE', '/bookings/batch', { ids: [x.id, invoiced.id] });
    expect(mixed.status).toBe(409);
    expect(mixed.body.errors[0]).toMatchObject({ field: 'ids[1]', rule: 'hasInvoice' });
    expect(await t.count('Booking', `id = ANY($1::uuid[])`, [[x.id, y.id]])).toBe(2);
    const foreign = await t.call('DELETE', '/bookings/batch', { ids: [x.id] }, t.B);
    expect(foreign.status).toBe(400);
    const ok = await t.call('DELETE', '/bookings/batch', { ids: [x.id, y.id] });
    expect(ok.status).toBe(200);
    expect(ok.body.data.ids.sort()).toEqual([x.id, y.id].sort());
    const [copy] = await t.sql<{ sold: number }>(
      `SELECT sold FROM "EventCopy" WHERE "eventId" = $1::uuid`,
      [eventId],
    );
    expect(copy.sold).toBe(1);
  });
});

describe('BK7 cancellation rules, BK8 cancel', () => {
  const tiers = [
    { daysBeforeStart: 30, feePercent: 0, feeFixed: '0' },
    { daysBeforeStart: 7, feePercent: 50, feeFixed: '5.00' },
    { daysBeforeStart: 1, feePercent: 100, feeFixed: '0' },
  ];

  it('answers the tier that applies now, its deadline and the next one', async () => {
    const eventId = await t.event(t.A, { startsAt: days(10), cancellationTiers: tiers });
    const type = await t.ticketType(eventId, { price: '100' });
    const b = await t.booked(eventId, [{ ticketTypeId: type }]);
    // the event's tiers change later: the booking keeps what the booker agreed to
    await t.sql(`UPDATE "EventCopy" SET "cancellationTiers" = '[]' WHERE "eventId" = $1::uuid`, [
      eventId,
    ]);
    const res = await t.call('GET', `/bookings/${b.id}/cancellation-rules`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      bookingId: b.id,
      total: '100.00',
      fee: '55.00',
      // issue 20: nothing was paid, so nothing is refunded; the fee would be owed
      refund: '0.00',
      feeDue: '55.00',
      amountDue: '55.00',
      ticketIds: [b.tickets[0].id],
      currency: 'EUR',
      rule: 'tier',
      // feePercent is a number, as the tier was given (feeFixed a decimal string, as given)
      currentTier: { daysBeforeStart: 7, feePercent: 50, feeFixed: '5.00' },
      nextTier: { daysBeforeStart: 1, feePercent: 100 },
    });
    expect(res.body.data.deadline).toBe(res.body.data.currentTier.deadline);
    // once paid, the same tier refunds what was paid minus the fee
    await t.call('PUT', `/bookings/${b.id}/payment-status`, { paymentStatus: 'paid' });
    const paid = await t.call('GET', `/bookings/${b.id}/cancellation-rules`);
    expect(paid.body.data).toMatchObject({ fee: '55.00', refund: '45.00', feeDue: '0.00' });
    const gql = await t.gql(
      `query($id: ID!) { bookingCancellationRules(id: $id) {
         currentTier { feePercent feeFixed } nextTier { feePercent } } }`,
      { id: b.id },
    );
    expect(gql.body.data.bookingCancellationRules).toEqual({
      currentTier: { feePercent: 50, feeFixed: '5.00' },
      nextTier: { feePercent: 100 },
    });
    expect(
      (await t.call('GET', `/bookings/${b.id}/cancellation-rules`, undefined, t.B)).status,
    ).toBe(404);
  });

  it('cancels: fee applied, all tickets cancelled, seats free, history, outbox, mail; twice is a 409', async () => {
    const eventId = await t.event(t.A, {
      startsAt: days(10),
      cancellationTiers: tiers,
      capacity: 2,
    });
    const type = await t.ticketType(eventId, { price: '100', quota: 2 });
    const b = await t.booked(eventId, [{ ticketTypeId: type, n: 2 }]);
    expect((await t.book(eventId, [{ ticketTypeId: type }])).status).toBe(409);
    expect((await t.call('POST', `/bookings/${b.id}/cancel`, {}, t.B)).status).toBe(404);
    const res = await t.call('POST', `/bookings/${b.id}/cancel`, { reason: 'Ill' });
    expect(res.status).toBe(200);
    // issue 20: an unpaid booking cancelled in a fee tier owes the fee (no refund, fee_due)
    expect(res.body.data).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'fee_due',
      cancellationFee: '105.00',
      refundAmount: '0.00',
      amountDue: '105.00',
      cancelledAt: expect.any(String),
    });
    expect(res.body.data.tickets.map((x: { status: string }) => x.status)).toEqual([
      'cancelled',
      'cancelled',
    ]);
    expect(await t.counters(eventId)).toEqual([{ id: type, sold: 0 }]);
    expect(
      await t.sql(
        `SELECT count(*)::int AS n FROM "EventTicket" WHERE "bookingId" = $1::uuid AND "revokedAt" IS NOT NULL`,
        [b.id],
      ),
    ).toEqual([{ n: 2 }]);
    const [h] = await t.sql<{ data: Record<string, unknown> }>(
      `SELECT data FROM "BookingHistory" WHERE "bookingId" = $1::uuid AND action = 'cancelled'`,
      [b.id],
    );
    expect(h.data).toMatchObject({
      reason: 'organiser',
      note: 'Ill',
      fee: '105.00',
      refund: '0.00',
      feeDue: '105.00',
      tickets: 2,
      paymentStatus: { from: 'open', to: 'fee_due' },
    });
    const [ev] = await t.sql<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM "OutboxEvent" WHERE subject = $1 AND payload->>'bookingId' = $2`,
      [Subjects.bookingsInvitations.bookingCancelled, b.id],
    );
    expect(ev.payload).toMatchObject({
      cancellationFee: '105.00',
      refundAmount: '0.00',
      amountDue: '105.00',
      reason: 'organiser',
    });
    const mails = await t.sql<{ kind: string; text: string }>(
      `SELECT kind, text FROM "Mail" WHERE "bookingId" = $1::uuid AND kind = 'booking-cancellation'`,
      [b.id],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('Cancellation fee due: 105.00 EUR');
    expect(mails[0].text).not.toContain('Refund');
    const twice = await t.call('POST', `/bookings/${b.id}/cancel`, {}, t.A, {
      'Accept-Language': 'de',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([
      {
        field: 'status',
        rule: 'alreadyCancelled',
        message: 'status: Die Buchung ist bereits storniert',
      },
    ]);
    const rulesOfCancelled = await t.call('GET', `/bookings/${b.id}/cancellation-rules`);
    expect(rulesOfCancelled.status).toBe(409);
    expect(rulesOfCancelled.body.errors).toEqual([
      expect.objectContaining({ field: 'status', rule: 'alreadyCancelled' }),
    ]);
    // the seats are free again
    expect((await t.book(eventId, [{ ticketTypeId: type, n: 2 }])).status).toBe(201);
  });

  it('waiveFee cancels without a fee; no tiers: free until the start', async () => {
    const eventId = await t.event(t.A, { startsAt: days(3), cancellationTiers: tiers });
    const type = await t.ticketType(eventId, { price: '80' });
    const b = await t.booked(eventId, [{ ticketTypeId: type }]);
    await t.call('PUT', `/bookings/${b.id}/payment-status`, { paymentStatus: 'paid' });
    const res = await t.call('POST', `/bookings/${b.id}/cancel`, { waiveFee: true });
    // paid and cancelled whole with a refund: refunded (issue 20; before, it stayed paid)
    expect(res.body.data).toMatchObject({
      cancellationFee: '0.00',
      refundAmount: '80.00',
      paymentStatus: 'refunded',
      amountDue: '0.00',
    });
    const free = await t.event(t.A, { startsAt: days(3) });
    const freeType = await t.ticketType(free, { price: '80' });
    const fb = await t.booked(free, [{ ticketTypeId: freeType }]);
    await t.call('PUT', `/bookings/${fb.id}/payment-status`, { paymentStatus: 'paid' });
    const rules = await t.call('GET', `/bookings/${fb.id}/cancellation-rules`);
    expect(rules.body.data).toMatchObject({
      rule: 'free',
      fee: '0.00',
      refund: '80.00',
      currentTier: null,
      nextTier: null,
    });
  });
});

describe('BookingCancellation (for invitations and deleted events)', () => {
  it('cancels in the caller’s transaction with fee none; a second call is a 409, an unknown booking a 404', async () => {
    const eventId = await t.event(t.A, {
      startsAt: days(2),
      cancellationTiers: [{ daysBeforeStart: 7, feePercent: 100, feeFixed: '0' }],
    });
    const type = await t.ticketType(eventId, { price: '50', quota: 1 });
    const b = await t.booked(eventId, [{ ticketTypeId: type }]);
    const cancellation = t.svc.app.get(BookingCancellation);
    const prisma = t.svc.app.get(PrismaService);
    // the caller (a consumer of the tenant's event) runs as the tenant
    const done = await asTenant(t.A, () =>
      prisma.$transaction((tx) =>
        cancellation.cancel(tx, t.A, b.id, {
          reason: 'event-deleted',
          actor: SYSTEM_ACTOR,
          fee: 'none',
        }),
      ),
    );
    expect(done).toMatchObject({
      bookingId: b.id,
      fee: '0.00',
      // an open booking: nothing was paid, nothing is refunded, nothing is owed
      refund: '0.00',
      feeDue: '0.00',
      paymentStatus: 'cancelled',
      ticketIds: [b.tickets[0].id],
    });
    expect(await t.counters(eventId)).toEqual([{ id: type, sold: 0 }]);
    const [h] = await t.sql(
      `SELECT actor, data->>'reason' AS reason FROM "BookingHistory" WHERE "bookingId" = $1 AND action = 'cancelled'`,
      [b.id],
    );
    expect(h).toEqual({ actor: 'system', reason: 'event-deleted' });
    await expect(
      asTenant(t.A, () =>
        prisma.$transaction((tx) =>
          cancellation.cancel(tx, t.A, b.id, { reason: 'x', actor: SYSTEM_ACTOR, fee: 'tiers' }),
        ),
      ),
    ).rejects.toMatchObject({ status: 409 });
    await expect(
      asTenant(t.B, () =>
        prisma.$transaction((tx) =>
          cancellation.cancel(tx, t.B, b.id, { reason: 'x', actor: SYSTEM_ACTOR, fee: 'tiers' }),
        ),
      ),
    ).rejects.toMatchObject({ status: 404 });
    // the caller's rollback takes the cancellation back
    const c = await t.booked(eventId, [{ ticketTypeId: type }]);
    await expect(
      asTenant(t.A, () =>
        prisma.$transaction(async (tx) => {
          await cancellation.cancel(tx, t.A, c.id, {
            reason: 'x',
            actor: SYSTEM_ACTOR,
            fee: 'tiers',
          });
          throw new Error('caller failed');
        }),
      ),
    ).rejects.toThrow('caller failed');
    expect((await t.call('GET', `/bookings/${c.id}`)).body.data.status).toBe('confirmed');
    expect(await t.counters(eventId)).toEqual([{ id: type, sold: 1 }]);
  });
});

describe('BK9 booker', () => {
  it('changes the booker, links a person of crm-people, keeps information; checks each', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const b = await t.booked(eventId, [{ ticketTypeId: type }]);
    const person = t.people.person();
    const res = await t.call('PUT', `/bookings/${b.id}/booker`, {
      lastname: 'King',
      personId: person,
      information: { vip: true, notes: 'aisle seat' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      booker: { firstname: 'Ada', lastname: 'King', email: 'ada@example.org', personId: person },
      bookerInformation: { vip: true, notes: 'aisle seat' },
    });
    // linked to a person: the booking goes onto their timeline in crm-people, at booking time
    const linked = await t.sql<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM "OutboxEvent" WHERE subject = $1 AND payload->>'bookingId' = $2`,
      [Subjects.bookingsInvitations.bookingLinked, b.id],
    );
    expect(linked.map((o) => o.payload)).toEqual([
      expect.objectContaining({ personId: person, tickets: 1, at: b.dateCreated }),
    ]);
    const unknown = await t.call('PUT', `/bookings/${b.id}/booker`, { personId: randomUUID() });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ field: 'personId', rule: 'unknownPerson' });
    const big = await t.call('PUT', `/bookings/${b.id}/booker`, {
      information: { x: 'y'.repeat(17000) },
    });
    expect(big.status).toBe(413);
    const bad = await t.call('PUT', `/bookings/${b.id}/booker`, {
      email: 'nope',
      information: [1],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'email',
      'information',
    ]);
    const clear = await t.call('PUT', `/bookings/${b.id}/booker`, {
      personId: null,
      information: null,
    });
    expect(clear.body.data).toMatchObject({
      booker: expect.objectContaining({ personId: null }),
      bookerInformation: null,
    });
    expect((await t.call('PUT', `/bookings/${b.id}/booker`, { lastname: 'X' }, t.B)).status).toBe(
      404,
    );
    expect(
      await t.sql(`SELECT action FROM "BookingHistory" WHERE "bookingId" = $1::uuid ORDER BY at`, [
        b.id,
      ]),
    ).toEqual([{ action: 'created' }, { action: 'booker-changed' }, { action: 'booker-changed' }]);
  });

  it('answers 503 naming crm-people when it does not answer, and changes nothing', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const b = await t.booked(eventId, [{ ticketTypeId: type }]);
    await t.people.stop();
    try {
      const res = await t.call('PUT', `/bookings/${b.id}/booker`, {
        lastname: 'Z',
        personId: randomUUID(),
      });
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('crm-people');
      const [row] = await t.sql(`SELECT "bookerLastname" FROM "Booking" WHERE id = $1`, [b.id]);
      expect(row).toEqual({ bookerLastname: 'Lovelace' });
    } finally {
      await t.people.start();
    }
  });
});

describe('BK12 payment status', () => {
  it('follows the state machine; other transitions are a 409 naming both states (de)', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const b = await t.booked(eventId, [{ ticketTypeId: type }]);
    const bad = await t.call(
      'PUT',
      `/bookings/${b.id}/payment-status`,
      { paymentStatus: 'refunded' },
      t.A,
      {
        'Accept-Language': 'de',
      },
    );
    expect(bad.status).toBe(409);
    expect(bad.body.message).toContain('open');
    expect(bad.body.message).toContain('refunded');
    expect(bad.body.message).toContain('Zahlungsstatus');
    for (const s of ['paid', 'paid', 'partially_refunded', 'refunded']) {
      const res = await t.call('PUT', `/bookings/${b.id}/payment-status`, { paymentStatus: s });
      expect(res.status).toBe(200);
      expect(res.body.data.paymentStatus).toBe(s);
    }
    expect(
      (await t.call('PUT', `/bookings/${b.id}/payment-status`, { paymentStatus: 'paid' })).status,
    ).toBe(409);
    expect(
      (await t.call('PUT', `/bookings/${b.id}/payment-status`, { paymentStatus: 'gone' })).status,
    ).toBe(400);
    expect(
      (await t.call('PUT', `/bookings/${b.id}/payment-status`, { paymentStatus: 'paid' }, t.B))
        .status,
    ).toBe(404);
    const history = await t.sql<{ data: { from: string; to: string } }>(
      `SELECT data FROM "BookingHistory" WHERE "bookingId" = $1::uuid AND action = 'payment-status-changed' ORDER BY at`,
      [b.id],
    );
    expect(history.map((h) => `${h.data.from}>${h.data.to}`)).toEqual([
      'open>paid',
      'paid>partially_refunded',
      'partially_refunded>refunded',
    ]);
  });
});

describe('BK13 statistics, BK14 history', () => {
  it('aggregates per day in the event’s zone (a booking at 23:30 UTC is the next day in Berlin)', async () => {
    const eventId = await t.event(t.A, { timeZone: 'Europe/Berlin' });
    const type = await t.ticketType(eventId, { price: '119' });
    const late = await t.booked(eventId, [{ ticketTypeId: type, n: 2 }]);
    const early = await t.booked(eventId, [{ ticketTypeId: type }]);
    const cancelled = await t.booked(eventId, [{ ticketTypeId: type }]);
    await t.call('POST', `/bookings/${cancelled.id}/cancel`, {});
    // 2026-03-01 23:30 UTC = 2 March in Berlin; 2026-03-01 22:30 UTC = 1 March 23:30 in Berlin
    await t.sql(`UPDATE "Booking" SET "dateCreated" = '2026-03-01 23:30:00' WHERE id = $1`, [
      late.id,
    ]);
    await t.sql(`UPDATE "Booking" SET "dateCreated" = '2026-03-01 22:30:00' WHERE id = $1`, [
      early.id,
    ]);
    await t.sql(
      `UPDATE "Booking" SET "dateCreated" = '2026-03-01 10:00:00', "cancelledAt" = '2026-03-02 12:00:00' WHERE id = $1`,
      [cancelled.id],
    );
    const res = await t.call('GET', `/bookings/events/${eventId}/statistics`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      eventId,
      timeZone: 'Europe/Berlin',
      days: [
        {
          day: '2026-03-01',
          booked: 2,
          cancelled: 0,
          tickets: 2,
          revenueNet: '100.00',
          revenueGross: '119.00',
        },
        {
          day: '2026-03-02',
          booked: 1,
          cancelled: 1,
          tickets: 2,
          revenueNet: '200.00',
          revenueGross: '238.00',
        },
      ],
    });
    const one = await t.call(
      'GET',
      `/bookings/events/${eventId}/statistics?from=2026-03-02&to=2026-03-02`,
    );
    expect(one.body.data.days.map((d: { day: string }) => d.day)).toEqual(['2026-03-02']);
    expect(
      (await t.call('GET', `/bookings/events/${eventId}/statistics?from=2026-03-02&to=2026-03-01`))
        .status,
    ).toBe(400);
    expect(
      (await t.call('GET', `/bookings/events/${eventId}/statistics`, undefined, t.B)).status,
    ).toBe(404);
  });

  it('lists the history newest first, filtered by booking and action', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const a = await t.booked(eventId, [{ ticketTypeId: type }]);
    const b = await t.booked(eventId, [{ ticketTypeId: type }]);
    await t.call('PUT', `/bookings/${a.id}/payment-status`, { paymentStatus: 'paid' });
    const all = await t.call('GET', `/bookings/events/${eventId}/history`);
    expect(all.status).toBe(200);
    expect(all.body.metaData.totalResults).toBe(3);
    expect(all.body.data[0]).toMatchObject({
      bookingId: a.id,
      action: 'payment-status-changed',
      actor: expect.any(String),
    });
    const onlyB = await t.call('GET', `/bookings/events/${eventId}/history?bookingId=${b.id}`);
    expect(onlyB.body.data).toEqual([
      expect.objectContaining({ bookingId: b.id, action: 'created', actor: 'public' }),
    ]);
    const created = await t.call(
      'GET',
      `/bookings/events/${eventId}/history?action=created&pageSize=1&page=2`,
    );
    expect(created.body.data).toHaveLength(1);
    expect(created.body.metaData.totalResults).toBe(2);
    expect(
      (await t.call('GET', `/bookings/events/${eventId}/history`, undefined, t.B)).status,
    ).toBe(404);
  });
});

describe('BK15 consistency check', () => {
  it('reports and repairs totals, ticket tax, counters and a missing invoice number', async () => {
    const eventId = await t.event(t.A, { capacity: 50 });
    const type = await t.ticketType(eventId, { quota: 20 });
    const b = await t.booked(eventId, [{ ticketTypeId: type, n: 2 }]);
    const clean = await t.call('POST', `/bookings/${b.id}/consistency-check`);
    expect(clean.status).toBe(200);
    expect(clean.body.data).toEqual({
      bookingId: b.id,
      consistent: true,
      problems: [],
      repaired: [],
    });
    await t.sql(`UPDATE "Booking" SET "totalGross" = 1, "invoiceNumber" = NULL WHERE id = $1`, [
      b.id,
    ]);
    await t.sql(`UPDATE "EventTicket" SET "priceTax" = 0 WHERE id = $1`, [b.tickets[0].id]);
    await t.sql(`UPDATE "TicketType" SET sold = 7 WHERE id = $1`, [type]);
    await t.sql(`UPDATE "EventCopy" SET sold = 0 WHERE "eventId" = $1::uuid`, [eventId]);
    const found = await t.call('POST', `/bookings/${b.id}/consistency-check`);
    expect(found.body.data.consistent).toBe(false);
    expect(found.body.data.problems).toEqual([
      { field: `tickets.${b.tickets[0].id}.priceTax`, expected: '19.00', actual: '0.00' },
      { field: 'totalGross', expected: '238.00', actual: '1.00' },
      { field: 'invoiceNumber', expected: 'present', actual: 'null' },
      { field: `ticketTypes.${type}.sold`, expected: '2', actual: '7' },
      { field: 'event.sold', expected: '2', actual: '0' },
    ]);
    expect(
      await t.count('BookingHistory', `"bookingId" = $1::uuid AND action = 'repaired'`, [b.id]),
    ).toBe(0);
    const fixed = await t.call('POST', `/bookings/${b.id}/consistency-check?repair=true`);
    expect(fixed.body.data.repaired).toEqual(found.body.data.problems);
    const final = await t.call('POST', `/bookings/${b.id}/consistency-check`);
    expect(final.body.data).toMatchObject({ consistent: true, problems: [] });
    const read = (await t.call('GET', `/bookings/${b.id}`)).body.data;
    expect(read).toMatchObject({
      totalGross: '238.00',
      invoiceNumber: expect.stringMatching(/^\d{4}-\d{6}$/),
    });
    expect(read.tickets[0].priceTax).toBe('19.00');
    expect(await t.counters(eventId)).toEqual([{ id: type, sold: 2 }]);
    // a free booking with a number it should not have is reported, and the number is kept
    const freeType = await t.ticketType(eventId, { price: '0' });
    const fb = await t.booked(eventId, [{ ticketTypeId: freeType }]);
    await t.sql(`UPDATE "Booking" SET "invoiceNumber" = 'X-1' WHERE id = $1`, [fb.id]);
    const extra = await t.call('POST', `/bookings/${fb.id}/consistency-check?repair=true`);
    expect(extra.body.data).toMatchObject({
      consistent: false,
      problems: [{ field: 'invoiceNumber', expected: 'null', actual: 'X-1' }],
      repaired: [],
    });
    expect(
      await t.count('BookingHistory', `"bookingId" = $1::uuid AND action = 'repaired'`, [b.id]),
    ).toBe(1);
    expect(
      (await t.call('POST', `/bookings/${b.id}/consistency-check`, undefined, t.B)).status,
    ).toBe(404);
    expect((await t.call('POST', `/bookings/${b.id}/consistency-check?repair=maybe`)).status).toBe(
      400,
    );
  });
});

describe('K2 delete with sold tickets', () => {
  it('refuses with a 409 naming the count; after the cancellation it deletes', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId, { name: 'Gala' });
    const b = await t.booked(eventId, [{ ticketTypeId: type, n: 3 }]);
    const res = await t.call('DELETE', `/tickets/${type}`, undefined, t.A, {
      'Accept-Language': 'de',
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Die Ticketart Gala hat 3 verkaufte Tickets und kann nicht gelöscht werden: bitte deaktivieren oder zuerst die Tickets stornieren',
    );
    expect(res.body.errors).toEqual([
      {
        field: 'tickets',
        rule: 'hasTickets',
        message: 'tickets: 3 Tickets dieser Art sind verkauft',
      },
    ]);
    await t.call('POST', `/bookings/${b.id}/cancel`, {});
    expect((await t.call('DELETE', `/tickets/${type}`)).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('creates publicly, reads with event and person references, cancels and lists', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const created = await t.gql(
      `mutation($input: CreateBookingInput!) { createBooking(input: $input) {
         id totalGross confirmationToken event { id } bookerPerson { id } tickets { ticketTypeId participant { firstname } } } }`,
      { input: t.body(eventId, [{ ticketTypeId: type }], { answers: {} }) },
    );
    expect(created.body.errors).toBeUndefined();
    const b = created.body.data.createBooking;
    expect(b).toMatchObject({ totalGross: '119.00', event: { id: eventId }, bookerPerson: null });
    const person = t.people.person();
    const set = await t.gql(
      `mutation($id: ID!, $p: ID) { setBookingBooker(id: $id, input: { personId: $p, information: { a: 1 } }) {
         bookerPerson { id } bookerInformation } }`,
      { id: b.id, p: person },
    );
    expect(set.body.data.setBookingBooker).toEqual({
      bookerPerson: { id: person },
      bookerInformation: { a: 1 },
    });
    const rules = await t.gql(
      `query($id: ID!) { bookingCancellationRules(id: $id) { fee refund rule } }`,
      { id: b.id },
    );
    // still open: nothing was paid, so nothing would be refunded (issue 20)
    expect(rules.body.data.bookingCancellationRules).toEqual({
      fee: '0.00',
      refund: '0.00',
      rule: 'free',
    });
    const paid = await t.gql(
      `mutation($id: ID!) { setBookingPaymentStatus(id: $id, input: { paymentStatus: "paid" }) { paymentStatus } }`,
      { id: b.id },
    );
    expect(paid.body.data.setBookingPaymentStatus.paymentStatus).toBe('paid');
    const cancelled = await t.gql(`mutation($id: ID!) { cancelBooking(id: $id) { status } }`, {
      id: b.id,
    });
    expect(cancelled.body.data.cancelBooking.status).toBe('cancelled');
    const list = await t.gql(
      `query($e: ID) { bookings(eventId: $e) { totalResults items { id status } } }`,
      { e: eventId },
    );
    expect(list.body.data.bookings).toEqual({
      totalResults: 1,
      items: [{ id: b.id, status: 'cancelled' }],
    });
    const stats = await t.gql(
      `query($e: ID!) { bookingStatistics(eventId: $e) { days { booked cancelled } } }`,
      { e: eventId },
    );
    expect(stats.body.data.bookingStatistics.days).toEqual([{ booked: 1, cancelled: 1 }]);
    const hist = await t.gql(
      `query($e: ID!) { bookingHistory(eventId: $e) { totalResults items { action } } }`,
      { e: eventId },
    );
    expect(hist.body.data.bookingHistory.totalResults).toBe(4);
    const check = await t.gql(
      `mutation($id: ID!) { checkBookingConsistency(id: $id) { consistent } }`,
      { id: b.id },
    );
    expect(check.body.data.checkBookingConsistency.consistent).toBe(true);
    const conf = await t.gql(
      `query($id: ID!, $t: String!) { bookingConfirmation(id: $id, token: $t) { totalGross } }`,
      {
        id: b.id,
        t: b.confirmationToken,
      },
    );
    expect(conf.body.data.bookingConfirmation.totalGross).toBe('119.00');
    const foreign = await t.gql(`query($id: ID!) { booking(id: $id) { id } }`, { id: b.id }, t.B);
    expect(foreign.body.data).toBeNull();
    expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
    const freeEvent = await t.event();
    const freeType = await t.ticketType(freeEvent, { price: '0' });
    const fb = await t.booked(freeEvent, [{ ticketTypeId: freeType }]);
    const many = await t.gql(`mutation($ids: [ID!]!) { deleteBookings(ids: $ids) { ids } }`, {
      ids: [fb.id],
    });
    expect(many.body.data.deleteBookings.ids).toEqual([fb.id]);
    const badIds = await t.gql(`mutation($ids: [ID!]!) { deleteBookings(ids: $ids) { ids } }`, {
      ids: [],
    });
    expect(badIds.body.errors[0].extensions.statusCode).toBe(400);
    const one = await t.gql(`mutation($id: ID!) { deleteBooking(id: $id) { ids } }`, {
      id: randomUUID(),
    });
    expect(one.body.errors[0].extensions.statusCode).toBe(404);
  });
});
