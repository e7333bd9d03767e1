import { randomUUID } from 'node:crypto';
import { tenantHeaders, type TestAnswer } from '@crm/testing';
import { BookingTestKit } from './test/booking-test-kit';

// BK1-BK9, BK12-BK15 with hostile input of every shape: each answer a 4xx envelope naming the
// problem (or a 404 for ids), never a 5xx, and nothing written by a refused request.

jest.setTimeout(120000);

let t: BookingTestKit;
let eventId: string;
let typeId: string;
let bookingId: string;
let token: string;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_bookings_bad_input');
  eventId = await t.event(t.A, {}, [
    { key: 'company', type: 'text', required: false },
    { key: 'size', type: 'select', options: ['S', 'M'] },
  ]);
  typeId = await t.ticketType(eventId, { quota: 100000 });
  const booking = await t.booked(eventId, [{ ticketTypeId: typeId }]);
  bookingId = booking.id;
  token = booking.confirmationToken;
}, 60000);
afterAll(async () => t?.close());

const long = 'x'.repeat(100_000);
const deep = JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200));
const values: unknown[] = [
  null,
  true,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  long,
  '\u0000',
  [],
  [1, 2],
  {},
  deep,
  'NaN',
  '2030-13-45T00:00:00Z',
  { __proto__: { x: 1 } },
  [{ ticketTypeId: null }],
];

/** Problems of an answer: a 5xx, or a 4xx that is no error envelope. */
const wrong = (what: string, res: TestAnswer) =>
  res.status >= 500 || (res.status >= 400 && (res.body?.data !== null || !res.body?.message))
    ? [`${what}: ${res.status} ${res.text.slice(0, 120)}`]
    : [];

const valid = () => t.body(eventId, [{ ticketTypeId: typeId }]);

it('answers every malformed field of BK1 with a 4xx envelope, writing nothing', async () => {
  const before = await t.count('Booking');
  const bad: string[] = [];
  const setters: [string, (body: Record<string, unknown>, v: unknown) => void][] = [
    ['eventId', (b, v) => (b.eventId = v)],
    ['booker', (b, v) => (b.booker = v)],
    ['booker.firstname', (b, v) => ((b.booker as Record<string, unknown>).firstname = v)],
    ['booker.email', (b, v) => ((b.booker as Record<string, unknown>).email = v)],
    ['tickets', (b, v) => (b.tickets = v)],
    ['tickets[0]', (b, v) => ((b.tickets as unknown[])[0] = v)],
    [
      'tickets[0].ticketTypeId',
      (b, v) => ((b.tickets as Record<string, unknown>[])[0].ticketTypeId = v),
    ],
    [
      'tickets[0].participant',
      (b, v) => ((b.tickets as Record<string, unknown>[])[0].participant = v),
    ],
    [
      'tickets[0].participant.email',
      (b, v) =>
        ((
          (b.tickets as Record<string, unknown>[])[0].participant as Record<string, unknown>
        ).email = v),
    ],
    ['answers', (b, v) => (b.answers = v)],
    ['answers.size', (b, v) => (b.answers = { size: v })],
    ['invitationToken', (b, v) => (b.invitationToken = v)],
    ['websiteId', (b, v) => (b.websiteId = v)],
    ['__proto__', (b, v) => (b.__proto__ = v)],
    ['constructor', (b, v) => ((b as Record<string, unknown>)['constructor'] = v)],
    ['unknown', (b, v) => (b.sold = v)],
  ];
  for (const [field, set] of setters) {
    for (const value of values) {
      const body = valid() as Record<string, unknown>;
      set(body, value);
      const res = await t.call('POST', '/bookings/public', body);
      bad.push(...wrong(`${field}=${JSON.stringify(value)?.slice(0, 30)}`, res));
      if (res.status === 201)
        await t.sql(`DELETE FROM "Booking" WHERE id = $1`, [res.body.data.id]);
    }
  }
  const tooMany = await t.call(
    'POST',
    '/bookings/public',
    t.body(eventId, [{ ticketTypeId: typeId, n: 101 }]),
  );
  expect(tooMany.status).toBe(400);
  expect(tooMany.body.errors[0]).toMatchObject({ field: 'tickets', rule: 'arrayMaxSize' });
  for (const key of ['', ' ', 'k'.repeat(201)]) {
    const res = await t.call('POST', '/bookings/public', valid(), t.A, { 'Idempotency-Key': key });
    bad.push(...wrong(`Idempotency-Key=${key.slice(0, 10)}`, res));
    if (res.status === 201) await t.sql(`DELETE FROM "Booking" WHERE id = $1`, [res.body.data.id]);
  }
  expect(bad).toEqual([]);
  // a name of blanks is no name
  const blank = valid();
  blank.booker.firstname = ' ';
  blank.tickets[0].participant.lastname = '\t';
  const res = await t.call('POST', '/bookings/public', blank);
  expect(res.status).toBe(400);
  expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
    'booker.firstname',
    'tickets[0].participant.lastname',
  ]);
  expect((await t.call('PUT', `/bookings/${bookingId}/booker`, { lastname: ' ' })).status).toBe(
    400,
  );
  expect(await t.count('Booking')).toBe(before);
});

