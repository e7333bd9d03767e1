import { randomUUID } from 'node:crypto';
import type { TicketTestKit } from '../ticket-types/test/ticket-test-kit';
import { copiedEvent, startInvitationKit } from './test/invitation-test-kit';

// IN1-IN17 with hostile input of every shape: each answer a 4xx envelope naming the problem (or
// a 404 for ids and tokens), never a 5xx, and nothing written by a refused call.

jest.setTimeout(120000);

let t: TicketTestKit;
let eventId: string;
let inv: { id: string; token: string };
beforeAll(async () => {
  ({ t } = await startInvitationKit('bookings_invitations_it_invitations_bad_input'));
  eventId = await copiedEvent(t, t.A);
  const res = await t.call('POST', '/invitations', { eventId, email: 'keep@example.com' });
  inv = res.body.data;
}, 90000);
afterAll(async () => t?.close());

const long = 'x'.repeat(100_000);
const deep = JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200));
const values: unknown[] = [
  null,
  true,
  -1,
  1.5,
  '',
  ' ',
  long,
  '\u0000',
  [],
  [1, 2],
  {},
  deep,
  'NaN',
];
const snapshot = () => t.sql(`SELECT * FROM "Invitation" ORDER BY id`);

const isEnvelope4xx = (res: { status: number; body: { data?: unknown; message?: unknown } }) =>
  res.status >= 400 && res.status < 500 && res.body?.data === null && !!res.body?.message;

it('answers every malformed field of IN7 and IN8 with a 4xx (IN8: 200 valid=false), writing nothing', async () => {
  const before = await snapshot();
  const bad: string[] = [];
  const fields = [
    'eventId',
    'personId',
    'email',
    'firstname',
    'lastname',
    'language',
    'websiteId',
    'inviteeInformation',
    '__proto__',
    'constructor',
    'unknownField',
  ];
  for (const field of fields) {
    for (const value of values) {
      const body = { eventId, email: `n-${randomUUID()}@example.com`, [field]: value };
      const post = await t.call('POST', '/invitations', body);
      if (post.status === 201) {
        await t.sql(`DELETE FROM "Invitation" WHERE id = $1`, [post.body.data.id]);
      } else if (!isEnvelope4xx(post)) {
        bad.push(`POST ${field}=${JSON.stringify(value)?.slice(0, 30)}: ${post.status}`);
      }
      const val = await t.call('POST', '/invitations/validate', body);
      if (val.status >= 500 || (val.status === 200 && typeof val.body.data?.valid !== 'boolean')) {
        bad.push(`validate ${field}=${JSON.stringify(value)?.slice(0, 30)}: ${val.status}`);
      }
    }
  }
  expect(bad).toEqual([]);
  expect(await snapshot()).toEqual(before);
});

it('answers bad bodies of the list operations (IN6, IN9-IN11, IN16) with a 4xx naming the field', async () => {
  const before = await snapshot();
  const routes: [string, string, (v: unknown) => unknown][] = [
    ['DELETE', '/invitations/batch', (v) => ({ ids: v })],
    ['POST', '/invitations/mails', (v) => ({ ids: v })],
    ['POST', '/invitations/mails/free-text', (v) => ({ ids: v, subject: 's', text: 't' })],
    ['POST', '/invitations/mails/free-text', (v) => ({ ids: [inv.id], subject: v, text: v })],
    ['POST', '/invitations/mails/filtered', (v) => ({ eventId: v })],
    ['POST', '/invitations/mails/filtered', (v) => ({ eventId, status: v, q: v })],
    ['PUT', '/invitations/status', (v) => ({ ids: v, status: 'withdrawn' })],
    ['PUT', '/invitations/status', (v) => ({ ids: [inv.id], status: v })],
  ];
  const bad: string[] = [];
  const extra = [Array(1001).fill(inv.id), ['x'], [inv.id, 'y'], [randomUUID()]];
  for (const [method, path, body] of routes) {
    for (const v of [...values, ...extra]) {
      const res = await t.call(method, path, body(v));
      if (res.status < 300) continue; // e.g. a filter q of '' is fine
      if (!isEnvelope4xx(res))
        bad.push(`${method} ${path} ${JSON.stringify(v)?.slice(0, 30)}: ${res.status}`);
    }
    for (const raw of [null, [], 'text', 42]) {
      const res = await t.call(method, path, raw);
      if (!isEnvelope4xx(res))
        bad.push(`${method} ${path} body ${JSON.stringify(raw)}: ${res.status}`);
    }
  }
  expect(bad).toEqual([]);
  // a malformed id is named by its index
  const named = await t.call('DELETE', '/invitations/batch', { ids: [inv.id, 'nope'] });
  expect(named.status).toBe(400);
  expect(named.body.errors).toEqual([expect.objectContaining({ field: 'ids[1]', rule: 'isUuid' })]);
  const rows = await snapshot();
  // the only change allowed: mails queued and statuses of the one invitation through valid calls
  expect(rows.map((r) => r.id)).toEqual(before.map((r) => r.id));
});

