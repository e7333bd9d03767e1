import { tenantHeaders } from '@crm/testing';
import { randomUUID } from 'node:crypto';
import {
  Answer,
  BOOKING_SERVICES,
  Client,
  eventually,
  inDays,
  startIsolatedClient,
  TestTenant,
} from './client';

// BK1-BK9, BK12-BK15 through the gateway with events, crm-people and bookings-invitations: an
// event made and published at events reaches bookings-invitations over JetStream, a visitor
// books it without a key (tenant header only), the organiser works with the booking with its
// key; GraphQL resolves Booking.event from events and Booking.bookerPerson from crm-people.

jest.setTimeout(120000);

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startIsolatedClient('bookings', BOOKING_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
}, 180000);
afterAll(async () => {
  await client?.stack.shutdown();
}, 30000);

let n = 0;
/** A published event of `t` with one ticket type; resolves once bookings-invitations knows it. */
async function bookableEvent(
  t: TestTenant,
  type: Record<string, unknown> = {},
  event: Record<string, unknown> = {},
): Promise<{ eventId: string; typeId: string }> {
  const site = await client.rest(t, 'POST', '/websites', {
    name: 'Portal',
    url: `https://bk-${Date.now().toString(36)}-${n++}.example.com/`,
    language: 'en',
  });
  if (site.status !== 201) throw new Error(`website: ${JSON.stringify(site.body)}`);
  const created = await client.rest(t, 'POST', '/events', {
    title: 'Booked gala',
    startsAt: inDays(30, 18),
    endsAt: inDays(30, 21),
    timeZone: 'Europe/Berlin',
    capacity: 100,
    taxRateId: 'de-standard',
    venue: { name: 'Hall', city: 'Berlin' },
    status: 'scheduled',
    ...event,
  });
  if (created.status !== 201) throw new Error(`event: ${JSON.stringify(created.body)}`);
  const eventId = created.body.data.id;
  // publication needs an active ticket type (the events service asks bookings-invitations)
  const tt = await client.rest(t, 'POST', '/tickets', {
    eventId,
    name: 'Seat',
    price: '119',
    currency: 'EUR',
    quota: 10,
    ...type,
  });
  if (tt.status !== 201) throw new Error(`ticket type: ${JSON.stringify(tt.body)}`);
  const typeId = tt.body.data.id;
  const pub = await client.rest(t, 'PUT', `/events/${eventId}/publication`, {
    published: true,
    websiteIds: [site.body.data.id],
  });
  if (pub.status !== 200) throw new Error(`publish: ${JSON.stringify(pub.body)}`);
  // the published copy arrives over JetStream: until then the event is not open for booking
  await eventually(async () => {
    // an unknown ticket type is a 400 only once the event's published copy is there (404 / 409 before)
    const probe = await publicBooking(t, eventId, randomUUID());
    expect(probe.body.errors?.[0]?.rule).toBe('unknownTicketType');
  }, 20000);
  return { eventId, typeId };
}

/** BK1 without a key: only the tenant header. */
function publicBooking(
  t: TestTenant,
  eventId: string,
  typeId: string,
  tickets = 1,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return client.raw('/v1/crm/bookings/public', {
    method: 'POST',
    headers: { ...tenantHeaders(t.id), 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({
      eventId,
      booker: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.org' },
      tickets: Array.from({ length: tickets }, (_, i) => ({
        ticketTypeId: typeId,
        participant: { firstname: `P${i}`, lastname: 'Guest' },
      })),
    }),
  });
}

it('BK1, BK2 book publicly without a key and read the confirmation; sold out is a 409', async () => {
  const { eventId, typeId } = await bookableEvent(a, { quota: 3 });
  const key = { 'Idempotency-Key': randomUUID() };
  const res = await publicBooking(a, eventId, typeId, 2, key);
  expect(res.status).toBe(201);
  const booking = res.body.data;
  expect(booking).toMatchObject({
    eventId,
    status: 'confirmed',
    paymentStatus: 'open',
    totalGross: '238.00',
    totalNet: '200.00',
    invoiceNumber: expect.stringMatching(/^\d{4}-000001$/),
  });
  const replay = await publicBooking(a, eventId, typeId, 2, key);
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.data.id).toBe(booking.id);

  const conf = await client.raw(
    `/v1/crm/bookings/public/${booking.id}/confirmation?token=${booking.confirmationToken}`,
    { headers: tenantHeaders(a.id) },
  );
  expect(conf.status).toBe(200);
  expect(conf.body.data).toMatchObject({
    bookingId: booking.id,
    event: { title: 'Booked gala' },
    totalGross: '238.00',
  });
  const wrong = await client.raw(`/v1/crm/bookings/public/${booking.id}/confirmation?token=nope`, {
    headers: tenantHeaders(a.id),
  });
  expect(wrong.status).toBe(404);

  const soldOut = await publicBooking(a, eventId, typeId, 2);
  expect(soldOut.status).toBe(409);
  expect(soldOut.body.errors[0]).toMatchObject({
    field: 'tickets[0].ticketTypeId',
    rule: 'soldOut',
  });
  const bad = await publicBooking(a, eventId, randomUUID(), 1);
  expect(bad.status).toBe(400);
  expect(bad.body.errors[0]).toMatchObject({
    field: 'tickets[0].ticketTypeId',
    rule: 'unknownTicketType',
  });
});

