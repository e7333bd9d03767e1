import sharp from 'sharp';
import { tenantHeaders } from '@crm/testing';
import { Answer, Client, EVENT_SERVICES, startClient, TestTenant } from './client';

// ES1-ES7 (event settings) through the gateway, REST: one success and the main failure per row,
// and another tenant's ids answering 404 with nothing changed.

jest.setTimeout(60000);

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('events-settings', EVENT_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
}, 180000);
afterAll(async () => {
  await client?.stack.shutdown();
}, 30000);

const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);

const TEMPLATES = '/event-settings/contact-person-templates';

function headers(t: TestTenant, extra: Record<string, string> = {}) {
  const { 'Content-Type': _json, ...rest } = tenantHeaders(t.id);
  return { ...rest, Authorization: `Bearer ${t.key}`, ...extra };
}

function upload(t: TestTenant, p: string, data: Buffer, type: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), 'portrait');
  return client.raw(`/v1/crm${p}`, { method: 'POST', headers: headers(t), body: form });
}

const portrait = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 40, g: 120, b: 90 } } })
    .jpeg()
    .toBuffer();

describe('ES1-ES3 settings object', () => {
  it('ES1 defaults, ES2 replace, ES3 validate; bad input is a 400 naming the field', async () => {
    const initial = await client.rest(a, 'GET', '/event-settings');
    expect(initial.status).toBe(200);
    expect(initial.body.data).toMatchObject({
      timeZone: 'Europe/Berlin',
      currency: 'EUR',
      dateModified: null,
    });
    const put = await client.rest(a, 'PUT', '/event-settings', {
      timeZone: 'Europe/Vienna',
      currency: 'EUR',
      eventDefaults: { capacity: 80, taxRateId: 'at-standard' },
      invoiceSender: { name: 'Events GmbH', country: 'AT', iban: 'AT61 1904 3002 3457 3201' },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      timeZone: 'Europe/Vienna',
      eventDefaults: { capacity: 80, taxRateId: 'at-standard' },
      invoiceSender: { iban: 'AT611904300234573201' },
    });
    expect((await client.rest(a, 'GET', '/event-settings')).body.data).toEqual(put.body.data);
    // the other tenant still has the defaults
    expect((await client.rest(b, 'GET', '/event-settings')).body.data.timeZone).toBe(
      'Europe/Berlin',
    );

    const bad = await client.rest(a, 'PUT', '/event-settings', { timeZone: 'Nowhere/Land' });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['timeZone', 'timeZone']]);
    expect((await client.rest(a, 'GET', '/event-settings')).body.data.timeZone).toBe(
      'Europe/Vienna',
    );

    const valid = await client.rest(a, 'POST', '/event-settings/validate', {
      currency: 'XXQ',
    });
    expect(valid.status).toBe(200);
    expect(valid.body.data.valid).toBe(false);
    expect(valid.body.data.errors.map((e: any) => e.field)).toEqual(['currency']);
  });
});

