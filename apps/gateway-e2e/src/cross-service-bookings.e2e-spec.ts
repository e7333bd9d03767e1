import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { tenantHeaders } from '@crm/testing';
import {
  Answer,
  BOOKING_SERVICES,
  Client,
  eventually,
  inDays,
  startIsolatedClient,
  TestTenant,
} from './client';

// The flows between the services through the gateway: an event set up at events (booking form
// field set, ticket type at bookings-invitations, the publication check asking
// bookings-invitations), a public booking answered against the form's fields that events sent
// over, the booker made a known person (BK9), the event deleted: the booking cancelled without a
// fee, its tickets revoked, a touchpoint on the person's timeline in crm-people and the webhooks
// booking.created and booking.cancelled at a real receiver. The tariff module `bookings` closes
// every bookings-invitations route of a tenant without it. A nats-server of its own
// (startIsolatedClient): no other stack answers its requests or takes its stream.

jest.setTimeout(120000);

interface Hit {
  headers: Record<string, string>;
  body: string;
}

let client: Client;
let a: TestTenant;
let b: TestTenant;
let server: http.Server;
const hits: Hit[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  client = await startIsolatedClient('crossbookings', BOOKING_SERVICES, {
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_WORKER_POLL_MS: '100',
  });
  a = await client.tenant();
  b = await client.tenant();
}, 180000);
afterAll(async () => {
  await client?.stack.shutdown();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
}, 30000);

/** The data of an answer with the expected status; anything else fails with the answer. */
const ok = (res: Answer, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
};

/** BK1 as a visitor: the tenant headers, no key. */
const bookPublic = (t: TestTenant, body: object) =>
  client.raw('/v1/crm/bookings/public', {
    method: 'POST',
    headers: tenantHeaders(t.id),
    body: JSON.stringify(body),
  });

