import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { IdempotencyKeyPurge } from './idempotency-keys';
import { TenantSales } from './tenant-sales';
import { BookingTestKit } from './test/booking-test-kit';

// BK1 and BK2 against the real service, database and NATS: checks, frozen prices, capacity,
// invoice numbers, idempotency, invitations, history, outbox and the queued mail.

jest.setTimeout(60000);

let t: BookingTestKit;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_bookings_create');
}, 60000);
afterAll(async () => t?.close());

describe('BK1 create', () => {
  it('books two tickets: prices frozen, totals, invoice number, history, outbox, mail queued', async () => {
    const eventId = await t.event(t.A, {
      cancellationTiers: [{ daysBeforeStart: 14, feePercent: 50, feeFixed: '5.00' }],
    });
    const standard = await t.ticketType(eventId, { quota: 10 });
    const reduced = await t.ticketType(eventId, {
      name: 'Reduced',
      price: '10.70',
      taxRateId: 'de-reduced',
    });
    const res = await t.book(
      eventId,
      [{ ticketTypeId: standard }, { ticketTypeId: reduced }],
      {},
      t.A,
      {
        'Accept-Language': 'de',
      },
    );
    expect(res.status).toBe(201);
    const b = res.body.data;
    expect(b).toMatchObject({
      eventId,
      status: 'confirmed',
      paymentStatus: 'open',
      booker: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.org', personId: null },
      language: 'de',
      currency: 'EUR',
      totalGross: '129.70',
      totalNet: '110.00',
      totalTax: '19.70',
      cancellationTiers: [{ daysBeforeStart: 14, feePercent: 50, feeFixed: '5.00' }],
      invoiceNumber: expect.stringMatching(/^\d{4}-000001$/),
      confirmationToken: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect(b.bookerInformation).toBeUndefined();
    expect(b.tickets).toEqual([
      expect.objectContaining({
        ticketTypeId: standard,
        ticketTypeName: 'Standard',
        priceGross: '119.00',
        priceNet: '100.00',
        priceTax: '19.00',
        taxRatePercent: '19.00',
        taxRateId: 'de-standard',
        status: 'valid',
        participant: { firstname: 'P1', lastname: 'Guest', email: 'p1@example.org' },
      }),
      expect.objectContaining({
        ticketTypeId: reduced,
        priceNet: '10.00',
        priceTax: '0.70',
        taxRatePercent: '7.00',
      }),
    ]);
    expect(await t.counters(eventId)).toEqual(
      expect.arrayContaining([
        { id: standard, sold: 1 },
        { id: reduced, sold: 1 },
      ]),
    );
    const [copy] = await t.sql<{ sold: number }>(
      `SELECT sold FROM "EventCopy" WHERE "eventId" = $1::uuid`,
      [eventId],
    );
    expect(copy.sold).toBe(2);
    const history = await t.sql(
      `SELECT action, actor FROM "BookingHistory" WHERE "bookingId" = $1::uuid`,
      [b.id],
    );
    expect(history).toEqual([{ action: 'created', actor: 'public' }]);
    const outbox = await t.sql<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM "OutboxEvent" WHERE subject = $1 AND payload->>'bookingId' = $2`,
      [Subjects.bookingsInvitations.bookingCreated, b.id],
    );
    expect(outbox.map((o) => o.payload)).toEqual([
      expect.objectContaining({
        tenantId: t.A,
        eventId,
        eventTitle: 'Summit',
        tickets: 2,
        totalGross: '129.70',
        currency: 'EUR',
        personId: null,
        // the booker's language (Accept-Language of the booking): touchpoint texts are in it
        language: 'de',
      }),
    ]);
    const mails = await t.sql<{
      kind: string;
      toAddress: string;
      subject: string;
      text: string;
      attachments: unknown;
      status: string;
    }>(
      `SELECT kind, "toAddress", subject, text, attachments, status FROM "Mail" WHERE "bookingId" = $1::uuid`,
      [b.id],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'booking-confirmation',
      toAddress: 'ada@example.org',
      status: 'queued',
    });
    expect(mails[0].subject).toBe('Ihre Buchung: Summit');
    expect(mails[0].text).toContain('129.70 EUR');
    expect(mails[0].text).toContain('P2 Guest');
    expect(mails[0].attachments).toEqual([
      { kind: 'invoice', bookingId: b.id },
      { kind: 'ticket', ticketId: b.tickets[0].id },
      { kind: 'ticket', ticketId: b.tickets[1].id },
    ]);
  });

  it("bookings written in one batch: each one's event and mail carry its own request id", async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId, { quota: 100 });
    const before = t.svc.app.get(TenantSales).stats;
    const ids = Array.from({ length: 12 }, () => `req-${randomUUID()}`);
    const answers = await Promise.all(
      ids.map((id) => t.book(eventId, [{ ticketTypeId: type }], {}, t.A, { 'X-Request-Id': id })),
    );
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 201));
    // several requests shared a transaction (group commit), else this proves nothing
    const after = t.svc.app.get(TenantSales).stats;
    expect(after.items - before.items).toBe(ids.length);
    expect(after.batches - before.batches).toBeLessThan(ids.length);
    for (const [i, a] of answers.entries()) {
      const bookingId = a.body.data.id as string;
      const events = await t.sql<{ requestId: string | null }>(
        `SELECT headers->>'X-Request-Id' AS "requestId" FROM "OutboxEvent"
          WHERE subject = $1 AND payload->>'bookingId' = $2`,
        [Subjects.bookingsInvitations.bookingCreated, bookingId],
      );
      const mails = await t.sql<{ requestId: string | null }>(
        `SELECT headers->>'X-Request-Id' AS "requestId" FROM "Mail" WHERE "bookingId" = $1::uuid`,
        [bookingId],
      );
      expect([...events, ...mails]).toEqual([{ requestId: ids[i] }, { requestId: ids[i] }]);
    }
  });

  it('a free booking gets no invoice number, is paid, and its mail has only tickets attached', async () => {
    const eventId = await t.event();
    const free = await t.ticketType(eventId, { price: '0' });
    const b = await t.booked(eventId, [{ ticketTypeId: free }]);
    expect(b).toMatchObject({ totalGross: '0.00', invoiceNumber: null, paymentStatus: 'paid' });
    const [mail] = await t.sql<{ attachments: unknown }>(
      `SELECT attachments FROM "Mail" WHERE "bookingId" = $1::uuid`,
      [b.id],
    );
    expect(mail.attachments).toEqual([{ kind: 'ticket', ticketId: b.tickets[0].id }]);
  });

  it('sold out is a 409 naming the ticket type, and nothing is written', async () => {
    const eventId = await t.event();
    const few = await t.ticketType(eventId, { name: 'Few', quota: 2 });
    const other = await t.ticketType(eventId, { name: 'Other' });
    await t.booked(eventId, [{ ticketTypeId: few }]);
    const before = await t.count('Booking', `"eventId" = $1::uuid`, [eventId]);
    const res = await t.book(eventId, [{ ticketTypeId: other }, { ticketTypeId: few, n: 2 }]);
    expect(res.status).toBe(409);
    expect(res.body.data).toBeNull();
    expect(res.body.message).toContain('Few');
    expect(res.body.errors).toEqual([
      expect.objectContaining({ field: 'tickets[1].ticketTypeId', rule: 'soldOut' }),
    ]);
    expect(await t.count('Booking', `"eventId" = $1::uuid`, [eventId])).toBe(before);
    expect(await t.count('EventTicket', `"eventId" = $1::uuid`, [eventId])).toBe(1);
    expect(await t.counters(eventId)).toEqual(
      expect.arrayContaining([
        { id: other, sold: 0 },
        { id: few, sold: 1 },
      ]),
    );
    expect(await t.count('Mail', `"eventId" = $1::uuid`, [eventId])).toBe(1);
  });

  it('the event’s capacity is a 409 naming eventId; German on request', async () => {
    const eventId = await t.event(t.A, { capacity: 3 });
    const a = await t.ticketType(eventId, { quota: 10 });
    await t.booked(eventId, [{ ticketTypeId: a, n: 2 }]);
    const res = await t.book(eventId, [{ ticketTypeId: a, n: 2 }], {}, t.A, {
      'Accept-Language': 'de',
    });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ field: 'eventId', rule: 'capacityReached' }),
    ]);
    expect(res.body.message).toContain('ausgebucht');
    expect((await t.book(eventId, [{ ticketTypeId: a }])).status).toBe(201);
  });

  it('invoice numbers count per tenant and year without gaps, also after a refused booking', async () => {
    const eventId = await t.event(t.B);
    const type = await t.ticketType(eventId, { quota: 2 }, t.B);
    const first = await t.booked(eventId, [{ ticketTypeId: type }], {}, t.B);
    expect((await t.book(eventId, [{ ticketTypeId: type, n: 2 }], {}, t.B)).status).toBe(409);
    const second = await t.booked(eventId, [{ ticketTypeId: type }], {}, t.B);
    const year = new Date().getUTCFullYear();
    expect([first.invoiceNumber, second.invoiceNumber]).toEqual([
      `${year}-000001`,
      `${year}-000002`,
    ]);
  });

  it('checks event, ticket types, counts, currency and website with 400/404/409 naming each field', async () => {
    const eventId = await t.event(t.A, { websiteIds: [randomUUID()] });
    const inactive = await t.ticketType(eventId, { name: 'Off', active: false });
    const later = await t.ticketType(eventId, {
      name: 'Later',
      saleStartsAt: '2029-01-01T00:00:00Z',
    });
    const pair = await t.ticketType(eventId, { name: 'Pair', minPerBooking: 2, maxPerBooking: 2 });
    const dollars = await t.ticketType(eventId, { name: 'Dollars', currency: 'USD' });
    const foreignEvent = await t.event(t.B);
    const foreignType = await t.ticketType(foreignEvent, {}, t.B);
    const res = await t.book(
      eventId,
      [
        { ticketTypeId: inactive },
        { ticketTypeId: later },
        { ticketTypeId: pair },
        { ticketTypeId: dollars },
        { ticketTypeId: foreignType },
      ],
      { websiteId: randomUUID() },
    );
    expect(res.status).toBe(400);
    expect(
      res.body.errors.map((e: { field: string; rule: string }) => `${e.field}/${e.rule}`),
    ).toEqual([
      'tickets[0].ticketTypeId/inactive',
      'tickets[1].ticketTypeId/saleNotStarted',
      'tickets[2].ticketTypeId/minPerBooking',
      'tickets[3].ticketTypeId/currencyMix',
      'tickets[4].ticketTypeId/unknownTicketType',
    ]);
    const site = await t.book(eventId, [{ ticketTypeId: pair, n: 2 }], { websiteId: randomUUID() });
    expect(site.body.errors).toEqual([
      expect.objectContaining({ field: 'websiteId', rule: 'unknownWebsite' }),
    ]);
    expect((await t.book(foreignEvent, [{ ticketTypeId: foreignType }])).status).toBe(404);
    expect((await t.book(randomUUID(), [{ ticketTypeId: pair }])).status).toBe(404);

    const draft = await t.event(t.A, { published: false });
    const draftType = await t.ticketType(draft);
    const closed = await t.book(draft, [{ ticketTypeId: draftType }]);
    expect(closed.status).toBe(409);
    // the 409 says why: not published, by field and rule, translated
    expect(closed.body.message).toBe(
      `The event ${draft} is not published: it takes bookings once it is`,
    );
    expect(closed.body.errors).toEqual([
      {
        field: 'eventId',
        rule: 'eventNotPublished',
        message: 'eventId: the event is not published',
      },
    ]);
    const closedDe = await t.book(draft, [{ ticketTypeId: draftType }], {}, t.A, {
      'Accept-Language': 'de',
    });
    expect(closedDe.body.errors).toEqual([
      {
        field: 'eventId',
        rule: 'eventNotPublished',
        message: 'eventId: Die Veranstaltung ist nicht veröffentlicht',
      },
    ]);
    const completedEvent = await t.event(t.A, { status: 'completed' });
    const completedType = await t.ticketType(completedEvent);
    const completedAnswer = await t.book(completedEvent, [{ ticketTypeId: completedType }]);
    expect(completedAnswer.status).toBe(409);
    expect(completedAnswer.body.errors).toEqual([
      expect.objectContaining({ field: 'eventId', rule: 'eventCompleted' }),
    ]);
    const cancelledEvent = await t.event(t.A, { status: 'cancelled' });
    const cancelledType = await t.ticketType(cancelledEvent);
    const cancelledAnswer = await t.book(cancelledEvent, [{ ticketTypeId: cancelledType }]);
    expect(cancelledAnswer.status).toBe(409);
    expect(cancelledAnswer.body.errors).toEqual([
      expect.objectContaining({ field: 'eventId', rule: 'eventCancelled' }),
    ]);
    // a published draft takes bookings: publishing decides
    const draftPublished = await t.event(t.A, { status: 'draft' });
    const dpType = await t.ticketType(draftPublished);
    expect((await t.book(draftPublished, [{ ticketTypeId: dpType }])).status).toBe(201);
    const deleted = await t.event();
    const deletedType = await t.ticketType(deleted);
    await t.sql(`UPDATE "EventCopy" SET deleted = true WHERE "eventId" = $1::uuid`, [deleted]);
    expect((await t.book(deleted, [{ ticketTypeId: deletedType }])).status).toBe(404);
    const past = await t.event(t.A, { startsAt: '2020-01-01T10:00:00.000Z' });
    const pastType = await t.ticketType(past);
    const started = await t.book(past, [{ ticketTypeId: pastType }]);
    expect(started.status).toBe(400);
    expect(started.body.errors[0]).toMatchObject({ field: 'eventId', rule: 'eventStarted' });
    expect(await t.count('Booking', `"eventId" = ANY($1::uuid[])`, [[eventId, draft, past]])).toBe(
      0,
    );
  });

  it('checks answers against the booking form fields', async () => {
    const form = [
      { key: 'company', label: 'Company', type: 'text', required: true },
      { key: 'diet', label: 'Diet', type: 'select', required: false, options: ['vegan', 'none'] },
      { key: 'age', label: 'Age', type: 'number' },
      { key: 'born', label: 'Born', type: 'date' },
      { key: 'terms', label: 'Terms', type: 'checkbox', required: true },
      { key: 'mail', label: 'Mail', type: 'email' },
    ];
    const eventId = await t.event(t.A, {}, form);
    const type = await t.ticketType(eventId);
    const bad = await t.book(eventId, [{ ticketTypeId: type }], {
      answers: { diet: 'meat', age: '12', born: '2020-02-30', terms: false, mail: 'x', extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(
      bad.body.errors.map((e: { field: string; rule: string }) => `${e.field}/${e.rule}`),
    ).toEqual([
      'answers.extra/unknownAnswer',
      'answers.company/answerRequired',
      'answers.diet/answerOption',
      'answers.age/answerType',
      'answers.born/answerType',
      'answers.terms/answerRequired',
      'answers.mail/answerType',
    ]);
    const ok = await t.book(eventId, [{ ticketTypeId: type }], {
      answers: { company: 'ACME', diet: 'vegan', age: 42, born: '1990-02-28', terms: true },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.answers).toEqual({
      company: 'ACME',
      diet: 'vegan',
      age: 42,
      born: '1990-02-28',
      terms: true,
    });
    // no form: answers must be empty
    const plain = await t.event();
    const plainType = await t.ticketType(plain);
    const none = await t.book(plain, [{ ticketTypeId: plainType }], { answers: { a: 1 } });
    expect(none.body.errors[0]).toMatchObject({ field: 'answers.a', rule: 'unknownAnswer' });
    expect((await t.book(plain, [{ ticketTypeId: plainType }], { answers: {} })).status).toBe(201);
  });
});

describe('BK1 idempotency', () => {
  it('answers a retry with the first booking (Idempotent-Replayed), a different body with 409', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const key = { 'Idempotency-Key': `key-${randomUUID()}` };
    const first = await t.book(eventId, [{ ticketTypeId: type }], {}, t.A, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await t.book(eventId, [{ ticketTypeId: type }], {}, t.A, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.confirmationToken).toBe(first.body.data.confirmationToken);
    const other = await t.book(eventId, [{ ticketTypeId: type, n: 2 }], {}, t.A, key);
    expect(other.status).toBe(409);
    expect(other.body.errors[0]).toMatchObject({
      field: 'Idempotency-Key',
      rule: 'idempotencyConflict',
    });
    // the same key of another tenant is another key
    const theirs = await t.event(t.B);
    const theirType = await t.ticketType(theirs, {}, t.B);
    expect((await t.book(theirs, [{ ticketTypeId: theirType }], {}, t.B, key)).status).toBe(201);
    expect(await t.count('Booking', `"eventId" = $1::uuid`, [eventId])).toBe(1);
    const long = await t.book(eventId, [{ ticketTypeId: type }], {}, t.A, {
      'Idempotency-Key': 'k'.repeat(201),
    });
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatchObject({ field: 'Idempotency-Key', rule: 'idempotencyKey' });
  });

  it('keys expire after 24 hours: then a retry makes a new booking', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await t.book(eventId, [{ ticketTypeId: type }], {}, t.A, key);
    expect(first.status).toBe(201);
    await t.sql(
      `UPDATE "IdempotencyKey" SET "dateCreated" = now() - interval '25 hours' WHERE key = $1`,
      [key['Idempotency-Key']],
    );
    const fresh = await t.sql(`SELECT count(*)::int AS n FROM "IdempotencyKey"`);
    const purged = await t.svc.app.get(IdempotencyKeyPurge).purge();
    expect(purged).toBe(1);
    expect(await t.sql(`SELECT count(*)::int AS n FROM "IdempotencyKey"`)).toEqual([
      { n: (fresh[0].n as number) - 1 },
    ]);
    const again = await t.book(eventId, [{ ticketTypeId: type }], {}, t.A, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.data.id).not.toBe(first.body.data.id);
  });

  it('a refused booking does not use up its key', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId, { quota: 0 });
    const key = { 'Idempotency-Key': randomUUID() };
    expect((await t.book(eventId, [{ ticketTypeId: type }], {}, t.A, key)).status).toBe(409);
    await t.sql(`UPDATE "TicketType" SET quota = 1 WHERE id = $1::uuid`, [type]);
    expect((await t.book(eventId, [{ ticketTypeId: type }], {}, t.A, key)).status).toBe(201);
  });
});

describe('BK1 with an invitation', () => {
  async function invitation(eventId: string, over: Record<string, unknown> = {}) {
    const id = randomUUID();
    const token = randomUUID().replace(/-/g, '');
    const personId = (over.personId as string | undefined) ?? randomUUID();
    await t.sql(
      `INSERT INTO "Invitation" (id, "tenantId", "eventId", token, "personId", email, "emailKey", language,
         status, "bookingId", "createdBy", "modifiedBy")
       VALUES ($1, $2, $3, $4, $5, 'inv@example.org', $6, 'en', $7, $8, 'test', 'test')`,
      [
        id,
        over.tenantId ?? t.A,
        eventId,
        token,
        personId,
        `${id}@example.org`,
        over.status ?? 'sent',
        over.bookingId ?? null,
      ],
    );
    return { id, token, personId };
  }

  it('accepts the invitation: the booking gets it and its person; a second use is a 409', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const inv = await invitation(eventId);
    const b = await t.booked(eventId, [{ ticketTypeId: type }], { invitationToken: inv.token });
    expect(b).toMatchObject({
      invitationId: inv.id,
      booker: expect.objectContaining({ personId: inv.personId }),
    });
    const [row] = await t.sql(
      `SELECT status, "bookingId"::text, "respondedAt" FROM "Invitation" WHERE id = $1`,
      [inv.id],
    );
    expect(row).toMatchObject({
      status: 'accepted',
      bookingId: b.id,
      respondedAt: expect.any(Date),
    });
    expect(
      await t.count('OutboxEvent', `subject = $1 AND payload->>'invitationId' = $2`, [
        Subjects.bookingsInvitations.invitationAccepted,
        inv.id,
      ]),
    ).toBe(1);
    const again = await t.book(eventId, [{ ticketTypeId: type }], { invitationToken: inv.token });
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({
      field: 'invitationToken',
      rule: 'invitationUsed',
    });

    // cancelled by the booker: the token books again, the invitation stays accepted
    expect((await t.call('POST', `/bookings/${b.id}/cancel`, {})).status).toBe(200);
    const [freed] = await t.sql(`SELECT status, "bookingId" FROM "Invitation" WHERE id = $1`, [
      inv.id,
    ]);
    expect(freed).toEqual({ status: 'accepted', bookingId: null });
    const rebooked = await t.booked(eventId, [{ ticketTypeId: type }], {
      invitationToken: inv.token,
    });
    expect(rebooked.invitationId).toBe(inv.id);
  });

  it('refuses a rejected invitation (409), one of another event or tenant and an unknown token (400)', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const rejected = await invitation(eventId, { status: 'rejected' });
    const res = await t.book(eventId, [{ ticketTypeId: type }], {
      invitationToken: rejected.token,
    });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      field: 'invitationToken',
      rule: 'invitationNotOpen',
    });
    const otherEvent = await invitation(await t.event());
    const foreign = await invitation(eventId, { tenantId: t.B });
    for (const token of [otherEvent.token, foreign.token, 'nope']) {
      const r = await t.book(eventId, [{ ticketTypeId: type }], { invitationToken: token });
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatchObject({
        field: 'invitationToken',
        rule: 'unknownInvitation',
      });
    }
    expect(await t.count('Booking', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });
});

describe('BK2 confirmation', () => {
  it('shows the booker’s summary with the right token; wrong token, other tenant, unknown id: one 404', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId);
    const b = await t.booked(eventId, [{ ticketTypeId: type, n: 2 }]);
    const res = await t.call(
      'GET',
      `/bookings/public/${b.id}/confirmation?token=${b.confirmationToken}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      bookingId: b.id,
      status: 'confirmed',
      paymentStatus: 'open',
      paymentDueAt: null,
      event: {
        id: eventId,
        title: 'Summit',
        startsAt: '2030-06-01T08:00:00.000Z',
        timeZone: 'Europe/Berlin',
      },
      tickets: [
        {
          // the ids let the booker cancel single tickets (BK23, issue 20)
          id: b.tickets[0].id,
          ticketTypeName: 'Standard',
          participantFirstname: 'P1',
          participantLastname: 'Guest',
          priceGross: '119.00',
          status: 'valid',
        },
        {
          id: b.tickets[1].id,
          ticketTypeName: 'Standard',
          participantFirstname: 'P2',
          participantLastname: 'Guest',
          priceGross: '119.00',
          status: 'valid',
        },
      ],
      currency: 'EUR',
      totalNet: '200.00',
      totalTax: '38.00',
      totalGross: '238.00',
      amountDue: '238.00',
      invoiceNumber: b.invoiceNumber,
    });
    const wrong = await t.call(
      'GET',
      `/bookings/public/${b.id}/confirmation?token=${b.confirmationToken.slice(1)}x`,
    );
    const foreign = await t.call(
      'GET',
      `/bookings/public/${b.id}/confirmation?token=${b.confirmationToken}`,
      undefined,
      t.B,
    );
    const unknown = await t.call(
      'GET',
      `/bookings/public/${randomUUID()}/confirmation?token=${b.confirmationToken}`,
    );
    const noToken = await t.call('GET', `/bookings/public/${b.id}/confirmation`);
    expect([wrong.status, foreign.status, unknown.status]).toEqual([404, 404, 404]);
    expect(noToken.status).toBe(400);
  });
});

describe('OpenAPI of BK1, BK2 and BK7', () => {
  it('lists the 429 the public text promises, and feePercent as a number', async () => {
    const res = await t.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties: Record<string, { type?: string }> }> };
    };
    expect(Object.keys(doc.paths['/v1/crm/bookings/public'].post.responses)).toContain('429');
    expect(
      Object.keys(doc.paths['/v1/crm/bookings/public/{id}/confirmation'].get.responses),
    ).toContain('429');
    expect(doc.components.schemas.CancellationTierView.properties.feePercent.type).toBe('number');
    expect(doc.components.schemas.CancellationTierView.properties.feeFixed.type).toBe('string');
  });
});
