import { randomUUID } from 'node:crypto';
import { tenantHeaders } from '@crm/testing';
import { AppException } from '@crm/errors';
import { asTenant } from '@crm/request-context';
import { PrismaService } from '../database/prisma.service';
import type { Tx } from '../database/tx';
import { SettingsLookupService } from './settings-lookup.service';
import { seeingEveryTenant } from '../test/every-tenant';
import { startCrmCompanies, RunningService } from '../test/service-harness';

// S1-S5 under /company-settings against the real service (PostgreSQL, NATS): system entries and
// their translation, the text and field rules, the delete policy of every kind of reference
// (409 "used by N ...", force removes the references in the same transaction), isolation.
// Companies, e-mails and relations are written with Prisma here: their routes belong to others.

const LEAD = '00000000-0000-4000-b000-000000000101';
const CUSTOMER = '00000000-0000-4000-b000-000000000103';
const SOLE = '00000000-0000-4000-b000-000000000401';
const DUNS = '00000000-0000-4000-b000-000000000502';
const SUBSIDIARY = '00000000-0000-4000-b000-000000000601';
const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

const LISTS = [
  'tags',
  'employee-counts',
  'customer-counts',
  'legal-forms',
  'reference-number-types',
  'industry-sectors',
  'relation-types',
  'lifecycles',
  'email-types',
];

// slow when the machine is busy (2 cores shared with other test runs)
jest.setTimeout(30000);

let svc: RunningService;
let db: PrismaService;