it('tenant isolation: another tenant can neither book, see, confirm nor change a booking', async () => {
  const { eventId, typeId } = await bookableEvent(a);
  const booking = (await publicBooking(a, eventId, typeId)).body.data;
  expect((await publicBooking(b, eventId, typeId)).status).toBe(404);
  const conf = await client.raw(
    `/v1/crm/bookings/public/${booking.id}/confirmation?token=${booking.confirmationToken}`,
    { headers: tenantHeaders(b.id) },
  );
  expect(conf.status).toBe(404);
  for (const [method, p, body] of [
    ['GET', `/bookings/${booking.id}`, undefined],
    ['GET', `/bookings/${booking.id}/cancellation-rules`, undefined],
    ['POST', `/bookings/${booking.id}/cancel`, {}],
    ['PUT', `/bookings/${booking.id}/booker`, { lastname: 'Mine' }],
    ['PUT', `/bookings/${booking.id}/payment-status`, { paymentStatus: 'paid' }],
    ['POST', `/bookings/${booking.id}/consistency-check?repair=true`, undefined],
    ['DELETE', `/bookings/${booking.id}`, undefined],
    ['GET', `/bookings/events/${eventId}/statistics`, undefined],
    ['GET', `/bookings/events/${eventId}/history`, undefined],
  ] as [string, string, unknown][]) {
    expect([method, p, (await client.rest(b, method, p, body)).status]).toEqual([method, p, 404]);
  }
  const batch = await client.rest(b, 'DELETE', '/bookings/batch', { ids: [booking.id] });
  expect(batch.status).toBe(400);
  expect(
    (await client.rest(b, 'GET', `/bookings?eventId=${eventId}`)).body.metaData.totalResults,
  ).toBe(0);
  const mine = await client.rest(a, 'GET', `/bookings/${booking.id}`);
  expect(mine.body.data).toMatchObject({ status: 'confirmed', booker: { lastname: 'Lovelace' } });
  // the organiser's routes need a key
  expect(
    (
      await client.rest(a, 'GET', `/bookings/${booking.id}`, undefined, {
        Authorization: undefined,
      })
    ).status,
  ).toBe(401);
});

