import { randomUUID } from 'node:crypto';
import { ServiceTestClient, uploadHeaders } from '@crm/testing';
import { startEvents, RunningService } from '../test/service-harness';

// Hostile input on every route of the event settings: never a 5xx, always the error envelope with
// a message, and nothing of another tenant changed.

jest.setTimeout(120000);

let svc: RunningService;
let api: ServiceTestClient;
const A = `tenant-bad-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  svc = await startEvents('events_it_settings_bad_input');
  api = new ServiceTestClient(svc.url);
}, 90000);
afterAll(async () => {
  await svc?.app.close();
});

const deep = (n: number): unknown => (n ? { a: deep(n - 1) } : 1);
const LONG = 'x'.repeat(20000);

const BODIES: unknown[] = [
  null,
  [],
  'text',
  42,
  true,
  {},
  [{}],
  [null],
  deep(60),
  { text: null },
  { text: LONG },
  { text: 'ok', color: '#zzzzzz', position: -1 },
  { text: 'ok', data: [] },
  { text: 'ok', data: null },
  { text: 'ok', data: { fields: null } },
  { text: 'ok', data: { fields: [null, 1, 'x'] } },
  {
    text: 'ok',
    data: { fields: [{ key: LONG, label: null, type: {}, required: 'no', options: [null] }] },
  },
  { text: 'ok', data: { tiers: [{ daysBeforeStart: 1e308, feePercent: 'NaN', feeFixed: 5 }] } },
  { text: 'ok', data: { tiers: Array.from({ length: 2000 }, () => ({})) } },
  JSON.parse('{"__proto__": {"polluted": true}, "text": "proto"}'),
  { constructor: { prototype: { x: 1 } }, name: 'ctor' },
  // a `constructor` key inside a field's value: class-transformer threw a TypeError (500) in
  // checkObject of ES2 and ES5 (found by the gateway's bad-input probe)
  { currency: { constructor: -516133655 }, timeZone: 995764526 },
  { text: { constructor: 1 }, data: { fields: [{ key: { constructor: 1 } }] } },
  { name: LONG, email: LONG },
  { timeZone: {}, currency: [], eventDefaults: [], invoiceSender: 'x' },
  { timeZone: '../../etc/passwd', currency: '\u0000\u0000\u0000' },
  { eventDefaults: { capacity: 1e100, categoryId: 'ABC', taxRateId: null } },
  { invoiceSender: { iban: LONG.slice(0, 42), bic: '\u0000', country: '\u00e4\u00e4' } },
  { eventDefaults: { categoryId: randomUUID().toUpperCase(), contactPersonTemplateId: 'x' } },
];

const IDS = [
  'batch',
  'not-a-uuid',
  '%2e%2e%2f%2e%2e',
  randomUUID(),
  randomUUID().toUpperCase(),
  '00000000-0000-4000-9e00-000000000101',
  "1' OR '1'='1",
];

const LISTS = [
  'booking-form-field-sets',
  'cancellation-conditions',
  'contributor-roles',
  'event-categories',
  'orga-tags',
  'portal-tags',
  'tax-rates',
  'online-meeting-platforms',
  'nope',
];

async function expectSafe(method: string, path: string, body?: unknown) {
  const res = await api.restAs(A, method, path, body);
  const where = `${method} ${path} ${JSON.stringify(body)?.slice(0, 120)}`;
  expect([where, res.status < 500]).toEqual([where, true]);
  if (res.status >= 400) expect([where, typeof res.body?.message]).toEqual([where, 'string']);
}

describe('bad input on the event settings', () => {
  it('ES1-ES3: never a 5xx', async () => {
    for (const body of BODIES) {
      await expectSafe('PUT', '/event-settings', body);
      await expectSafe('POST', '/event-settings/validate', body);
    }
  });

  it('ES4/ES5: never a 5xx', async () => {
    for (const list of LISTS) {
      await expectSafe(
        'GET',
        `/event-settings/${list}?page=0&pageSize=9999&sort=%00&q=${'%25'.repeat(50)}`,
      );
      for (const body of BODIES) await expectSafe('POST', `/event-settings/${list}`, body);
      for (const id of IDS) {
        for (const body of BODIES.slice(0, 14))
          await expectSafe('PUT', `/event-settings/${list}/${id}`, body);
        await expectSafe('DELETE', `/event-settings/${list}/${id}?force=maybe`);
      }
      await expectSafe('DELETE', `/event-settings/${list}/batch`, { ids: IDS });
    }
  });

  it('ES4-ES7 templates: never a 5xx', async () => {
    const base = '/event-settings/contact-person-templates';
    await expectSafe('GET', `${base}?sort=-nope`);
    for (const body of BODIES) await expectSafe('POST', base, body);
    for (const id of IDS) {
      await expectSafe('GET', `${base}/${id}`);
      for (const body of BODIES) await expectSafe('PUT', `${base}/${id}`, body);
      await expectSafe('POST', `${base}/${id}/copy`, { extra: 1 });
      await expectSafe('GET', `${base}/${id}/image?size=${id}`);
      await expectSafe('DELETE', `${base}/${id}/image`);
      await expectSafe('DELETE', `${base}/${id}`);
      const res = await api.upload(
        `${base}/${id}/image`,
        { data: Buffer.from('not an image'), name: '../x.png', type: 'image/png' },
        uploadHeaders(A),
      );
      expect(res.status).toBeLessThan(500);
    }
  });
});