async function call(method: string, path: string, body?: unknown, headers = tenantHeaders(A)) {
  const res = await fetch(`${svc.url}/v1/crm${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function gql(
  query: string,
  variables: Record<string, unknown> = {},
  headers = tenantHeaders(A),
) {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const de = (tenant = A) => tenantHeaders(tenant, { 'Accept-Language': 'de' });

/** A tenant entry of `list`, created through S2. */
async function entry(list: string, text: string, tenant = A): Promise<string> {
  const res = await call('POST', `/company-settings/${list}`, { text }, tenantHeaders(tenant));
  expect(res.status).toBe(201);
  return res.body.data.id;
}

let n = 0;
function company(tenantId: string, data: Record<string, unknown> = {}) {
  return db.company.create({ data: { tenantId, name: `Company ${++n}`, ...data } });
}

beforeAll(async () => {
  svc = await startCrmCompanies('crm_companies_it_settings');
  db = seeingEveryTenant(svc.app.get(PrismaService));
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

describe('S1 GET /company-settings/{list}', () => {
  it('answers the system entries of every list, translated by Accept-Language', async () => {
    const counts: Record<string, number> = {
      tags: 0,
      'employee-counts': 5,
      'customer-counts': 4,
      'legal-forms': 7,
      'reference-number-types': 3,
      'industry-sectors': 0,
      'relation-types': 5,
      lifecycles: 5,
      'email-types': 4,
    };
    expect(Object.keys(counts)).toEqual(LISTS);
    for (const [list, count] of Object.entries(counts)) {
      const res = await call('GET', `/company-settings/${list}`, undefined, tenantHeaders(B));
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(count);
      expect(res.body.metaData.totalResults).toBe(count);
      for (const e of res.body.data) expect(e.isSystem).toBe(true);
    }
    const en = await call('GET', '/company-settings/lifecycles');
    expect(en.body.data[0]).toEqual({
      id: LEAD,
      text: 'Lead',
      color: '#9E9E9E',
      category: null,
      position: null,
      isSystem: true,
    });
    const german = await call('GET', '/company-settings/legal-forms?pageSize=4', undefined, de());
    expect(german.body.data.map((e: any) => e.text)).toEqual([
      'Einzelunternehmen',
      'Personengesellschaft',
      'Gesellschaft mit beschränkter Haftung',
      'Aktiengesellschaft',
    ]);
    expect(german.body.metaData.totalResults).toBe(7);
    const emailTypes = await call('GET', '/company-settings/email-types', undefined, de());
    expect(emailTypes.body.data.map((e: any) => e.text)).toEqual([
      'Büro',
      'Info',
      'Buchhaltung',
      'Support',
    ]);
    const relationTypes = await call('GET', '/company-settings/relation-types');
    expect(relationTypes.body.data[0]).toMatchObject({ id: SUBSIDIARY, text: 'Subsidiary' });
    // a language the service does not speak falls back to English
    const fr = await call(
      'GET',
      '/company-settings/reference-number-types',
      undefined,
      tenantHeaders(A, { 'Accept-Language': 'fr' }),
    );
    expect(fr.body.data.map((e: any) => e.text)).toEqual([
      'Commercial register number',
      'D-U-N-S number',
      'Supplier number',
    ]);
  });

  it('pages across system and tenant entries, searches with q and sorts by text', async () => {
    const T = `tenant-page-${randomUUID().slice(0, 8)}`;
    const h = tenantHeaders(T);
    const created = await call(
      'POST',
      '/company-settings/lifecycles',
      [{ text: 'Zombie' }, { text: 'Advocate', color: '#123456' }, { text: 'Churned' }],
      h,
    );
    expect(created.status).toBe(201);
    const p1 = await call('GET', '/company-settings/lifecycles?page=1&pageSize=3', undefined, h);
    expect(p1.body.metaData.totalResults).toBe(8);
    expect(p1.body.data.map((e: any) => e.text)).toEqual(['Lead', 'Prospect', 'Customer']);
    const p2 = await call('GET', '/company-settings/lifecycles?page=2&pageSize=3', undefined, h);
    expect(p2.body.data.map((e: any) => e.text)).toEqual(['Partner', 'Former customer', 'Zombie']);
    const p3 = await call('GET', '/company-settings/lifecycles?page=3&pageSize=3', undefined, h);
    expect(p3.body.data.map((e: any) => e.text)).toEqual(['Advocate', 'Churned']);
    expect(p3.body.data[1]).toMatchObject({ isSystem: false, position: 2 });
    const p4 = await call('GET', '/company-settings/lifecycles?page=4&pageSize=3', undefined, h);
    expect(p4.body.data).toEqual([]);
    expect(p4.body.metaData.totalResults).toBe(8);

    const q = await call('GET', '/company-settings/lifecycles?q=CUST', undefined, h);
    expect(q.body.data.map((e: any) => e.text)).toEqual(['Customer', 'Former customer']);
    const qDe = await call('GET', '/company-settings/lifecycles?q=kunde', undefined, de(T));
    expect(qDe.body.data.map((e: any) => e.text)).toEqual(['Kunde', 'Ehemaliger Kunde']);
    const qTenant = await call('GET', '/company-settings/lifecycles?q=urn', undefined, h);
    expect(qTenant.body.data.map((e: any) => e.text)).toEqual(['Churned']);

    const byText = await call(
      'GET',
      '/company-settings/lifecycles?sort=text&pageSize=4',
      undefined,
      h,
    );
    expect(byText.body.data.map((e: any) => e.text)).toEqual([
      'Advocate',
      'Churned',
      'Customer',
      'Former customer',
    ]);
    expect(byText.body.metaData.totalResults).toBe(8);
    const desc = await call(
      'GET',
      '/company-settings/lifecycles?sort=-text&pageSize=2',
      undefined,
      h,
    );
    expect(desc.body.data.map((e: any) => e.text)).toEqual(['Zombie', 'Prospect']);
    const badSort = await call('GET', '/company-settings/lifecycles?sort=color', undefined, h);
    expect(badSort.status).toBe(400);
    expect(badSort.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
    const badPage = await call('GET', '/company-settings/lifecycles?pageSize=501', undefined, h);
    expect(badPage.status).toBe(400);
    expect(badPage.body.errors[0]).toMatchObject({ field: 'pageSize', rule: 'max' });
  });

  it('answers 404 naming the lists for an unknown list, translated', async () => {
    const res = await call('GET', '/company-settings/colours');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(
      `The list colours does not exist; the lists are: ${LISTS.join(', ')}`,
    );
    const german = await call('GET', '/company-settings/colours', undefined, de());
    expect(german.body.message).toBe(
      `Die Liste colours gibt es nicht; die Listen sind: ${LISTS.join(', ')}`,
    );
    expect((await call('POST', '/company-settings/colours', { text: 'x' })).status).toBe(404);
    expect((await call('PUT', `/company-settings/colours/${randomUUID()}`, {})).status).toBe(404);
    expect((await call('DELETE', `/company-settings/colours/${randomUUID()}`)).status).toBe(404);
    expect(
      (await call('DELETE', '/company-settings/colours/batch', { ids: [randomUUID()] })).status,
    ).toBe(404);
  });
});

describe('S2 POST /company-settings/{list}', () => {
  it('creates one entry from an object and several from an array, in every list', async () => {
    const one = await call('POST', '/company-settings/industry-sectors', {
      text: '  Mechanical engineering ',
      category: ' NACE C ',
    });
    expect(one.status).toBe(201);
    expect(one.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      text: 'Mechanical engineering',
      category: 'NACE C',
      color: null,
      position: 0,
      isSystem: false,
    });
    const many = await call('POST', '/company-settings/tags', [
      { text: 'VIP', color: '#FFD700' },
      { text: 'Prospect list' },
      { text: 'Board', position: 10 },
    ]);
    expect(many.status).toBe(201);
    expect(many.body.data.map((e: any) => [e.text, e.color, e.position])).toEqual([
      ['VIP', '#FFD700', 0],
      ['Prospect list', null, 1],
      ['Board', null, 10],
    ]);
    expect(many.body.metaData.totalResults).toBe(3);
    const list = await call('GET', '/company-settings/tags');
    expect(list.body.data.map((e: any) => e.text)).toEqual(['VIP', 'Prospect list', 'Board']);
    // the next entry goes to the end
    const next = await call('POST', '/company-settings/tags', { text: 'Later' });
    expect(next.body.data.position).toBe(11);

    for (const l of LISTS) {
      const res = await call('POST', `/company-settings/${l}`, { text: `Own ${l}` });
      expect(res.status).toBe(201);
      const read = await call('GET', `/company-settings/${l}?q=${encodeURIComponent(`Own ${l}`)}`);
      expect(read.body.data).toEqual([expect.objectContaining({ id: res.body.data.id })]);
    }
    expect(
      await db.companySettingsEntry.count({ where: { tenantId: A, list: 'EMAIL_TYPES' } }),
    ).toBe(1);
  });

  it('keeps texts unique per list ignoring case: 409, also against system entries in any language', async () => {
    await call('POST', '/company-settings/legal-forms', { text: 'Foundation' });
    const again = await call('POST', '/company-settings/legal-forms', { text: 'FOUNDATION' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The list legal forms already has an entry "FOUNDATION"');
    expect(again.body.errors).toEqual([
      {
        field: 'text',
        rule: 'textTaken',
        message: 'text: the list legal forms already has an entry "FOUNDATION"',
      },
    ]);
    const againDe = await call(
      'POST',
      '/company-settings/legal-forms',
      { text: 'foundation' },
      de(),
    );
    expect(againDe.body.message).toBe(
      'Die Liste Rechtsformen hat bereits einen Eintrag „foundation“',
    );
    // system entries, in either language
    expect((await call('POST', '/company-settings/lifecycles', { text: 'kunde' })).status).toBe(
      409,
    );
    expect((await call('POST', '/company-settings/email-types', { text: 'BILLING' })).status).toBe(
      409,
    );
    const twice = await call('POST', '/company-settings/legal-forms', [
      { text: 'Trust' },
      { text: 'trust' },
    ]);
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([
      expect.objectContaining({ field: '[1].text', rule: 'textTaken' }),
    ]);
    // all or nothing: the first item was not written either
    expect((await call('GET', '/company-settings/legal-forms?q=trust')).body.data).toHaveLength(0);
    // the same text in another list or another tenant is fine
    expect((await call('POST', '/company-settings/tags', { text: 'Foundation' })).status).toBe(201);
    expect(
      (
        await call(
          'POST',
          '/company-settings/legal-forms',
          { text: 'Foundation' },
          tenantHeaders(B),
        )
      ).status,
    ).toBe(201);
  });

  it('refuses bad input with 400 naming field and rule, translated', async () => {
    const ok = await call('POST', '/company-settings/email-types', { text: 'ä'.repeat(200) });
    expect(ok.status).toBe(201);
    const long = await call('POST', '/company-settings/email-types', { text: 'ä'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([
      { field: 'text', rule: 'maxLength', message: 'text must be at most 200 characters long' },
    ]);
    const blank = await call('POST', '/company-settings/email-types', { text: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual([
      expect.objectContaining({ field: 'text', rule: 'isNotEmpty' }),
    ]);
    const missing = await call('POST', '/company-settings/email-types', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      expect.objectContaining({ field: 'text', rule: 'isNotEmpty' }),
    ]);
    const color = await call('POST', '/company-settings/tags', { text: 'Hot', color: 'red' });
    expect(color.status).toBe(400);
    expect(color.body.errors).toEqual([
      {
        field: 'color',
        rule: 'colorFormat',
        message: 'color must be a colour in the form #RRGGBB',
      },
    ]);
    const colorDe = await call(
      'POST',
      '/company-settings/lifecycles',
      { text: 'Hot', color: '#12345' },
      de(),
    );
    expect(colorDe.body.errors[0].message).toBe('color muss eine Farbe der Form #RRGGBB sein');
    const notHere = await call('POST', '/company-settings/legal-forms', {
      text: 'Colourful',
      color: '#FF0000',
      category: 'x',
    });
    expect(notHere.status).toBe(400);
    expect(notHere.body.errors).toEqual([
      {
        field: 'color',
        rule: 'notForList',
        message: 'color is not available for the list legal forms',
      },
      {
        field: 'category',
        rule: 'notForList',
        message: 'category is not available for the list legal forms',
      },
    ]);
    const notHereDe = await call(
      'POST',
      '/company-settings/tags',
      { text: 'Kategorisiert', category: 'x' },
      de(),
    );
    expect(notHereDe.body.errors).toEqual([
      {
        field: 'category',
        rule: 'notForList',
        message: 'category ist für die Liste Tags nicht vorgesehen',
      },
    ]);
    expect(
      (await call('POST', '/company-settings/industry-sectors', { text: 'Red', color: '#FF0000' }))
        .body.errors[0],
    ).toMatchObject({ field: 'color', rule: 'notForList' });
    const items = await call('POST', '/company-settings/lifecycles', [
      { text: 'Fine', color: '#00FF00' },
      { text: 5 },
      { text: 'Extra', unknown: true },
    ]);
    expect(items.status).toBe(400);
    expect(items.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['[1].text', 'isString'],
      ['[2].unknown', 'whitelistValidation'],
    ]);
    const mixed = await call('POST', '/company-settings/tags', [
      { text: 'x'.repeat(201), color: 'red' },
      { text: 'Fine too', color: '#00ff0' },
      { text: 'Negative', position: -1 },
    ]);
    expect(mixed.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['[0].text', 'maxLength'],
      ['[2].position', 'min'],
      ['[0].color', 'colorFormat'],
      ['[1].color', 'colorFormat'],
    ]);
    const empty = await call('POST', '/company-settings/tags', []);
    expect(empty.body.errors).toEqual([
      expect.objectContaining({ field: 'body', rule: 'arrayMinSize' }),
    ]);
    const tooMany = await call(
      'POST',
      '/company-settings/tags',
      Array.from({ length: 1001 }, (_, i) => ({ text: `t${i}` })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([
      expect.objectContaining({
        field: 'body',
        rule: 'arrayMaxSize',
        message: 'body must hold at most 1000 elements',
      }),
    ]);
    const scalar = await call('POST', '/company-settings/tags', 'text');
    expect(scalar.status).toBe(400);
    // nothing of the refused calls was written
    expect(
      await db.companySettingsEntry.count({
        where: { tenantId: A, text: { in: ['Hot', 'Colourful', 'Fine', 'Fine too', 'Red'] } },
      }),
    ).toBe(0);
  });

  it('accepts 1000 entries in one call', async () => {
    const T = `tenant-bulk-${randomUUID().slice(0, 8)}`;
    const res = await call(
      'POST',
      '/company-settings/tags',
      Array.from({ length: 1000 }, (_, i) => ({ text: `Tag ${i}` })),
      tenantHeaders(T),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1000);
    expect(res.body.data[999]).toMatchObject({ text: 'Tag 999', position: 999 });
  });
});

describe('S3 PUT /company-settings/{list}/{entryId}', () => {
  it('updates text, color, category and position; absent fields stay', async () => {
    const e = (await call('POST', '/company-settings/tags', { text: 'Warm', color: '#FFAA00' }))
      .body.data;
    const res = await call('PUT', `/company-settings/tags/${e.id}`, { text: 'Hot lead' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: e.id, text: 'Hot lead', color: '#FFAA00' });
    const recolor = await call('PUT', `/company-settings/tags/${e.id}`, {
      color: null,
      position: 40,
    });
    expect(recolor.body.data).toMatchObject({ text: 'Hot lead', color: null, position: 40 });
    // changing only the case of its own text is no conflict
    expect((await call('PUT', `/company-settings/tags/${e.id}`, { text: 'HOT LEAD' })).status).toBe(
      200,
    );
    const sector = await entry('industry-sectors', 'Retail');
    const categorized = await call('PUT', `/company-settings/industry-sectors/${sector}`, {
      category: 'NACE G',
    });
    expect(categorized.body.data).toMatchObject({ text: 'Retail', category: 'NACE G' });
    const cleared = await call('PUT', `/company-settings/industry-sectors/${sector}`, {
      category: null,
    });
    expect(cleared.body.data.category).toBeNull();
    const row = await db.companySettingsEntry.findUnique({ where: { id: e.id } });
    expect(row).toMatchObject({ text: 'HOT LEAD', color: null, position: 40 });
  });

  it('updates entries of every list', async () => {
    for (const l of LISTS) {
      const id = await entry(l, `Before ${l}`);
      const res = await call('PUT', `/company-settings/${l}/${id}`, { text: `After ${l}` });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id, text: `After ${l}`, isSystem: false });
    }
  });

  it('refuses system entries (409), clashes (409), unknown, malformed and foreign ids (404)', async () => {
    const sys = await call('PUT', `/company-settings/lifecycles/${CUSTOMER}`, { text: 'Client' });
    expect(sys.status).toBe(409);
    expect(sys.body.message).toBe(
      '"Customer" is a system entry of the list life cycles: it cannot be changed or deleted',
    );
    const sysDe = await call('PUT', `/company-settings/legal-forms/${SOLE}`, { text: 'x' }, de());
    expect(sysDe.body.message).toBe(
      '„Einzelunternehmen“ ist ein Systemeintrag der Liste Rechtsformen und kann nicht geändert oder gelöscht werden',
    );
    const a = await entry('relation-types', 'Alpha');
    await entry('relation-types', 'Beta');
    const clash = await call('PUT', `/company-settings/relation-types/${a}`, { text: 'beta' });
    expect(clash.status).toBe(409);
    expect(clash.body.errors[0]).toMatchObject({ field: 'text', rule: 'textTaken' });
    const clashSystem = await call('PUT', `/company-settings/relation-types/${a}`, {
      text: 'Tochtergesellschaft',
    });
    expect(clashSystem.status).toBe(409);
    const missingId = randomUUID();
    const unknown = await call('PUT', `/company-settings/relation-types/${missingId}`, {
      text: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(`Settings entry ${missingId} was not found`);
    expect(
      (await call('PUT', '/company-settings/relation-types/not-a-uuid', { text: 'x' })).status,
    ).toBe(404);
    // another list's entry is not an entry of this list
    expect((await call('PUT', `/company-settings/email-types/${a}`, { text: 'x' })).status).toBe(
      404,
    );
    const foreign = await call(
      'PUT',
      `/company-settings/relation-types/${a}`,
      { text: 'Stolen' },
      tenantHeaders(B),
    );
    expect(foreign.status).toBe(404);
    expect((await db.companySettingsEntry.findUnique({ where: { id: a } }))!.text).toBe('Alpha');
    const bad = await call('PUT', `/company-settings/relation-types/${a}`, { text: null });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'text', rule: 'isNotEmpty' });
    const badColor = await call('PUT', `/company-settings/relation-types/${a}`, {
      color: '#FFFFFF',
    });
    expect(badColor.status).toBe(400);
    expect(badColor.body.errors[0]).toMatchObject({ field: 'color', rule: 'notForList' });
    const unknownField = await call('PUT', `/company-settings/relation-types/${a}`, { foo: 1 });
    expect(unknownField.status).toBe(400);
    expect((await db.companySettingsEntry.findUnique({ where: { id: a } }))!.text).toBe('Alpha');
  });
});

describe('S4/S5 DELETE', () => {
  it('S5 deletes an unused entry and answers it; S4 deletes several, all or nothing', async () => {
    const e = await entry('customer-counts', 'Exactly one');
    const res = await call('DELETE', `/company-settings/customer-counts/${e}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: e, text: 'Exactly one', isSystem: false });
    expect((await call('DELETE', `/company-settings/customer-counts/${e}`)).status).toBe(404);
    expect((await call('DELETE', '/company-settings/customer-counts/nope')).status).toBe(404);

    const [x, y] = (
      await call('POST', '/company-settings/customer-counts', [{ text: 'X1' }, { text: 'Y1' }])
    ).body.data;
    const missing = await call('DELETE', '/company-settings/customer-counts/batch', {
      ids: [x.id, randomUUID()],
    });
    expect(missing.status).toBe(404);
    expect(await db.companySettingsEntry.count({ where: { id: x.id } })).toBe(1);
    const bad = await call('DELETE', '/company-settings/customer-counts/batch', { ids: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'ids', rule: 'isUuid' });
    const none = await call('DELETE', '/company-settings/customer-counts/batch', { ids: [] });
    expect(none.status).toBe(400);
    expect(none.body.errors[0]).toMatchObject({ field: 'ids', rule: 'arrayMinSize' });
    const badForce = await call('DELETE', `/company-settings/customer-counts/${x.id}?force=yes`);
    expect(badForce.status).toBe(400);
    expect(badForce.body.errors[0]).toMatchObject({ field: 'force', rule: 'isBoolean' });
    const ok = await call('DELETE', '/company-settings/customer-counts/batch', {
      ids: [x.id, y.id, x.id],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((e: any) => e.text)).toEqual(['X1', 'Y1']);
    expect(await db.companySettingsEntry.count({ where: { id: { in: [x.id, y.id] } } })).toBe(0);
  });

  it('refuses to delete system entries: 409 and nothing deleted', async () => {
    expect((await call('DELETE', `/company-settings/lifecycles/${LEAD}`)).status).toBe(409);
    const own = await entry('reference-number-types', 'Tax office number');
    const batch = await call('DELETE', '/company-settings/reference-number-types/batch', {
      ids: [own, DUNS],
    });
    expect(batch.status).toBe(409);
    expect(batch.body.message).toBe(
      '"D-U-N-S number" is a system entry of the list reference number types: it cannot be changed or deleted',
    );
    expect(await db.companySettingsEntry.count({ where: { id: own } })).toBe(1);
  });

  it('another tenant cannot delete: 404 and nothing changed', async () => {
    const e = await entry('tags', 'Mine only');
    expect(
      (await call('DELETE', `/company-settings/tags/${e}?force=true`, undefined, tenantHeaders(B)))
        .status,
    ).toBe(404);
    expect(
      (
        await call(
          'DELETE',
          '/company-settings/tags/batch?force=true',
          { ids: [e] },
          tenantHeaders(B),
        )
      ).status,
    ).toBe(404);
    expect(await db.companySettingsEntry.count({ where: { id: e } })).toBe(1);
    const seenByB = await call('GET', '/company-settings/tags?q=Mine', undefined, tenantHeaders(B));
    expect(seenByB.body.data).toEqual([]);
  });
});