it('book, make the booker a known person, delete the event: booking cancelled, tickets revoked, touchpoint and webhooks', async () => {
  const hook = ok(
    await client.rest(a, 'POST', '/integrations/webhooks', {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      eventTypes: ['booking.created', 'booking.cancelled'],
    }),
    201,
    'webhook',
  );
  const person = ok(
    await client.rest(a, 'POST', '/people', { firstname: 'Grace', lastname: 'Hopper' }),
    201,
    'person',
  );
  const set = ok(
    await client.rest(a, 'POST', '/event-settings/booking-form-field-sets', {
      text: 'Dietary needs',
      data: { fields: [{ key: 'diet', label: 'Diet', type: 'text', required: true }] },
    }),
    201,
    'field set',
  );
  const website = ok(
    await client.rest(a, 'POST', '/websites', {
      name: 'Portal',
      url: `https://portal-${a.id}.example/`,
    }),
    201,
    'website',
  );
  const event = ok(
    await client.rest(a, 'POST', '/events', {
      title: 'Harbour gala',
      startsAt: inDays(30, 18),
      endsAt: inDays(30, 22),
      timeZone: 'Europe/Berlin',
      venue: { name: 'Pier 1', city: 'Hamburg', country: 'DE' },
      capacity: 50,
      taxRateId: 'de-standard',
      status: 'scheduled',
      bookingFormFieldSetId: (set[0] ?? set).id,
    }),
    201,
    'event',
  );

  // the publication check asks bookings-invitations: no ticket type yet
  const refused = await client.rest(a, 'PUT', `/events/${event.id}/publication`, {
    published: true,
    websiteIds: [website.id],
  });
  expect(refused.status).toBe(409);
  expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['ticketTypes']);
  const ticketType = ok(
    await client.rest(a, 'POST', '/tickets', {
      eventId: event.id,
      name: 'Standard',
      price: '119',
      currency: 'EUR',
      quota: 10,
    }),
    201,
    'ticket type',
  );
  ok(
    await client.rest(a, 'PUT', `/events/${event.id}/publication`, {
      published: true,
      websiteIds: [website.id],
    }),
    200,
    'publish',
  );

  const booking = (answers: object) => ({
    eventId: event.id,
    booker: { firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.org' },
    tickets: [1, 2].map((n) => ({
      ticketTypeId: ticketType.id,
      participant: { firstname: `Guest${n}`, lastname: 'Hopper' },
    })),
    answers,
  });
  // the form's fields came over with the event's snapshot: a missing answer names the field
  await eventually(async () => {
    const missing = await bookPublic(a, booking({}));
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('answers.diet');
  }, 20000);
  const booked = ok(await bookPublic(a, booking({ diet: 'vegetarian' })), 201, 'booking');
  expect(booked.booker.personId).toBeNull();

  // BK9: the booker is a person of the CRM (crm-people confirms the id)
  const unknown = await client.rest(a, 'PUT', `/bookings/${booked.id}/booker`, {
    personId: '00000000-0000-4000-8000-000000000001',
  });
  expect(unknown.status).toBe(400);
  ok(
    await client.rest(a, 'PUT', `/bookings/${booked.id}/booker`, { personId: person.id }),
    200,
    'BK9',
  );
  // the booking resolves its person from crm-people and its event from events (federation)
  const graph = await client.graphql(
    a,
    `query($id: ID!) { booking(id: $id) { bookerPerson { id lastname } event { id title } } }`,
    { id: booked.id },
  );
  expect(graph.body).toEqual({
    data: {
      booking: {
        bookerPerson: { id: person.id, lastname: 'Hopper' },
        event: { id: event.id, title: 'Harbour gala' },
      },
    },
  });
  // another tenant sees neither the booking nor the person
  expect((await client.rest(b, 'GET', `/bookings/${booked.id}`)).status).toBe(404);

  ok(await client.rest(a, 'DELETE', `/events/${event.id}`), 200, 'delete event');
  await eventually(async () => {
    const read = ok(await client.rest(a, 'GET', `/bookings/${booked.id}`), 200, 'BK4');
    // nothing was paid (the booking was open): no fee, nothing refunded, nothing owed
    expect(read).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'cancelled',
      cancellationFee: '0.00',
      refundAmount: '0.00',
      amountDue: '0.00',
    });
    expect(read.tickets.map((t: { status: string }) => t.status)).toEqual([
      'cancelled',
      'cancelled',
    ]);
  }, 20000);
  // the ticket types went with the event; a booking for it is refused
  expect((await client.rest(a, 'GET', `/tickets/${ticketType.id}`)).status).toBe(404);
  expect([400, 404, 409]).toContain((await bookPublic(a, booking({ diet: 'none' }))).status);

  // crm-people: the booking (linked by BK9, at its booking time) and its cancellation are on the
  // person's timeline, in the booker's words
  await eventually(async () => {
    const timeline = ok(
      await client.rest(a, 'GET', `/touchpoints?personId=${person.id}&sort=start`),
      200,
      'touchpoints',
    );
    expect(timeline).toEqual([
      expect.objectContaining({ type: 'event-booking', subject: 'Booked: Harbour gala' }),
      expect.objectContaining({
        type: 'event-booking-cancelled',
        subject: 'Booking cancelled: Harbour gala',
      }),
    ]);
  }, 20000);
  expect(
    ok(await client.rest(b, 'GET', `/touchpoints?personId=${person.id}`), 200, 'B touchpoints'),
  ).toEqual([]);

  // the webhooks arrived, signed
  await eventually(async () => expect(hits.length).toBeGreaterThanOrEqual(2), 20000);
  const payloads = hits.map(
    (h) =>
      new Webhook(hook.secret).verify(h.body, {
        'webhook-id': h.headers['webhook-id'],
        'webhook-timestamp': h.headers['webhook-timestamp'],
        'webhook-signature': h.headers['webhook-signature'],
      }) as { type: string; data: Record<string, unknown> },
  );
  expect(payloads.map((p) => [p.type, p.data.bookingId, p.data.personId]).sort()).toEqual([
    ['booking.cancelled', booked.id, person.id],
    ['booking.created', booked.id, null],
  ]);
  expect(payloads.find((p) => p.type === 'booking.cancelled')!.data).toMatchObject({
    reason: 'event-deleted',
    eventTitle: 'Harbour gala',
    cancellationFee: '0.00',
  });
});

it('a tenant whose tariff lacks `bookings` gets 403 on every bookings-invitations route, REST and GraphQL', async () => {
  const t = await client.tenant('professional');
  for (const p of [
    '/tickets?eventId=00000000-0000-4000-8000-000000000001',
    '/bookings',
    '/invitations',
    '/event-tickets',
  ]) {
    const res = await client.rest(t, 'GET', p);
    expect([p, res.status]).toEqual([p, 403]);
    expect(res.body.message).toContain('bookings');
  }
  const gql = await client.graphql(t, `{ bookings { totalResults } }`);
  expect(gql.body.errors[0].extensions).toMatchObject({ statusCode: 403 });
  // the events module of the same tariff stays open
  expect((await client.rest(t, 'GET', '/events')).status).toBe(200);
});