it('BK3-BK9, BK12-BK15: the organiser lists, reads, links a person, pays, cancels, deletes', async () => {
  const { eventId, typeId } = await bookableEvent(a, {}, { title: 'Organised' });
  const booking = (await publicBooking(a, eventId, typeId, 2)).body.data;
  const list = await client.rest(a, 'GET', `/bookings?eventId=${eventId}&q=lovelace`);
  expect(list.status).toBe(200);
  expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([booking.id]);
  expect((await client.rest(a, 'GET', `/bookings/${booking.id}`)).body.data.tickets).toHaveLength(
    2,
  );

  const person = await client.rest(a, 'POST', '/people', {
    firstname: 'Ada',
    lastname: 'Lovelace',
  });
  expect(person.status).toBe(201);
  const linked = await client.rest(a, 'PUT', `/bookings/${booking.id}/booker`, {
    personId: person.body.data.id,
    information: { vip: true },
  });
  expect(linked.status).toBe(200);
  expect(linked.body.data.booker.personId).toBe(person.body.data.id);
  const unknown = await client.rest(a, 'PUT', `/bookings/${booking.id}/booker`, {
    personId: randomUUID(),
  });
  expect(unknown.status).toBe(400);
  expect(unknown.body.errors[0]).toMatchObject({ field: 'personId', rule: 'unknownPerson' });

  const paid = await client.rest(a, 'PUT', `/bookings/${booking.id}/payment-status`, {
    paymentStatus: 'paid',
  });
  expect(paid.body.data.paymentStatus).toBe('paid');
  const back = await client.rest(a, 'PUT', `/bookings/${booking.id}/payment-status`, {
    paymentStatus: 'open',
  });
  expect(back.status).toBe(409);

  const rules = await client.rest(a, 'GET', `/bookings/${booking.id}/cancellation-rules`);
  expect(rules.body.data).toMatchObject({
    total: '238.00',
    fee: '0.00',
    refund: '238.00',
    rule: 'free',
  });
  const cancelled = await client.rest(a, 'POST', `/bookings/${booking.id}/cancel`, {
    reason: 'Changed plans',
  });
  expect(cancelled.status).toBe(200);
  expect(cancelled.body.data).toMatchObject({ status: 'cancelled', refundAmount: '238.00' });
  expect((await client.rest(a, 'POST', `/bookings/${booking.id}/cancel`, {})).status).toBe(409);

  const stats = await client.rest(a, 'GET', `/bookings/events/${eventId}/statistics`);
  expect(stats.body.data.days).toEqual([
    expect.objectContaining({ booked: 1, cancelled: 1, tickets: 2, revenueGross: '0.00' }),
  ]);
  const history = await client.rest(a, 'GET', `/bookings/events/${eventId}/history`);
  expect(history.body.data.map((h: { action: string }) => h.action)).toEqual([
    'cancelled',
    'payment-status-changed',
    'booker-changed',
    'created',
  ]);
  const check = await client.rest(a, 'POST', `/bookings/${booking.id}/consistency-check`);
  expect(check.body.data).toMatchObject({ consistent: true, problems: [] });

  expect((await client.rest(a, 'DELETE', `/bookings/${booking.id}`)).status).toBe(409); // invoiced
  const free = await bookableEvent(a, { price: '0' });
  const one = (await publicBooking(a, free.eventId, free.typeId)).body.data;
  const two = (await publicBooking(a, free.eventId, free.typeId)).body.data;
  expect((await client.rest(a, 'DELETE', `/bookings/${one.id}`)).status).toBe(200);
  const batch = await client.rest(a, 'DELETE', '/bookings/batch', { ids: [two.id] });
  expect(batch.body.data).toEqual({ ids: [two.id] });
  expect((await client.rest(a, 'GET', `/bookings/${two.id}`)).status).toBe(404);
});

it('GraphQL: Booking.event resolves from events, Booking.bookerPerson from crm-people', async () => {
  const { eventId, typeId } = await bookableEvent(a, {}, { title: 'Federated' });
  const booking = (await publicBooking(a, eventId, typeId)).body.data;
  const person = await client.rest(a, 'POST', '/people', {
    firstname: 'Grace',
    lastname: 'Hopper',
  });
  await client.rest(a, 'PUT', `/bookings/${booking.id}/booker`, { personId: person.body.data.id });
  const res = await client.graphql(
    a,
    `query($id: ID!) { booking(id: $id) { id totalGross event { id title } bookerPerson { id firstname }
       tickets { participant { firstname } } } }`,
    { id: booking.id },
  );
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.booking).toEqual({
    id: booking.id,
    totalGross: '119.00',
    event: { id: eventId, title: 'Federated' },
    bookerPerson: { id: person.body.data.id, firstname: 'Grace' },
    tickets: [{ participant: { firstname: 'P0' } }],
  });
  const foreign = await client.graphql(b, `query($id: ID!) { booking(id: $id) { id } }`, {
    id: booking.id,
  });
  expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
  const cancel = await client.graphql(
    a,
    `mutation($id: ID!) { cancelBooking(id: $id) { status } }`,
    {
      id: booking.id,
    },
  );
  expect(cancel.body.data.cancelBooking.status).toBe('cancelled');
});