describe('the delete policy for each kind of reference', () => {
  it('tags: 409 "used by N companies"; force takes them off the companies', async () => {
    const golf = await entry('tags', 'Golf');
    const other = await entry('tags', 'Sailing');
    const c1 = await company(A, {
      tags: {
        create: [
          { tenantId: A, entryId: golf, position: 0 },
          { tenantId: A, entryId: other, position: 1 },
        ],
      },
    });
    await company(A, { tags: { create: { tenantId: A, entryId: golf, position: 0 } } });

    const refused = await call('DELETE', `/company-settings/tags/${golf}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Nothing was deleted, entries are still in use: "Golf" is used by 2 companies. ' +
        'Delete with force=true to remove them from everything using them',
    );
    expect(refused.body.errors).toEqual([
      { field: 'id', rule: 'entryInUse', message: '"Golf" is used by 2 companies' },
    ]);
    const refusedDe = await call('DELETE', `/company-settings/tags/${other}`, undefined, de());
    expect(refusedDe.body.message).toContain('„Sailing“ wird von 1 Firma verwendet');
    expect(await db.companyTag.count({ where: { entryId: golf } })).toBe(2);

    const forced = await call('DELETE', `/company-settings/tags/${golf}?force=true`);
    expect(forced.status).toBe(200);
    expect(forced.body.data).toMatchObject({ id: golf, text: 'Golf' });
    expect(await db.companyTag.count({ where: { entryId: golf } })).toBe(0);
    expect(await db.companyTag.count({ where: { companyId: c1.id } })).toBe(1);
    expect(await db.companySettingsEntry.count({ where: { id: golf } })).toBe(0);
    expect(await db.company.count({ where: { id: c1.id } })).toBe(1);
  });

  it('life cycles: force clears the current life cycle and keeps the history', async () => {
    const stage = (
      await call('POST', '/company-settings/lifecycles', { text: 'Nurture', color: '#010203' })
    ).body.data.id;
    const c = await company(A, {
      lifecycleId: stage,
      lifecycleChanged: new Date('2026-01-01T00:00:00Z'),
      lifecycleHistories: { create: { tenantId: A, lifecycleId: stage } },
    });
    const keep = await company(A, { lifecycleId: LEAD });
    const refused = await call('DELETE', '/company-settings/lifecycles/batch', { ids: [stage] });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      {
        field: 'ids[0]',
        rule: 'entryInUse',
        message: '"Nurture" is used by 1 company',
      },
    ]);
    const forced = await call('DELETE', '/company-settings/lifecycles/batch?force=true', {
      ids: [stage],
    });
    expect(forced.status).toBe(200);
    const read = await db.company.findUnique({ where: { id: c.id } });
    expect(read!.lifecycleId).toBeNull();
    expect(read!.lifecycleChanged!.getTime()).toBeGreaterThan(Date.now() - 60000);
    expect(
      await db.companyLifecycleHistory.findMany({
        where: { companyId: c.id },
        select: { lifecycleId: true },
      }),
    ).toEqual([{ lifecycleId: stage }]);
    expect((await db.company.findUnique({ where: { id: keep.id } }))!.lifecycleId).toBe(LEAD);
  });

  it.each([
    ['legal-forms', 'legalFormId'],
    ['industry-sectors', 'industrySectorId'],
    ['employee-counts', 'employeeCountId'],
    ['customer-counts', 'customerCountId'],
  ] as const)('%s: 409 counts companies; force clears %s', async (list, column) => {
    const [x, y] = (
      await call('POST', `/company-settings/${list}`, [{ text: `X of ${list}` }, { text: `Y` }])
    ).body.data.map((e: any) => e.id);
    const old = new Date('2026-01-01T00:00:00Z');
    const c1 = await company(A, { [column]: x, dateModified: old });
    const c2 = await company(A, { [column]: x });
    const c3 = await company(A, { [column]: y });
    // a company of another tenant holding the id (as if copied) is neither counted nor changed
    const foreign = await company(B, { [column]: x });

    const refused = await call('DELETE', `/company-settings/${list}/batch`, { ids: [y, x] });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { field: 'ids[0]', rule: 'entryInUse', message: '"Y" is used by 1 company' },
      { field: 'ids[1]', rule: 'entryInUse', message: `"X of ${list}" is used by 2 companies` },
    ]);
    expect(refused.body.message).toContain(
      `"Y" is used by 1 company; "X of ${list}" is used by 2 companies.`,
    );
    expect(await db.companySettingsEntry.count({ where: { id: { in: [x, y] } } })).toBe(2);

    const forced = await call('DELETE', `/company-settings/${list}/batch?force=true`, {
      ids: [x, y],
    });
    expect(forced.status).toBe(200);
    expect(forced.body.data.map((e: any) => e.id)).toEqual([x, y]);
    const rows = await db.company.findMany({
      where: { id: { in: [c1.id, c2.id, c3.id, foreign.id] } },
    });
    const byId = new Map(rows.map((r) => [r.id, r as Record<string, unknown>]));
    for (const c of [c1, c2, c3]) expect(byId.get(c.id)![column]).toBeNull();
    expect((byId.get(c1.id)!.dateModified as Date).getTime()).toBeGreaterThan(old.getTime());
    expect(byId.get(foreign.id)![column]).toBe(x);
  });

  it('reference number types: force removes the numbers of the type, keeping the others in order', async () => {
    const vat = await entry('reference-number-types', 'Chamber number');
    const c1 = await company(A, {
      referenceNumbers: [
        { typeId: vat, number: '1' },
        { typeId: DUNS, number: '2' },
        { typeId: vat, number: '3' },
        { typeId: DUNS, number: '4' },
      ],
    });
    // the type as a client may have spelt it (upper case) still counts
    const c2 = await company(A, { referenceNumbers: [{ typeId: vat.toUpperCase(), number: '5' }] });
    const untouched = await company(A, {
      referenceNumbers: [{ typeId: DUNS, number: '6' }],
      dateModified: new Date('2026-01-01T00:00:00Z'),
    });
    const foreign = await company(B, { referenceNumbers: [{ typeId: vat, number: '7' }] });

    const refused = await call('DELETE', `/company-settings/reference-number-types/${vat}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].message).toBe('"Chamber number" is used by 2 companies');

    const forced = await call(
      'DELETE',
      `/company-settings/reference-number-types/${vat}?force=true`,
    );
    expect(forced.status).toBe(200);
    const read = async (id: string) => (await db.company.findUnique({ where: { id } }))!;
    expect((await read(c1.id)).referenceNumbers).toEqual([
      { typeId: DUNS, number: '2' },
      { typeId: DUNS, number: '4' },
    ]);
    expect((await read(c1.id)).dateModified.getTime()).toBeGreaterThan(c1.dateModified.getTime());
    expect((await read(c2.id)).referenceNumbers).toEqual([]);
    expect((await read(untouched.id)).referenceNumbers).toEqual([{ typeId: DUNS, number: '6' }]);
    expect((await read(untouched.id)).dateModified.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect((await read(foreign.id)).referenceNumbers).toEqual([{ typeId: vat, number: '7' }]);
    expect(await db.companySettingsEntry.count({ where: { id: vat } })).toBe(0);
  });

  it('e-mail types: 409 counts e-mail addresses; force leaves the addresses without type', async () => {
    const sales = await entry('email-types', 'Sales');
    const c1 = await company(A, {
      emails: {
        create: [
          { tenantId: A, email: 'a@x.example', domain: 'x.example', emailTypeId: sales },
          { tenantId: A, email: 'b@x.example', domain: 'x.example', emailTypeId: sales },
          { tenantId: A, email: 'c@x.example', domain: 'x.example', emailTypeId: null },
        ],
      },
    });
    await company(A, {
      emails: {
        create: { tenantId: A, email: 'd@y.example', domain: 'y.example', emailTypeId: sales },
      },
    });
    const refused = await call('DELETE', `/company-settings/email-types/${sales}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].message).toBe('"Sales" is used by 3 e-mail addresses');
    const refusedDe = await call(
      'DELETE',
      `/company-settings/email-types/${sales}`,
      undefined,
      de(),
    );
    expect(refusedDe.body.errors[0].message).toBe('„Sales“ wird von 3 E-Mail-Adressen verwendet');

    expect((await call('DELETE', `/company-settings/email-types/${sales}?force=true`)).status).toBe(
      200,
    );
    expect(await db.companyEmail.count({ where: { emailTypeId: sales } })).toBe(0);
    expect(await db.companyEmail.count({ where: { companyId: c1.id } })).toBe(3);
  });

  it('relation types: 409 counts relations; force deletes the relations of the type', async () => {
    const owner = await entry('relation-types', 'Owner of');
    const [c1, c2, c3] = [await company(A), await company(A), await company(A)];
    await db.companyRelation.createMany({
      data: [
        { tenantId: A, fromCompanyId: c1.id, toCompanyId: c2.id, relationTypeId: owner },
        { tenantId: A, fromCompanyId: c1.id, toCompanyId: c3.id, relationTypeId: SUBSIDIARY },
      ],
    });
    const refused = await call('DELETE', `/company-settings/relation-types/${owner}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].message).toBe('"Owner of" is used by 1 company relation');
    expect(
      (await call('DELETE', `/company-settings/relation-types/${owner}?force=true`)).status,
    ).toBe(200);
    expect(
      await db.companyRelation.findMany({
        where: { fromCompanyId: c1.id },
        select: { relationTypeId: true },
      }),
    ).toEqual([{ relationTypeId: SUBSIDIARY }]);
  });

  it('force with a mix of used and unused entries deletes all of them; a failure changes nothing', async () => {
    const [used, unused] = (
      await call('POST', '/company-settings/tags', [{ text: 'Used tag' }, { text: 'Unused tag' }])
    ).body.data.map((e: any) => e.id);
    const c = await company(A, { tags: { create: { tenantId: A, entryId: used, position: 0 } } });
    const missing = await call('DELETE', '/company-settings/tags/batch?force=true', {
      ids: [used, randomUUID()],
    });
    expect(missing.status).toBe(404);
    expect(await db.companyTag.count({ where: { companyId: c.id } })).toBe(1);
    const res = await call('DELETE', '/company-settings/tags/batch?force=true', {
      ids: [unused, used],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: any) => e.text)).toEqual(['Unused tag', 'Used tag']);
    expect(await db.companyTag.count({ where: { companyId: c.id } })).toBe(0);
  });
});