it('answers hostile ids, tokens and queries with 400 or 404, never 5xx', async () => {
  for (const id of [
    '1',
    'null',
    "'; DROP TABLE x;--",
    randomUUID().toUpperCase(),
    'a'.repeat(3000),
    '%00',
  ]) {
    const enc = encodeURIComponent(id);
    for (const [method, path, body] of [
      ['GET', `/invitations/${enc}`],
      ['DELETE', `/invitations/${enc}`],
      ['PUT', `/invitations/${enc}/invitee-information`, { a: 1 }],
      ['GET', `/invitations/${enc}/mails`],
      ['GET', `/invitations/import/${enc}`],
      ['GET', `/invitations/public/${enc}`],
      ['POST', `/invitations/public/${enc}/reject`],
    ] as [string, string, unknown?][]) {
      const res = await t.call(method, path, body);
      expect([method, path.slice(0, 60), [400, 404].includes(res.status)]).toEqual([
        method,
        path.slice(0, 60),
        true,
      ]);
    }
  }
  for (const q of [
    'eventId=not-a-uuid',
    'page=0',
    'pageSize=100000',
    'sort=token',
    'status=maybe',
    `eventId=${eventId}&eventId=${eventId}`,
    `q=${'%25'.repeat(300)}`,
  ]) {
    const res = await t.call('GET', `/invitations?${q}`);
    expect([q, res.status]).toEqual([q, 400]);
  }
  for (const q of ['', 'eventId=x', `eventId=${eventId}&format=pdf`, `eventId=${randomUUID()}`]) {
    const res = await t.call('GET', `/invitations/export?${q}`);
    expect([400, 404]).toContain(res.status);
  }
});

it('answers non-multipart and odd forms of IN13 and IN14 with a 4xx', async () => {
  for (const path of ['/invitations/import/preview', '/invitations/import']) {
    for (const body of [{ eventId }, 'text', null]) {
      const res = await t.call('POST', path, body);
      expect(isEnvelope4xx(res)).toBe(true);
    }
    const form = new FormData();
    form.append('eventId', eventId);
    form.append('other', new Blob(['email\na@b.de']), 'x.csv');
    const headers = {
      'X-Integration-Name': 'x',
      'X-Integration-Provider': 'y',
      'X-Service-TenantId': t.A,
    };
    const wrongField = await t.api.rest('POST', path, form, headers);
    expect(wrongField.status).toBe(400);
    const form2 = new FormData();
    form2.append('eventId', 'not-a-uuid');
    form2.append('file', new Blob(['email\na@b.de'], { type: 'text/csv' }), 'x.csv');
    const badEvent = await t.api.rest('POST', path, form2, headers);
    expect(badEvent.status).toBe(400);
  }
  expect(await t.count('ImportJob')).toBe(0);
});