it('BK22, BK23 (issue 20): the booker cancels a ticket without a key, the organiser the last over GraphQL; an unpaid booking owes its fee', async () => {
  // 50 % until 7 days before the start (the event is in 30 days)
  const condition = await client.rest(a, 'POST', '/event-settings/cancellation-conditions', {
    text: 'Half',
    data: { tiers: [{ daysBeforeStart: 7, feePercent: 50, feeFixed: '0' }] },
  });
  expect(condition.status).toBe(201);
  const { eventId, typeId } = await bookableEvent(
    a,
    {},
    { cancellationConditionId: condition.body.data.id },
  );
  const booking = (await publicBooking(a, eventId, typeId, 2)).body.data;
  const [first, second] = booking.tickets.map((x: { id: string }) => x.id);
  const cancelPublic = (tenant: TestTenant, body: Record<string, unknown>) =>
    client.raw(`/v1/crm/bookings/public/${booking.id}/tickets/cancel`, {
      method: 'POST',
      headers: { ...tenantHeaders(tenant.id), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect(
    (await cancelPublic(b, { token: booking.confirmationToken, ticketIds: [first] })).status,
  ).toBe(404);
  expect((await cancelPublic(a, { token: 'nope', ticketIds: [first] })).status).toBe(404);
  const mine = await cancelPublic(a, { token: booking.confirmationToken, ticketIds: [first] });
  expect(mine.status).toBe(200);
  // unpaid: no refund, the fee (59.50) owed beside the ticket still booked (119.00)
  expect(mine.body.data).toMatchObject({
    fee: '59.50',
    refund: '0.00',
    feeDue: '59.50',
    amountDue: '178.50',
    paymentStatus: 'open',
    bookingCancelled: false,
  });
  const foreign = await client.graphql(
    b,
    `mutation($id: ID!, $t: [ID!]!) { cancelBookingTickets(id: $id, input: { ticketIds: $t }) { fee } }`,
    { id: booking.id, t: [second] },
  );
  expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
  const last = await client.graphql(
    a,
    `mutation($id: ID!, $t: [ID!]!) { cancelBookingTickets(id: $id, input: { ticketIds: $t }) {
       fee refund paymentStatus bookingCancelled booking { status amountDue refundAmount } } }`,
    { id: booking.id, t: [second] },
  );
  expect(last.body.errors).toBeUndefined();
  expect(last.body.data.cancelBookingTickets).toEqual({
    fee: '59.50',
    refund: '0.00',
    paymentStatus: 'fee_due',
    bookingCancelled: true,
    booking: { status: 'cancelled', amountDue: '119.00', refundAmount: '0.00' },
  });
  const settled = await client.rest(a, 'PUT', `/bookings/${booking.id}/payment-status`, {
    paymentStatus: 'paid',
  });
  expect(settled.body.data).toMatchObject({ paymentStatus: 'paid', amountDue: '0.00' });
});

it('BK18-BK21: the event’s sale terms reach bookings; a visitor holds seats without a key and books them; an unpaid booking past its deadline is cancelled', async () => {
  const { eventId, typeId } = await bookableEvent(
    a,
    { quota: 2 },
    { holdMinutes: 5, paymentDeadlineHours: 72, paymentReminderHours: 24 },
  );
  const visitor = { ...tenantHeaders(a.id), 'Content-Type': 'application/json' };
  const before = Date.now();
  const held = await client.raw('/v1/crm/bookings/public/holds', {
    method: 'POST',
    headers: visitor,
    body: JSON.stringify({ eventId, tickets: [{ ticketTypeId: typeId, count: 2 }] }),
  });
  expect(held.status).toBe(201);
  const hold = held.body.data;
  // the event's hold time, set at events, came over with its snapshot
  expect(Date.parse(hold.expiresAt) - before).toBeGreaterThan(4.9 * 60_000);
  expect(Date.parse(hold.expiresAt) - before).toBeLessThan(5.1 * 60_000);
  // both seats are held: nobody else gets one
  expect((await publicBooking(a, eventId, typeId, 1)).status).toBe(409);
  // another tenant sees nothing of the hold
  const foreign = await client.raw(`/v1/crm/bookings/public/holds/${hold.token}`, {
    headers: tenantHeaders(b.id),
  });
  expect(foreign.status).toBe(404);

  const booked = await client.raw('/v1/crm/bookings/public', {
    method: 'POST',
    headers: visitor,
    body: JSON.stringify({
      eventId,
      holdToken: hold.token,
      booker: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.org' },
      tickets: [{ ticketTypeId: typeId, participant: { firstname: 'Ada', lastname: 'Lovelace' } }],
    }),
  });
  expect(booked.status).toBe(201);
  const booking = booked.body.data;
  const due = Date.parse(booking.paymentDueAt) - before;
  expect(due).toBeGreaterThan(71.9 * 3600_000);
  expect(due).toBeLessThan(72.1 * 3600_000);
  const after = await client.raw(`/v1/crm/bookings/public/holds/${hold.token}`, {
    headers: tenantHeaders(a.id),
  });
  expect(after.body.data).toMatchObject({ status: 'confirmed', bookingId: booking.id });
  // the held seat the booking did not take is on sale again
  const second = await publicBooking(a, eventId, typeId, 1);
  expect(second.status).toBe(201);

  // the organiser moves the first booking's deadline; past it, the booking is cancelled
  const moved = await client.rest(a, 'PUT', `/bookings/${booking.id}/payment-deadline`, {
    paymentDueAt: new Date(Date.now() + 1500).toISOString(),
  });
  expect(moved.status).toBe(200);
  await eventually(async () => {
    const read = await client.rest(a, 'GET', `/bookings/${booking.id}`);
    expect(read.body.data).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'cancelled',
      refundAmount: '0.00',
    });
  }, 20000);
  expect((await publicBooking(a, eventId, typeId, 1)).status).toBe(201);
});

it('WL1-WL6: the offer minutes reach bookings; a visitor joins a sold-out type without a key, a cancelled seat is offered as a hold and booked; the organiser sees the list over REST and GraphQL', async () => {
  const { eventId, typeId } = await bookableEvent(
    a,
    { quota: 1, price: '0' },
    { waitingListOfferMinutes: 45 },
  );
  const visitor = { ...tenantHeaders(a.id), 'Content-Type': 'application/json' };
  const first = await publicBooking(a, eventId, typeId, 1);
  expect(first.status).toBe(201);
  const joined = await client.raw(`/v1/crm/bookings/public/events/${eventId}/waiting-list`, {
    method: 'POST',
    headers: visitor,
    body: JSON.stringify({
      ticketTypeId: typeId,
      quantity: 1,
      email: 'wanda@example.org',
      firstname: 'Wanda',
      lastname: 'Wait',
    }),
  });
  expect(joined.status).toBe(201);
  expect(joined.body.data).toMatchObject({ status: 'waiting', position: 1 });
  const token = joined.body.data.token;
  const foreign = await client.raw(`/v1/crm/bookings/public/waiting-list/${token}`, {
    headers: tenantHeaders(b.id),
  });
  expect(foreign.status).toBe(404);

  const list = await client.rest(a, 'GET', `/bookings/events/${eventId}/waiting-list`);
  expect(list.status).toBe(200);
  expect(list.body.data).toEqual([
    expect.objectContaining({ email: 'wanda@example.org', position: 1, status: 'waiting' }),
  ]);
  const gql = await client.graphql(
    a,
    `query($eventId: ID!) { waitingList(eventId: $eventId) { id position status } }`,
    { eventId },
  );
  expect(gql.body.data.waitingList).toEqual([
    { id: list.body.data[0].id, position: 1, status: 'waiting' },
  ]);

  const before = Date.now();
  expect((await client.rest(a, 'POST', `/bookings/${first.body.data.id}/cancel`, {})).status).toBe(
    200,
  );
  let offer: { holdToken: string; expiresAt: string } | null = null;
  await eventually(async () => {
    const read = await client.raw(`/v1/crm/bookings/public/waiting-list/${token}`, {
      headers: tenantHeaders(a.id),
    });
    expect(read.body.data.status).toBe('offered');
    offer = read.body.data.offer;
  }, 20000);
  // the offer time, set at events, came over with the event's snapshot
  const minutes = (Date.parse(offer!.expiresAt) - before) / 60_000;
  expect(minutes).toBeGreaterThan(44.9);
  expect(minutes).toBeLessThan(45.2);
  expect((await publicBooking(a, eventId, typeId, 1)).status).toBe(409);
  const booked = await client.raw('/v1/crm/bookings/public', {
    method: 'POST',
    headers: visitor,
    body: JSON.stringify({
      eventId,
      holdToken: offer!.holdToken,
      booker: { firstname: 'Wanda', lastname: 'Wait', email: 'wanda@example.org' },
      tickets: [{ ticketTypeId: typeId, participant: { firstname: 'Wanda', lastname: 'Wait' } }],
    }),
  });
  expect(booked.status).toBe(201);
  const after = await client.rest(a, 'GET', `/bookings/events/${eventId}/waiting-list`);
  expect(after.body.data[0]).toMatchObject({ status: 'booked', bookingId: booked.body.data.id });
});