describe('SettingsLookupService (used by the other company domains)', () => {
  it('resolveTags finds by id or text ignoring case, creates the rest at the end, in input order', async () => {
    const T = `tenant-tags-${randomUUID().slice(0, 8)}`;
    const lookup = svc.app.get(SettingsLookupService);
    // as the domains call it: in a transaction of the request's tenant
    const asT = <R>(fn: (tx: Tx) => Promise<R>) =>
      asTenant(T, async () => await svc.app.get(PrismaService).$transaction(fn));
    const existing = await entry('tags', 'Existing', T);
    await call('POST', '/company-settings/tags', { text: 'Last', position: 7 }, tenantHeaders(T));
    const resolved = await asT((tx) =>
      lookup.resolveTags(
        tx,
        T,
        'TAGS',
        [
          { text: ' Brand new ' },
          { id: existing },
          { text: 'BRAND NEW' },
          { text: 'existing' },
          { text: 'Second new', category: 'dropped: tags have no category' },
        ],
        'tags',
        'en',
      ),
    );
    expect(resolved.map((e) => e.text)).toEqual(['Brand new', 'Existing', 'Second new']);
    const rows = await db.companySettingsEntry.findMany({
      where: { tenantId: T, list: 'TAGS' },
      orderBy: { position: 'asc' },
      select: { text: true, position: true, category: true },
    });
    expect(rows).toEqual([
      { text: 'Existing', position: 0, category: null },
      { text: 'Last', position: 7, category: null },
      { text: 'Brand new', position: 8, category: null },
      { text: 'Second new', position: 9, category: null },
    ]);

    // a text of a system entry, in any language, is that entry
    const lifecycle = await asT((tx) =>
      lookup.resolveTags(tx, T, 'LIFECYCLES', [{ text: 'kunde' }], 'lifecycle', 'en'),
    );
    expect(lifecycle).toEqual([
      { id: CUSTOMER, text: 'Customer', color: '#4CAF50', category: null },
    ]);

    const foreign = await entry('tags', 'Foreign tag', B);
    const refused = await asT((tx) =>
      lookup.resolveTags(tx, T, 'TAGS', [{ text: 'Never' }, { id: foreign }], 'tags', 'de'),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppException);
    expect((refused as AppException).problems).toEqual([
      { field: 'tags[1].id', rule: 'unknownEntry', args: { list: 'Tags' } },
    ]);
    expect(await db.companySettingsEntry.count({ where: { tenantId: T, text: 'Never' } })).toBe(0);
  });

  it('entries, anyEntries and requireEntry merge system and tenant entries of the tenant only', async () => {
    const app = svc.app.get(SettingsLookupService);
    // as the domains call it: in a request of tenant A
    const lookup: Pick<SettingsLookupService, 'entries' | 'anyEntries' | 'requireEntry'> = {
      entries: (...args) => asTenant(A, () => app.entries(...args)),
      anyEntries: (...args) => asTenant(A, () => app.anyEntries(...args)),
      requireEntry: (...args) => asTenant(A, () => app.requireEntry(...args)),
    };
    const own = await entry('legal-forms', 'Own legal form');
    const foreign = await entry('legal-forms', 'Foreign legal form', B);
    const found = await lookup.entries(A, 'LEGAL_FORMS', [own, SOLE, foreign, LEAD], 'de');
    expect([...found.keys()].sort()).toEqual([own, SOLE].sort());
    expect(found.get(SOLE)!.text).toBe('Einzelunternehmen');
    const any = await lookup.anyEntries(A, [own, LEAD, foreign], 'en');
    expect(any.get(LEAD)).toEqual({ id: LEAD, text: 'Lead', color: '#9E9E9E', category: null });
    expect(any.get(own)!.text).toBe('Own legal form');
    expect(any.has(foreign)).toBe(false);
    await expect(
      lookup.requireEntry(A, 'LEGAL_FORMS', foreign, 'legalForm.id', 'en'),
    ).rejects.toMatchObject({
      problems: [{ field: 'legalForm.id', rule: 'unknownEntry', args: { list: 'legal forms' } }],
    });
    await expect(lookup.requireEntry(A, 'LEGAL_FORMS', own, 'legalForm.id', 'en')).resolves.toEqual(
      { id: own, text: 'Own legal form', color: null, category: null },
    );
  });
});