it('answers bodies that are not objects and bad JSON with a 4xx', async () => {
  for (const body of [null, [], 'text', 42, [valid()]]) {
    const res = await t.call('POST', '/bookings/public', body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
  const raw = await t.api.restAs(t.A, 'POST', '/bookings/public', undefined, {
    'Content-Type': 'application/json',
  });
  expect(raw.status).toBeLessThan(500);
  const broken = await t.api.rest(
    'POST',
    '/bookings/public',
    new Uint8Array(Buffer.from('{"eventId":')),
    {
      ...tenantHeaders(t.A),
      'Content-Type': 'application/json',
    },
  );
  expect(broken.status).toBe(400);
});

it('answers malformed organiser input with a 4xx, and a refused request changes nothing', async () => {
  const state = () =>
    t.sql(
      `SELECT b.*, (SELECT json_agg(t ORDER BY t.id) FROM "EventTicket" t WHERE t."bookingId" = b.id) AS tickets
         FROM "Booking" b WHERE b."tenantId" = $1 ORDER BY b.id`,
      [t.A],
    );
  const bad: string[] = [];
  for (const value of values) {
    for (const [method, path, body] of [
      ['PUT', `/bookings/${bookingId}/booker`, { firstname: value }],
      ['PUT', `/bookings/${bookingId}/booker`, { email: value }],
      ['PUT', `/bookings/${bookingId}/booker`, { personId: value }],
      ['PUT', `/bookings/${bookingId}/booker`, { information: value }],
      ['PUT', `/bookings/${bookingId}/booker`, value],
      ['PUT', `/bookings/${bookingId}/payment-status`, { paymentStatus: value }],
      ['PUT', `/bookings/${bookingId}/payment-status`, { paymentStatus: 'paid', note: value }],
      ['POST', `/bookings/${bookingId}/cancel`, { reason: value === null ? 1 : value }],
      ['POST', `/bookings/${bookingId}/cancel`, { waiveFee: value }],
      // BK22, BK23: a ticket no booking has, so that a value that passes changes nothing either
      ['POST', `/bookings/${bookingId}/tickets/cancel`, { ticketIds: value }],
      ['POST', `/bookings/${bookingId}/tickets/cancel`, { ticketIds: [value] }],
      ['POST', `/bookings/${bookingId}/tickets/cancel`, value],
      [
        'POST',
        `/bookings/${bookingId}/tickets/cancel`,
        { ticketIds: [randomUUID()], reason: value === null ? 1 : value },
      ],
      [
        'POST',
        `/bookings/${bookingId}/tickets/cancel`,
        { ticketIds: [randomUUID()], waiveFee: value },
      ],
      ['POST', `/bookings/public/${bookingId}/tickets/cancel`, { token: value, ticketIds: [] }],
      [
        'POST',
        `/bookings/public/${bookingId}/tickets/cancel`,
        { token: value, ticketIds: [randomUUID()] },
      ],
      ['POST', `/bookings/public/${bookingId}/tickets/cancel`, { token, ticketIds: value }],
      ['POST', `/bookings/public/${bookingId}/tickets/cancel`, { token, ticketIds: [value] }],
      ['POST', `/bookings/public/${bookingId}/tickets/cancel`, value],
      ['DELETE', '/bookings/batch', { ids: value }],
      ['DELETE', '/bookings/batch', { ids: [value] }],
      ['DELETE', '/bookings/batch', value],
    ] as [string, string, unknown][]) {
      const before = await state();
      const res = await t.call(method, path, body);
      const what = `${method} ${path.split('/').pop()} ${JSON.stringify(body)?.slice(0, 40)}`;
      bad.push(...wrong(what, res));
      if (res.status >= 400) {
        expect({ what, rows: await state() }).toEqual({ what, rows: before });
      }
    }
  }
  expect(bad).toEqual([]);
});

it('answers hostile queries and ids with 400 or 404', async () => {
  // a live booking (the one above may be cancelled by now): BK7 quotes of unknown tickets are 404
  const live = (await t.booked(eventId, [{ ticketTypeId: typeId }])).id;
  const queries = [
    '/bookings?eventId=not-a-uuid',
    '/bookings?page=0',
    '/bookings?pageSize=100000',
    '/bookings?sort=secret',
    '/bookings?status=lost',
    '/bookings?paymentStatus=free',
    `/bookings?q=${'%25'.repeat(300)}`,
    `/bookings?eventId=${eventId}&eventId=${eventId}`,
    `/bookings/events/${eventId}/statistics?from=yesterday`,
    `/bookings/events/${eventId}/statistics?to=2030-02-30`,
    `/bookings/events/${eventId}/statistics?from=2030-01-01T00:00:00Z`,
    `/bookings/events/${eventId}/history?action=stolen`,
    `/bookings/events/${eventId}/history?bookingId=1`,
    `/bookings/events/${eventId}/history?pageSize=0`,
    `/bookings/events/not-a-uuid/statistics`,
    `/bookings/events/${randomUUID()}/history`,
    `/bookings/public/${bookingId}/confirmation?token=${'a'.repeat(5000)}`,
    `/bookings/public/${bookingId}/confirmation?token=a&token=b`,
    `/bookings/public/not-a-uuid/confirmation?token=a`,
    `/bookings/${live}/cancellation-rules?ticketIds=nope`,
    `/bookings/${live}/cancellation-rules?ticketIds=`,
    `/bookings/${live}/cancellation-rules?ticketIds=${randomUUID()}`,
    `/bookings/${live}/cancellation-rules?ticketIds=${randomUUID()}&ticketIds=x`,
    `/bookings/${live}/cancellation-rules?ticketIds=${`${randomUUID()},`.repeat(101)}`,
  ];
  const bad: string[] = [];
  for (const q of queries) {
    const res = await t.call('GET', q);
    if (![400, 404].includes(res.status)) bad.push(`${q.slice(0, 80)}: ${res.status}`);
    bad.push(...wrong(q.slice(0, 80), res));
  }
  for (const id of [
    '1',
    'null',
    "'; DROP TABLE x;--",
    randomUUID().toUpperCase(),
    'a'.repeat(5000),
  ]) {
    for (const [method, path] of [
      ['GET', ''],
      ['DELETE', ''],
      ['GET', '/cancellation-rules'],
      ['POST', '/cancel'],
      ['POST', '/tickets/cancel'],
      ['PUT', '/booker'],
      ['PUT', '/payment-status'],
      ['POST', '/consistency-check'],
    ]) {
      const body =
        method === 'PUT'
          ? path === '/booker'
            ? { lastname: 'X' }
            : { paymentStatus: 'paid' }
          : path === '/tickets/cancel'
            ? { ticketIds: [randomUUID()] }
            : undefined;
      const res = await t.call(method, `/bookings/${encodeURIComponent(id)}${path}`, body);
      if (![400, 404].includes(res.status))
        bad.push(`${method} ${id.slice(0, 20)}${path}: ${res.status}`);
    }
  }
  expect(bad).toEqual([]);
});

it('answers malformed GraphQL input with errors, never INTERNAL', async () => {
  const bad: string[] = [];
  const ops: [string, Record<string, unknown>][] = [
    [
      `mutation($input: CreateBookingInput!) { createBooking(input: $input) { id } }`,
      { input: { ...valid(), answers: { size: 'XL', extra: { a: [1] } } } },
    ],
    [
      `mutation($input: CreateBookingInput!) { createBooking(input: $input) { id } }`,
      { input: { ...valid(), tickets: [] } },
    ],
    [
      `mutation { createBooking(input: { eventId: "x", booker: { firstname: "", lastname: "", email: "" }, tickets: [], answers: { a: $x } }) { id } }`,
      {},
    ],
    [
      `mutation($id: ID!) { setBookingBooker(id: $id, input: { information: { a: "${'y'.repeat(17000)}" } }) { id } }`,
      { id: bookingId },
    ],
    [
      `mutation($id: ID!) { setBookingPaymentStatus(id: $id, input: { paymentStatus: "nope" }) { id } }`,
      { id: bookingId },
    ],
    [`mutation { deleteBookings(ids: ["x", "y"]) { ids } }`, {}],
    [`query { bookingStatistics(eventId: "nope", from: "x") { timeZone } }`, {}],
    [
      `query { bookingHistory(eventId: "${eventId}", action: "x", pageSize: 0) { totalResults } }`,
      {},
    ],
    [`query { bookings(sort: "secret") { totalResults } }`, {}],
    [`mutation { checkBookingConsistency(id: "1") { consistent } }`, {}],
    [
      `mutation($id: ID!) { cancelBookingTickets(id: $id, input: { ticketIds: ["x"] }) { fee } }`,
      { id: bookingId },
    ],
    [
      `mutation($id: ID!) { cancelBookingTickets(id: $id, input: { ticketIds: [], reason: "${'r'.repeat(1001)}" }) { fee } }`,
      { id: bookingId },
    ],
    [
      `mutation($id: ID!) { cancelBookingTicketsWithToken(id: $id, token: "${'t'.repeat(300)}", ticketIds: ["x"]) { fee } }`,
      { id: bookingId },
    ],
    [
      `mutation($id: ID!, $t: String!) { cancelBookingTicketsWithToken(id: $id, token: $t, ticketIds: []) { fee } }`,
      { id: bookingId, t: token },
    ],
    [
      `query($id: ID!) { bookingCancellationRules(id: $id, ticketIds: ["nope"]) { fee } }`,
      { id: bookingId },
    ],
  ];
  for (const [query, variables] of ops) {
    const res = await t.gql(query, variables);
    const errors = (res.body?.errors ?? []) as { extensions?: { code?: string } }[];
    if (
      res.status >= 500 ||
      !errors.length ||
      errors.some((e) => e.extensions?.code === 'INTERNAL')
    ) {
      bad.push(`${query.slice(0, 60)}: ${res.status} ${res.text.slice(0, 200)}`);
    }
  }
  expect(bad).toEqual([]);
});
