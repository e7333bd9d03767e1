import { randomUUID } from 'node:crypto';
import { InvoiceTestKit } from './test/invoice-test-kit';

// BK10, BK11, BK16, BK17 with hostile input of every shape: each answer a 4xx envelope naming the
// problem (or a 404 for ids), never a 5xx, and nothing written.

jest.setTimeout(90_000);

let t: InvoiceTestKit;
let open: string; // a booking without invoice number
beforeAll(async () => {
  t = await InvoiceTestKit.start('bookings_invitations_it_invoices_bad_input');
  open = (await t.booking(t.A, { invoiceNumber: null })).id;
}, 90_000);
afterAll(async () => t?.close());

const long = 'x'.repeat(100_000);
const deep = JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200));
const values: unknown[] = [
  undefined,
  null,
  true,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  long,
  '\u0000',
  'A\u0000B',
  '../../etc/passwd',
  "'; DROP TABLE x;--",
  'ü',
  '😀',
  [],
  ['A-1'],
  {},
  { invoiceNumber: 'A-1' },
  deep,
];

const snapshot = () =>
  Promise.all([
    t.sql(`SELECT id, "invoiceNumber", "invoiceDate" FROM "Booking" ORDER BY id`),
    t.sql(`SELECT id FROM "BookingHistory" ORDER BY id`),
    t.sql(`SELECT id FROM "Mail" ORDER BY id`),
  ]);

it('answers every malformed invoiceNumber of BK11 (REST and GraphQL) with a 4xx naming it, writing nothing', async () => {
  const before = await snapshot();
  const bad: string[] = [];
  for (const value of values) {
    const res = await t.call('PUT', `/bookings/${open}/invoice-number`, { invoiceNumber: value });
    if (res.status !== 400 || res.body?.data !== null || !res.body?.message) {
      bad.push(`REST ${JSON.stringify(value)?.slice(0, 40)}: ${res.status}`);
    } else if (value !== deep && res.body.errors?.[0]?.field !== 'invoiceNumber') {
      // (too deep a body is refused as a whole, naming `body`)
      bad.push(`REST ${JSON.stringify(value)?.slice(0, 40)}: names ${res.body.errors?.[0]?.field}`);
    }
    const gql = await t.gql(
      `mutation($id: ID!, $n: String!) { setInvoiceNumber(id: $id, invoiceNumber: $n) { invoiceNumber } }`,
      { id: open, n: value },
    );
    const status = gql.body?.errors?.[0]?.extensions?.statusCode;
    if (gql.status >= 500 || gql.body?.data?.setInvoiceNumber || (status && status >= 500)) {
      bad.push(`GraphQL ${JSON.stringify(value)?.slice(0, 40)}: ${gql.status}/${status}`);
    }
  }
  // unknown fields beside a valid number are refused too
  const extra = await t.call('PUT', `/bookings/${open}/invoice-number`, {
    invoiceNumber: 'OK-1',
    invoiceDate: '2020-01-01',
    __proto__: { polluted: true },
  });
  expect(extra.status).toBe(400);
  expect(bad).toEqual([]);
  expect(await snapshot()).toEqual(before);
});

it('answers bodies that are not objects, hostile ids and queries with a 4xx, never a 5xx', async () => {
  const before = await snapshot();
  for (const body of [null, [], 'text', 42, [{ invoiceNumber: 'A-1' }]]) {
    const res = await t.call('PUT', `/bookings/${open}/invoice-number`, body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
  const ids = [
    '1',
    'null',
    "'; DROP TABLE x;--",
    randomUUID().toUpperCase(),
    'a'.repeat(5000),
    '%00',
  ];
  for (const id of ids) {
    const path = `/bookings/${encodeURIComponent(id)}`;
    for (const [method, sub, body] of [
      ['GET', '/invoice', undefined],
      ['GET', '/mails', undefined],
      ['POST', '/invoice-mail', undefined],
      ['POST', '/invoice-mail', { anything: 1 }],
      ['PUT', '/invoice-number', { invoiceNumber: 'ID-1' }],
    ] as const) {
      const res = await t.call(method, `${path}${sub}`, body);
      expect([400, 404]).toContain(res.status);
      expect(res.body.data).toBeNull();
    }
  }
  for (const q of [
    'page=0',
    'page=-1',
    'page=abc',
    'page=99999999999999999999',
    'pageSize=0',
    'pageSize=100000',
    'sort=secret',
    'sort=-',
    `sort=${'dateCreated,'.repeat(100)}`,
    'page=1&page=2',
  ]) {
    const res = await t.call('GET', `/bookings/${open}/mails?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.errors?.length).toBeGreaterThan(0);
  }
  for (const bookingId of ['x', '', randomUUID()]) {
    const res = await t.gql(`query($id: ID!) { bookingMails(bookingId: $id) { totalResults } }`, {
      id: bookingId,
    });
    expect(res.status).toBeLessThan(500);
    expect([400, 404]).toContain(res.body.errors?.[0]?.extensions?.statusCode);
  }
  expect(await snapshot()).toEqual(before);
});