describe('ES4/ES5 lists', () => {
  it('ES4 reads tenant lists and vendor lists', async () => {
    const roles = await client.rest(a, 'GET', '/event-settings/contributor-roles', undefined, {
      'Accept-Language': 'de',
    });
    expect(roles.status).toBe(200);
    expect(roles.body.data[0]).toMatchObject({ text: 'Referent/in', isSystem: true });
    const rates = await client.rest(a, 'GET', '/event-settings/tax-rates?q=de-');
    expect(rates.body.data.map((r: any) => r.id)).toEqual(['de-standard', 'de-reduced']);
    const platforms = await client.rest(a, 'GET', '/event-settings/online-meeting-platforms');
    expect(platforms.body.metaData.totalResults).toBe(8);
    expect((await client.rest(a, 'GET', '/event-settings/nope')).status).toBe(404);
  });

  it('ES5 creates, updates and deletes entries; data checked; vendor lists read-only; foreign ids 404', async () => {
    const created = await client.rest(a, 'POST', '/event-settings/cancellation-conditions', {
      text: 'Standard',
      data: { tiers: [{ daysBeforeStart: 14, feePercent: 50, feeFixed: '10.00' }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const bad = await client.rest(a, 'POST', '/event-settings/cancellation-conditions', {
      text: 'Broken',
      data: { tiers: [{ daysBeforeStart: -1, feePercent: 50, feeFixed: '10.00' }] },
    });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['data.tiers[0].daysBeforeStart', 'min']]);

    const updated = await client.rest(a, 'PUT', `/event-settings/cancellation-conditions/${id}`, {
      text: 'Standard 2026',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      text: 'Standard 2026',
      data: created.body.data.data,
    });

    const readOnly = await client.rest(a, 'POST', '/event-settings/online-meeting-platforms', {
      text: 'Skype',
    });
    expect(readOnly.status).toBe(409);

    expect(
      (await client.rest(b, 'PUT', `/event-settings/cancellation-conditions/${id}`, { text: 'X' }))
        .status,
    ).toBe(404);
    expect(
      (await client.rest(b, 'DELETE', `/event-settings/cancellation-conditions/${id}`)).status,
    ).toBe(404);
    const list = await client.rest(a, 'GET', '/event-settings/cancellation-conditions');
    expect(list.body.data.map((e: any) => e.text)).toEqual(['Standard 2026']);

    const deleted = await client.rest(a, 'DELETE', `/event-settings/cancellation-conditions/${id}`);
    expect(deleted.status).toBe(200);
    expect(
      (await client.rest(a, 'GET', '/event-settings/cancellation-conditions')).body.data,
    ).toEqual([]);
  });
});

describe('ES4-ES7 contact person templates', () => {
  it('ES5 CRUD, ES6 copy, ES7 image; another tenant gets 404', async () => {
    const created = await client.rest(a, 'POST', TEMPLATES, {
      name: 'Reception',
      firstname: 'Ada',
      email: 'ada@example.com',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const bad = await client.rest(a, 'POST', TEMPLATES, { firstname: 'No name' });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)[0][0]).toBe('name');

    const listed = await client.rest(a, 'GET', TEMPLATES);
    expect(listed.body.data.map((t: any) => t.name)).toEqual(['Reception']);
    expect((await client.rest(b, 'GET', TEMPLATES)).body.data).toEqual([]);

    const put = await client.rest(a, 'PUT', `${TEMPLATES}/${id}`, { name: 'Reception desk' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'Reception desk', email: null });
    expect((await client.rest(b, 'PUT', `${TEMPLATES}/${id}`, { name: 'Mine' })).status).toBe(404);

    const up = await upload(a, `${TEMPLATES}/${id}/image`, await portrait(300, 400), 'image/jpeg');
    expect(up.status).toBe(201);
    expect(up.body.data.images.map((i: any) => i.size)).toEqual([
      'thumbnail',
      'small',
      'detail',
      'original',
    ]);
    const img = await fetch(
      `${client.stack.gatewayUrl}/v1/crm${TEMPLATES}/${id}/image?size=small`,
      {
        headers: headers(a),
      },
    );
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await img.arrayBuffer())).metadata()).width).toBe(160);
    const foreignImg = await fetch(`${client.stack.gatewayUrl}/v1/crm${TEMPLATES}/${id}/image`, {
      headers: headers(b),
    });
    expect(foreignImg.status).toBe(404);
    const notImage = await upload(a, `${TEMPLATES}/${id}/image`, Buffer.from('hello'), 'image/png');
    expect(notImage.status).toBe(415);

    const copy = await client.rest(a, 'POST', `${TEMPLATES}/${id}/copy`, undefined, {
      'Accept-Language': 'de',
    });
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ name: 'Reception desk (Kopie)' });
    expect(copy.body.data.image).not.toBeNull();
    expect((await client.rest(b, 'POST', `${TEMPLATES}/${id}/copy`)).status).toBe(404);

    expect((await client.rest(b, 'DELETE', `${TEMPLATES}/${id}/image`)).status).toBe(404);
    expect((await client.rest(a, 'DELETE', `${TEMPLATES}/${id}/image`)).status).toBe(200);
    expect((await client.rest(a, 'DELETE', `${TEMPLATES}/${id}/image`)).status).toBe(404);

    expect((await client.rest(b, 'DELETE', `${TEMPLATES}/${id}`)).status).toBe(404);
    expect((await client.rest(a, 'DELETE', `${TEMPLATES}/${id}`)).status).toBe(200);
    expect((await client.rest(a, 'GET', `${TEMPLATES}/${id}`)).status).toBe(404);
    expect((await client.rest(a, 'GET', `${TEMPLATES}/${copy.body.data.id}`)).status).toBe(200);
  });
});