describe('GraphQL', () => {
  it('companySettings and the create, update and delete mutations', async () => {
    const created = await gql(
      `mutation($inputs: [CreateCompanySettingsEntryInput!]!) {
        createCompanySettingsEntries(list: "tags", inputs: $inputs) { id text color position isSystem }
      }`,
      { inputs: [{ text: 'GraphQL tag', color: '#ABCDEF' }, { text: 'Second GraphQL tag' }] },
    );
    expect(created.body.errors).toBeUndefined();
    const [first, second] = created.body.data.createCompanySettingsEntries;
    expect(first).toMatchObject({ text: 'GraphQL tag', color: '#ABCDEF', isSystem: false });
    const page = await gql(
      `{ companySettings(list: "tags", q: "graphql", pageSize: 1) { totalResults items { id text } } }`,
    );
    expect(page.body.data.companySettings).toEqual({
      totalResults: 2,
      items: [{ id: first.id, text: 'GraphQL tag' }],
    });
    const german = await gql(
      `{ companySettings(list: "lifecycles", page: 2, pageSize: 1) { items { id text isSystem } } }`,
      {},
      de(),
    );
    expect(german.body.data.companySettings.items).toEqual([
      { id: '00000000-0000-4000-b000-000000000102', text: 'Interessent', isSystem: true },
    ]);
    const updated = await gql(
      `mutation($id: ID!) { updateCompanySettingsEntry(list: "tags", id: $id, input: { text: "GQL tag", color: null }) { text color } }`,
      { id: first.id },
    );
    expect(updated.body.data.updateCompanySettingsEntry).toEqual({ text: 'GQL tag', color: null });
    const dup = await gql(
      `mutation { createCompanySettingsEntries(list: "tags", inputs: [{ text: "gql TAG" }]) { id } }`,
    );
    expect(dup.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    const invalid = await gql(
      `mutation { createCompanySettingsEntries(list: "legal-forms", inputs: [{ text: "ok" }, { text: "x", color: "#000000" }]) { id } }`,
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    expect(invalid.body.errors[0].extensions.errors[0]).toMatchObject({
      field: '[1].color',
      rule: 'notForList',
    });
    const badUpdate = await gql(
      `mutation($id: ID!) { updateCompanySettingsEntry(list: "tags", id: $id, input: { text: "${'x'.repeat(201)}" }) { id } }`,
      { id: first.id },
    );
    expect(badUpdate.body.errors[0].extensions.statusCode).toBe(400);
    const system = await gql(
      `mutation { deleteCompanySettingsEntry(list: "lifecycles", id: "${LEAD}") { id } }`,
    );
    expect(system.body.errors[0].extensions.statusCode).toBe(409);

    const c = await company(A, {
      tags: { create: { tenantId: A, entryId: first.id, position: 0 } },
    });
    const inUse = await gql(
      `mutation($id: ID!) { deleteCompanySettingsEntry(list: "tags", id: $id) { id } }`,
      { id: first.id },
    );
    expect(inUse.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    expect(inUse.body.errors[0].message).toContain('"GQL tag" is used by 1 company');
    const forced = await gql(
      `mutation($id: ID!) { deleteCompanySettingsEntry(list: "tags", id: $id, force: true) { id text } }`,
      { id: first.id },
    );
    expect(forced.body.data.deleteCompanySettingsEntry).toEqual({ id: first.id, text: 'GQL tag' });
    expect(await db.companyTag.count({ where: { companyId: c.id } })).toBe(0);

    const foreign = await gql(
      `mutation($ids: [ID!]!) { deleteCompanySettingsEntries(list: "tags", ids: $ids) { id } }`,
      { ids: [second.id] },
      tenantHeaders(B),
    );
    expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
    const badIds = await gql(
      `mutation { deleteCompanySettingsEntries(list: "tags", ids: []) { id } }`,
    );
    expect(badIds.body.errors[0].extensions.errors[0]).toMatchObject({
      field: 'ids',
      rule: 'arrayMinSize',
    });
    const deleted = await gql(
      `mutation($ids: [ID!]!) { deleteCompanySettingsEntries(list: "tags", ids: $ids, force: false) { id } }`,
      { ids: [second.id] },
    );
    expect(deleted.body.data.deleteCompanySettingsEntries).toEqual([{ id: second.id }]);
    const unknown = await gql(`{ companySettings(list: "nope") { totalResults } }`);
    expect(unknown.body.errors[0].extensions.statusCode).toBe(404);
  });
});

describe('OpenAPI description', () => {
  it('documents S1-S5 with the delete policy and force', async () => {
    const res = await fetch(`${svc.url}/v1/crm/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    const paths = doc.paths as Record<string, Record<string, any>>;
    const op = (path: string, method: string) => paths[`/v1/crm${path}`]?.[method];
    expect(op('/company-settings/{list}', 'get').summary).toMatch(/^S1 /);
    expect(op('/company-settings/{list}', 'post').summary).toMatch(/^S2 /);
    expect(op('/company-settings/{list}/{entryId}', 'put').summary).toMatch(/^S3 /);
    expect(op('/company-settings/{list}/batch', 'delete').summary).toMatch(/^S4 /);
    // operation ids must not clash with crm-people's settings in the gateway's merged document
    expect(op('/company-settings/{list}', 'get').operationId).toMatch(/^CompanySettings/);
    expect(op('/company-settings/{list}/{entryId}', 'delete').summary).toMatch(/^S5 /);
    const s4 = op('/company-settings/{list}/batch', 'delete');
    expect(s4.description).toContain('used by N companies');
    expect(s4.parameters).toContainEqual(expect.objectContaining({ name: 'force', in: 'query' }));
    expect(s4.requestBody).toBeDefined();
    const s5 = op('/company-settings/{list}/{entryId}', 'delete');
    expect(s5.description).toContain('force=true');
    expect(Object.keys(s5.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
    expect(op('/company-settings/{list}', 'get').parameters).toContainEqual(
      expect.objectContaining({ name: 'list', schema: expect.objectContaining({ enum: LISTS }) }),
    );
  });
});
