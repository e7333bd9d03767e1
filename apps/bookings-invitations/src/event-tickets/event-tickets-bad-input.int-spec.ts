import { randomUUID } from 'node:crypto';
import { TicketTestKit } from '../ticket-types/test/ticket-test-kit';
import { book, ticketedEvent } from './test/event-ticket-fixtures';

// ET1-ET13 with hostile input of every shape: each answer a 4xx envelope naming the problem (or
// a 404 for ids), never a 5xx, and no ticket, check-in or mail written.

jest.setTimeout(120000);

let t: TicketTestKit;
let eventId: string;
let ticketId: string;
beforeAll(async () => {
  t = await TicketTestKit.start('bookings_invitations_it_event_tickets_bad_input');
  const ev = await ticketedEvent(t, t.A);
  eventId = ev.eventId;
  ({
    ticketIds: [ticketId],
  } = await book(t, t.A, ev, [{ firstname: 'A', lastname: 'B', email: 'a@example.com' }]));
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
  'v1.a.b.c',
  '2030-13-45T00:00:00Z',
];

const snapshot = async () => ({
  tickets: await t.sql(
    `SELECT id, status, "revokedAt", "integrationData" FROM "EventTicket" ORDER BY id`,
  ),
  checkIns: await t.count('CheckIn'),
  mails: await t.count('Mail'),
});

function badAnswers(what: string, res: { status: number; body: any }): string[] {
  const ok = res.status < 300;
  return res.status >= 500 || (!ok && (res.body?.data === undefined || !res.body?.message))
    ? [`${what}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 120)}`]
    : [];
}

it('answers every malformed field of the write operations with a 4xx envelope, writing nothing', async () => {
  const before = await snapshot();
  const bodies: [string, string, Record<string, unknown>, string[]][] = [
    ['PUT', '/event-tickets/status', { ids: [ticketId], status: 'valid' }, ['ids', 'status']],
    ['POST', '/event-tickets/resend', { ids: [ticketId] }, ['ids']],
    [
      'POST',
      '/event-tickets/mails',
      { ids: [ticketId], subject: 's', text: 't' },
      ['ids', 'subject', 'text'],
    ],
    [
      'POST',
      '/event-tickets/mails/filtered',
      { filter: { eventId }, subject: 's', text: 't' },
      ['filter', 'subject', 'text'],
    ],
    [
      'POST',
      '/event-tickets/check-in',
      { code: 'v1.a.b.c' },
      ['code', 'nonce', 'location', 'eventId'],
    ],
    [
      'PUT',
      `/event-tickets/${ticketId}/participant-information`,
      {},
      ['firstname', 'lastname', 'email', 'information'],
    ],
  ];
  const bad: string[] = [];
  for (const [method, path, valid, fields] of bodies) {
    for (const field of [...fields, '__proto__', 'constructor', 'unknown']) {
      for (const value of values) {
        const res = await t.call(method, path, { ...valid, [field]: value });
        bad.push(
          ...badAnswers(`${method} ${path} ${field}=${JSON.stringify(value)?.slice(0, 30)}`, res),
        );
      }
    }
    // nested filter fields
    if (path.endsWith('filtered')) {
      for (const f of ['eventId', 'status', 'ticketTypeId', 'checkedIn', 'other']) {
        for (const value of values) {
          const res = await t.call(method, path, { ...valid, filter: { eventId, [f]: value } });
          bad.push(...badAnswers(`filter.${f}=${JSON.stringify(value)?.slice(0, 30)}`, res));
        }
      }
    }
  }
  expect(bad).toEqual([]);
  // participant information of a valid shape is written; nothing else about the ticket changes
  for (const body of [{ information: { a: '\u0000' } }, { firstname: 'a\u0000b' }]) {
    const res = await t.call('PUT', `/event-tickets/${ticketId}/participant-information`, body);
    bad.push(...badAnswers(`participant-information ${JSON.stringify(body)}`, res));
  }
  const nul = await t.call('PUT', `/event-tickets/${ticketId}/integration-data`, { a: '\u0000' });
  bad.push(...badAnswers('integration-data NUL', nul));
  expect(bad).toEqual([]);
  const after = await snapshot();
  expect(after.tickets).toEqual(before.tickets);
  expect(after.checkIns).toBe(0);
});

it('names each bad id by index and the rule', async () => {
  const res = await t.call('PUT', '/event-tickets/status', {
    ids: [ticketId, 'nope', 7],
    status: 'cancelled',
  });
  expect(res.status).toBe(400);
  expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(
    expect.arrayContaining(['ids']),
  );
  const res2 = await t.call('PUT', '/event-tickets/status', {
    ids: [ticketId, 'nope'],
    status: 'cancelled',
  });
  expect(res2.status).toBe(400);
  expect(res2.body.errors).toEqual([expect.objectContaining({ field: 'ids[1]', rule: 'isUuid' })]);
  const many = await t.call('POST', '/event-tickets/resend', {
    ids: Array.from({ length: 1001 }, () => randomUUID()),
  });
  expect(many.status).toBe(400);
  expect(many.body.errors[0]).toMatchObject({ field: 'ids', rule: 'arrayMaxSize' });
  const de = await t.call(
    'PUT',
    '/event-tickets/status',
    { ids: [ticketId], status: 'lost' },
    t.A,
    {
      'Accept-Language': 'de',
    },
  );
  expect(de.status).toBe(400);
  expect(de.body.errors[0]).toMatchObject({ field: 'status', rule: 'isIn' });
  expect(
    (await t.sql(`SELECT status FROM "EventTicket" WHERE id = $1`, [ticketId]))[0].status,
  ).toBe('valid');
});

it('answers bodies that are not objects, bad JSON and hostile queries and ids with a 4xx', async () => {
  for (const path of [
    '/event-tickets/check-in',
    '/event-tickets/resend',
    '/event-tickets/mails',
    '/event-tickets/mails/filtered',
  ]) {
    for (const body of [null, [], 'text', 42]) {
      const res = await t.call('POST', path, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  }
  for (const body of [null, [], 'text', 42, { a: 'x'.repeat(20000) }]) {
    const res = await t.call('PUT', `/event-tickets/${ticketId}/integration-data`, body);
    expect([400, 413]).toContain(res.status);
  }
  for (const q of [
    'eventId=not-a-uuid',
    'status=lost',
    'checkedIn=yes',
    'page=0',
    'pageSize=100000',
    'sort=secret',
    `eventId=${eventId}&eventId=${eventId}`,
    `q=${'%25'.repeat(300)}`,
    'bookingId=1',
  ]) {
    const res = await t.call('GET', `/event-tickets?${q}`);
    expect(res.status).toBe(400);
  }
  for (const path of [
    '/event-tickets/summary',
    '/event-tickets/summary?eventId=x',
    `/event-tickets/summary?eventId=${randomUUID()}`,
    '/event-tickets/verification?eventId=x',
    `/event-tickets/verification?eventId=${eventId}&since=yesterday`,
    '/event-tickets/export',
    `/event-tickets/export?eventId=${eventId}&format=pdf`,
    `/event-tickets/${ticketId}/pdf?lang=fr`,
  ]) {
    const res = await t.call('GET', path);
    expect([400, 404]).toContain(res.status);
    expect(res.body.message).toEqual(expect.any(String));
  }
  for (const id of ['1', 'null', "'; DROP TABLE x;--", randomUUID(), 'a'.repeat(5000)]) {
    for (const path of [
      `/event-tickets/${encodeURIComponent(id)}`,
      `/event-tickets/${encodeURIComponent(id)}/pdf`,
    ]) {
      const res = await t.call('GET', path);
      expect([400, 404]).toContain(res.status);
    }
  }
  // a ticket id in upper case is the same ticket
  expect((await t.call('GET', `/event-tickets/${ticketId.toUpperCase()}`)).status).toBe(200);
});

it('answers hostile GraphQL arguments with errors, never INTERNAL', async () => {
  const notJson = await t.gql(
    `mutation($id: ID!) { setTicketIntegrationData(id: $id, data: "{not json") { id } }`,
    { id: ticketId },
    t.A,
    { 'Accept-Language': 'de' },
  );
  expect(notJson.body.errors[0].extensions.errors).toEqual([
    { field: 'data', rule: 'isJson', message: 'data muss JSON-Text sein' },
  ]);
  const ops = [
    [`mutation { checkIn(input: { code: "${'x'.repeat(500)}" }) { ticketId } }`, {}],
    [
      `mutation($id: ID!) { setTicketIntegrationData(id: $id, data: "[1,2]") { id } }`,
      { id: ticketId },
    ],
    [
      `mutation($id: ID!) { setTicketIntegrationData(id: $id, data: "{not json") { id } }`,
      { id: ticketId },
    ],
    [
      `mutation($id: ID!) { setParticipantInformation(id: $id, information: "7") { id } }`,
      { id: ticketId },
    ],
    [`mutation { setTicketsStatus(input: { ids: ["x"], status: "cancelled" }) { changed } }`, {}],
    [`query { eventTickets(status: "lost") { totalResults } }`, {}],
    [`query { ticketVerification(eventId: "nope") { keyId } }`, {}],
  ] as const;
  for (const [query, vars] of ops) {
    const res = await t.gql(query, vars as Record<string, unknown>);
    expect(res.body.errors?.[0]?.extensions?.code).toBeDefined();
    expect(res.body.errors[0].extensions.code).not.toBe('INTERNAL');
    expect(res.body.errors[0].extensions.code).not.toBe('INTERNAL_SERVER_ERROR');
  }
});
