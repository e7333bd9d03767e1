import { randomUUID } from 'node:crypto';
import { TicketTestKit } from './test/ticket-test-kit';

// K1, K2 with hostile input of every shape: each answer a 4xx envelope naming the problem (or a
// 404 for ids), never a 5xx, and nothing written.

jest.setTimeout(180_000); // 560 calls one after the other: 117 s on a busy CI machine

let t: TicketTestKit;
let eventId: string;
let typeId: string;
beforeAll(async () => {
  t = await TicketTestKit.start('bookings_invitations_it_ticket_bad_input');
  eventId = randomUUID();
  await t.snapshot(t.A, eventId);
  const res = await t.call('POST', '/tickets', {
    eventId,
    name: 'Seat',
    price: '10',
    currency: 'EUR',
  });
  typeId = res.body.data.id;
}, 60000);
afterAll(async () => t?.close());

const long = 'x'.repeat(100_000);
const deep = JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200));
const valid = () => ({ eventId, name: 'N', price: '1', currency: 'EUR' });
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
  '1e3',
  '-0.00',
  '99999999999.99',
  '2030-13-45T00:00:00Z',
];
const fields = [
  'eventId',
  'name',
  'description',
  'price',
  'currency',
  'taxRateId',
  'quota',
  'saleStartsAt',
  'saleEndsAt',
  'minPerBooking',
  'maxPerBooking',
  'active',
  '__proto__',
  'constructor',
];

it('answers every malformed field of K1 POST and K2 PUT with a 4xx envelope, writing nothing', async () => {
  const before = await t.sql(`SELECT * FROM "TicketType" ORDER BY id`);
  const bad: string[] = [];
  for (const field of fields) {
    for (const value of values) {
      const post = await t.call('POST', '/tickets', { ...valid(), [field]: value });
      const put = await t.call('PUT', `/tickets/${typeId}`, { [field]: value });
      for (const [what, res] of [
        ['POST', post],
        ['PUT', put],
      ] as const) {
        const ok = res.status < 300;
        if (res.status >= 500 || (!ok && (res.body?.data !== null || !res.body?.message))) {
          bad.push(`${what} ${field}=${JSON.stringify(value)?.slice(0, 40)}: ${res.status}`);
        }
      }
      // a write that was accepted is undone, so "nothing changed" holds for the refused ones
      if (post.status === 201) await t.call('DELETE', `/tickets/${post.body.data.id}`);
      if (put.status === 200) {
        await t.sql(`DELETE FROM "TicketType" WHERE id = $1`, [typeId]);
        const row = before.find((r) => r.id === typeId)!;
        await t.sql(
          `INSERT INTO "TicketType" SELECT * FROM json_populate_record(null::"TicketType", $1)`,
          [JSON.stringify(row)],
        );
      }
    }
  }
  expect(bad).toEqual([]);
  // a name of blanks is no name
  for (const name of [' ', '\t\n']) {
    const post = await t.call('POST', '/tickets', { ...valid(), name });
    expect(post.status).toBe(400);
    expect(post.body.errors[0]).toMatchObject({ field: 'name', rule: 'isNotEmpty' });
    expect((await t.call('PUT', `/tickets/${typeId}`, { name })).status).toBe(400);
  }
  expect(await t.sql(`SELECT * FROM "TicketType" ORDER BY id`)).toEqual(before);
});

it('answers bodies that are not objects, bad JSON and hostile queries with a 4xx', async () => {
  const shapes: unknown[] = [null, [], 'text', 42, [valid()]];
  for (const body of shapes) {
    const res = await t.call('POST', '/tickets', body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
  const raw = await t.api.restAs(t.A, 'POST', '/tickets', undefined, {
    'Content-Type': 'application/json',
  });
  expect(raw.status).toBeLessThan(500);
  for (const q of [
    'eventId=not-a-uuid',
    `eventId=${eventId}&page=0`,
    `eventId=${eventId}&pageSize=100000`,
    `eventId=${eventId}&sort=secret`,
    `eventId=${eventId}&eventId=${eventId}`,
    `eventId=${eventId}&q=${'%25'.repeat(300)}`,
  ]) {
    const res = await t.call('GET', `/tickets?${q}`);
    expect([400, 404]).toContain(res.status);
  }
  for (const id of [
    '1',
    'null',
    "'; DROP TABLE x;--",
    randomUUID().toUpperCase(),
    'a'.repeat(5000),
  ]) {
    const res = await t.call('GET', `/tickets/${encodeURIComponent(id)}`);
    expect([400, 404]).toContain(res.status);
  }
});
