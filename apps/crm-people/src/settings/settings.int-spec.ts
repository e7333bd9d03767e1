import { randomUUID } from 'node:crypto';
import { AppException } from '@crm/errors';
import { tenantHeaders } from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import { SettingsLookupService } from './settings-lookup.service';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { inTenant } from '../test/tenant-scope';

// S1-S5 and R9 against the real service (PostgreSQL, NATS): system entries, translation, the
// text rules, the delete policy (409 "used by N people", force removes references), isolation.

const LEAD = '00000000-0000-4000-a000-000000000101';
const CUSTOMER = '00000000-0000-4000-a000-000000000103';
const BUSINESS = '00000000-0000-4000-a000-000000000201';
const EMPLOYEE = '00000000-0000-4000-a000-000000000301';
const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

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

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_r_settings');
  db = svc.app.get(PrismaService);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

describe('S1 GET /people-settings/{list}', () => {
  it('answers the system entries of every list, translated by Accept-Language', async () => {
    const counts: Record<string, number> = {
      'property-entries': 0,
      'personality-tags': 0,
      'orga-tags': 0,
      'address-types': 4,
      lifecycles: 4,
      'manager-roles': 5,
      'company-relation-types': 8,
    };
    for (const [list, n] of Object.entries(counts)) {
      const res = await call('GET', `/people-settings/${list}`, undefined, tenantHeaders(B));
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(n);
      expect(res.body.metaData.totalResults).toBe(n);
      for (const e of res.body.data) expect(e.isSystem).toBe(true);
    }
    const en = await call('GET', '/people-settings/lifecycles');
    expect(en.body.data[0]).toEqual({
      id: LEAD,
      text: 'Lead',
      color: '#9E9E9E',
      category: null,
      position: null,
      isSystem: true,
    });
    const german = await call('GET', '/people-settings/address-types', undefined, de());
    expect(german.body.data.map((e: any) => e.text)).toEqual([
      'Geschäftlich',
      'Privat',
      'Rechnungsadresse',
      'Lieferadresse',
    ]);
    const roles = await call('GET', '/people-settings/company-relation-types', undefined, de());
    expect(roles.body.data[0]).toMatchObject({ id: EMPLOYEE, text: 'Mitarbeiter/in' });
  });

  it('pages across system and tenant entries, searches with q and sorts by text', async () => {
    const T = `tenant-page-${randomUUID().slice(0, 8)}`;
    const h = tenantHeaders(T);
    const created = await call(
      'POST',
      '/people-settings/lifecycles',
      [{ text: 'Zombie' }, { text: 'Advocate', color: '#123456' }, { text: 'Churned' }],
      h,
    );
    expect(created.status).toBe(201);
    const p1 = await call('GET', '/people-settings/lifecycles?page=1&pageSize=3', undefined, h);
    expect(p1.body.metaData.totalResults).toBe(7);
    expect(p1.body.data.map((e: any) => e.text)).toEqual(['Lead', 'Prospect', 'Customer']);
    const p2 = await call('GET', '/people-settings/lifecycles?page=2&pageSize=3', undefined, h);
    expect(p2.body.data.map((e: any) => e.text)).toEqual(['Former customer', 'Zombie', 'Advocate']);
    const p3 = await call('GET', '/people-settings/lifecycles?page=3&pageSize=3', undefined, h);
    expect(p3.body.data.map((e: any) => e.text)).toEqual(['Churned']);
    expect(p3.body.data[0]).toMatchObject({ isSystem: false, position: 2 });

    const q = await call('GET', '/people-settings/lifecycles?q=CUST', undefined, h);
    expect(q.body.data.map((e: any) => e.text)).toEqual(['Customer', 'Former customer']);
    const qDe = await call('GET', '/people-settings/lifecycles?q=kunde', undefined, de(T));
    expect(qDe.body.data.map((e: any) => e.text)).toEqual(['Kunde', 'Ehemaliger Kunde']);

    const byText = await call(
      'GET',
      '/people-settings/lifecycles?sort=text&pageSize=4',
      undefined,
      h,
    );
    expect(byText.body.data.map((e: any) => e.text)).toEqual([
      'Advocate',
      'Churned',
      'Customer',
      'Former customer',
    ]);
    expect(byText.body.metaData.totalResults).toBe(7);
    const desc = await call(
      'GET',
      '/people-settings/lifecycles?sort=-text&pageSize=2',
      undefined,
      h,
    );
    expect(desc.body.data.map((e: any) => e.text)).toEqual(['Zombie', 'Prospect']);
    const badSort = await call('GET', '/people-settings/lifecycles?sort=color', undefined, h);
    expect(badSort.status).toBe(400);
    expect(badSort.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
  });

  it('answers 404 for an unknown list', async () => {
    const res = await call('GET', '/people-settings/colours');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(
      'The list colours does not exist; the lists are: property-entries, personality-tags, ' +
        'orga-tags, address-types, lifecycles, manager-roles, company-relation-types',
    );
    expect((await call('POST', '/people-settings/colours', { text: 'x' })).status).toBe(404);
  });
});

describe('S2 POST /people-settings/{list}', () => {
  it('creates one entry from an object and several from an array', async () => {
    const one = await call('POST', '/people-settings/personality-tags', {
      text: '  Analytical ',
      category: 'DISC',
    });
    expect(one.status).toBe(201);
    expect(one.body.data).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      text: 'Analytical',
      category: 'DISC',
      color: null,
      isSystem: false,
    });
    const many = await call('POST', '/people-settings/orga-tags', [
      { text: 'VIP' },
      { text: 'Board' },
    ]);
    expect(many.status).toBe(201);
    expect(many.body.data.map((e: any) => e.text)).toEqual(['VIP', 'Board']);
    expect(many.body.metaData.totalResults).toBe(2);
    const list = await call('GET', '/people-settings/orga-tags');
    expect(list.body.data.map((e: any) => e.text)).toEqual(['VIP', 'Board']);
  });

  it('keeps texts unique per list ignoring case: 409, also against system entries in any language', async () => {
    await call('POST', '/people-settings/address-types', { text: 'Holiday home' });
    const again = await call('POST', '/people-settings/address-types', { text: 'HOLIDAY HOME' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The list address types already has an entry "HOLIDAY HOME"');
    expect(again.body.errors[0]).toMatchObject({ field: 'text', rule: 'textTaken' });
    const system = await call('POST', '/people-settings/lifecycles', { text: 'kunde' });
    expect(system.status).toBe(409);
    const twice = await call('POST', '/people-settings/address-types', [
      { text: 'Ski hut' },
      { text: 'ski HUT' },
    ]);
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([
      expect.objectContaining({ field: '[1].text', rule: 'textTaken' }),
    ]);
    // all or nothing: the first item was not written either
    const list = await call('GET', '/people-settings/address-types?q=ski');
    expect(list.body.data).toHaveLength(0);
    // the same text in another list or another tenant is fine
    expect(
      (await call('POST', '/people-settings/orga-tags', { text: 'Holiday home' })).status,
    ).toBe(201);
    expect(
      (
        await call(
          'POST',
          '/people-settings/address-types',
          { text: 'Holiday home' },
          tenantHeaders(B),
        )
      ).status,
    ).toBe(201);
  });

  it('refuses bad input with 400 naming field and rule, translated', async () => {
    const ok = await call('POST', '/people-settings/property-entries', { text: 'ä'.repeat(200) });
    expect(ok.status).toBe(201);
    const long = await call('POST', '/people-settings/property-entries', { text: 'ä'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([
      { field: 'text', rule: 'maxLength', message: 'text must be at most 200 characters long' },
    ]);
    const blank = await call('POST', '/people-settings/property-entries', { text: '   ' });
    expect(blank.body.errors).toEqual([
      expect.objectContaining({ field: 'text', rule: 'isNotEmpty' }),
    ]);
    const color = await call('POST', '/people-settings/lifecycles', { text: 'Hot', color: 'red' });
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
      '/people-settings/lifecycles',
      { text: 'Hot', color: '#12345' },
      de(),
    );
    expect(colorDe.body.errors[0].message).toBe('color muss eine Farbe der Form #RRGGBB sein');
    const notHere = await call('POST', '/people-settings/orga-tags', {
      text: 'Colourful',
      color: '#FF0000',
      category: 'x',
    });
    expect(notHere.body.errors).toEqual([
      {
        field: 'color',
        rule: 'notForList',
        message: 'color is not available for the list orga tags',
      },
      expect.objectContaining({ field: 'category', rule: 'notForList' }),
    ]);
    const items = await call('POST', '/people-settings/lifecycles', [
      { text: 'Fine', color: '#00FF00' },
      { text: 5 },
      { text: 'Extra', unknown: true },
    ]);
    expect(items.status).toBe(400);
    expect(items.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['[1].text', 'isString'],
      ['[2].unknown', 'whitelistValidation'],
    ]);
    const mixed = await call('POST', '/people-settings/lifecycles', [
      { text: 'x'.repeat(201), color: 'red' },
      { text: 'Fine too', color: '#00ff0' },
    ]);
    expect(mixed.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['[0].text', 'maxLength'],
      ['[0].color', 'colorFormat'],
      ['[1].color', 'colorFormat'],
    ]);
    const empty = await call('POST', '/people-settings/lifecycles', []);
    expect(empty.body.errors).toEqual([
      expect.objectContaining({ field: 'body', rule: 'arrayMinSize' }),
    ]);
    const tooMany = await call(
      'POST',
      '/people-settings/orga-tags',
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
    const scalar = await call('POST', '/people-settings/orga-tags', 'text');
    expect(scalar.status).toBe(400);
  });

  it('accepts 1000 entries in one call', async () => {
    const T = `tenant-bulk-${randomUUID().slice(0, 8)}`;
    const res = await call(
      'POST',
      '/people-settings/orga-tags',
      Array.from({ length: 1000 }, (_, i) => ({ text: `Tag ${i}` })),
      tenantHeaders(T),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1000);
    expect(res.body.data[999]).toMatchObject({ text: 'Tag 999', position: 999 });
  });
});

describe('S3 PUT /people-settings/{list}/{entryId}', () => {
  it('updates text, color and position; absent fields stay', async () => {
    const e = (
      await call('POST', '/people-settings/lifecycles', { text: 'Warm', color: '#FFAA00' })
    ).body.data;
    const res = await call('PUT', `/people-settings/lifecycles/${e.id}`, { text: 'Hot lead' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: e.id, text: 'Hot lead', color: '#FFAA00' });
    const recolor = await call('PUT', `/people-settings/lifecycles/${e.id}`, {
      color: null,
      position: 40,
    });
    expect(recolor.body.data).toMatchObject({ text: 'Hot lead', color: null, position: 40 });
    // changing only the case of its own text is no conflict
    expect(
      (await call('PUT', `/people-settings/lifecycles/${e.id}`, { text: 'HOT LEAD' })).status,
    ).toBe(200);
  });

  it('refuses system entries (409), clashes (409), unknown, malformed and foreign ids (404)', async () => {
    const sys = await call('PUT', `/people-settings/lifecycles/${CUSTOMER}`, { text: 'Client' });
    expect(sys.status).toBe(409);
    expect(sys.body.message).toBe(
      '"Customer" is a system entry of the list life cycles: it cannot be changed or deleted',
    );
    const a = (await call('POST', '/people-settings/orga-tags', { text: 'Alpha' })).body.data;
    await call('POST', '/people-settings/orga-tags', { text: 'Beta' });
    const clash = await call('PUT', `/people-settings/orga-tags/${a.id}`, { text: 'beta' });
    expect(clash.status).toBe(409);
    expect(
      (await call('PUT', `/people-settings/orga-tags/${randomUUID()}`, { text: 'x' })).status,
    ).toBe(404);
    expect((await call('PUT', '/people-settings/orga-tags/not-a-uuid', { text: 'x' })).status).toBe(
      404,
    );
    // another list's entry is not an entry of this list
    expect(
      (await call('PUT', `/people-settings/address-types/${a.id}`, { text: 'x' })).status,
    ).toBe(404);
    const foreign = await call(
      'PUT',
      `/people-settings/orga-tags/${a.id}`,
      { text: 'Stolen' },
      tenantHeaders(B),
    );
    expect(foreign.status).toBe(404);
    expect(
      (await inTenant(A, () => db.settingsEntry.findUnique({ where: { id: a.id } })))!.text,
    ).toBe('Alpha');
    const bad = await call('PUT', `/people-settings/orga-tags/${a.id}`, { text: null });
    expect(bad.status).toBe(400);
    const badColor = await call('PUT', `/people-settings/orga-tags/${a.id}`, { color: '#FFFFFF' });
    expect(badColor.body.errors[0]).toMatchObject({ field: 'color', rule: 'notForList' });
  });
});

describe('S4/S5 DELETE and the delete policy', () => {
  async function person(body: Record<string, unknown>) {
    const res = await call('POST', '/people', body);
    expect(res.status).toBe(201);
    return res.body.data;
  }

  it('S5 deletes an unused entry and answers it; S4 deletes several, all or nothing', async () => {
    const e = (await call('POST', '/people-settings/property-entries', { text: 'Shoe size' })).body
      .data;
    const res = await call('DELETE', `/people-settings/property-entries/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: e.id, text: 'Shoe size' });
    expect((await call('DELETE', `/people-settings/property-entries/${e.id}`)).status).toBe(404);

    const [x, y] = (
      await call('POST', '/people-settings/property-entries', [{ text: 'X1' }, { text: 'Y1' }])
    ).body.data;
    const missing = await call('DELETE', '/people-settings/property-entries/batch', {
      ids: [x.id, randomUUID()],
    });
    expect(missing.status).toBe(404);
    expect(await inTenant(A, () => db.settingsEntry.count({ where: { id: x.id } }))).toBe(1);
    const bad = await call('DELETE', '/people-settings/property-entries/batch', { ids: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'ids', rule: 'isUuid' });
    const ok = await call('DELETE', '/people-settings/property-entries/batch', {
      ids: [x.id, y.id],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((e: any) => e.text)).toEqual(['X1', 'Y1']);
    expect(
      await inTenant(A, () => db.settingsEntry.count({ where: { id: { in: [x.id, y.id] } } })),
    ).toBe(0);
  });

  it('refuses to delete system entries: 409', async () => {
    expect((await call('DELETE', `/people-settings/lifecycles/${LEAD}`)).status).toBe(409);
    const batch = await call('DELETE', '/people-settings/address-types/batch', { ids: [BUSINESS] });
    expect(batch.status).toBe(409);
    expect(batch.body.message).toContain('"Business" is a system entry');
  });

  it('refuses an entry in use with 409 "used by N people"; force removes it from people and touchpoints', async () => {
    const p1 = await person({
      firstname: 'Tag',
      orgaTags: [{ text: 'Golf' }],
      personalities: [{ text: 'Calm' }],
    });
    const golf = p1.orgaTags[0].id;
    const calm = p1.personalities[0].id;
    await person({ firstname: 'Tag2', orgaTags: [{ id: golf }] });
    const tp = await inTenant(A, () =>
      db.touchpoint.create({
        data: {
          tenantId: A,
          type: 'call',
          subject: 'Hi',
          start: new Date(),
          tags: { create: { tenantId: A, entryId: golf } },
        },
      }),
    );

    const refused = await call('DELETE', `/people-settings/orga-tags/${golf}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Nothing was deleted, entries are still in use: "Golf" is used by 2 people and 1 touchpoints. ' +
        'Delete with force=true to remove them from everything using them',
    );
    expect(refused.body.errors).toEqual([
      { field: 'id', rule: 'entryInUse', message: '"Golf" is used by 2 people and 1 touchpoints' },
    ]);
    const refusedDe = await call(
      'DELETE',
      `/people-settings/personality-tags/${calm}`,
      undefined,
      de(),
    );
    expect(refusedDe.body.message).toContain('„Calm“ wird von 1 Personen verwendet');

    const forced = await call('DELETE', `/people-settings/orga-tags/${golf}?force=true`);
    expect(forced.status).toBe(200);
    expect((await call('GET', `/people/${p1.id}`)).body.data.orgaTags).toEqual([]);
    expect(
      await inTenant(A, () => db.touchpointTag.count({ where: { touchpointId: tp.id } })),
    ).toBe(0);
    expect(await inTenant(A, () => db.settingsEntry.count({ where: { id: golf } }))).toBe(0);
  });

  it('lifecycles: in use by the current lifecycle; force clears it and keeps the history', async () => {
    const stage = (
      await call('POST', '/people-settings/lifecycles', { text: 'Nurture', color: '#010203' })
    ).body.data;
    const p = await person({ firstname: 'Life', lifecycle: { lifecycleId: stage.id } });
    const refused = await call('DELETE', '/people-settings/lifecycles/batch', { ids: [stage.id] });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        field: 'ids[0]',
        rule: 'entryInUse',
        message: '"Nurture" is used by 1 people',
      }),
    ]);
    const forced = await call('DELETE', '/people-settings/lifecycles/batch?force=true', {
      ids: [stage.id],
    });
    expect(forced.status).toBe(200);
    const read = (await call('GET', `/people/${p.id}`)).body.data;
    expect(read.lifecycle).toBeNull();
    expect(read.lifecycleHistories).toEqual([
      expect.objectContaining({ lifecycleId: stage.id, text: '' }),
    ]);
  });

  it('address types and company relation types: counted per person, force removes them from cards', async () => {
    const [home, boss] = [
      (await call('POST', '/people-settings/address-types', { text: 'Second home' })).body.data,
      (await call('POST', '/people-settings/company-relation-types', { text: 'Silent partner' }))
        .body.data,
    ];
    const p = await person({ firstname: 'Card' });
    const card = await inTenant(A, () =>
      db.businessCard.create({
        data: {
          tenantId: A,
          personId: p.id,
          companyRelationTypeId: boss.id,
          addresses: {
            create: [
              { tenantId: A, addressTypeIds: [BUSINESS, home.id], city: 'Bonn' },
              { tenantId: A, addressTypeIds: [home.id], city: 'Köln' },
            ],
          },
        },
      }),
    );
    const refused = await call('DELETE', `/people-settings/address-types/${home.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].message).toBe('"Second home" is used by 1 people');
    expect(
      (await call('DELETE', `/people-settings/company-relation-types/${boss.id}`)).status,
    ).toBe(409);

    expect(
      (await call('DELETE', `/people-settings/address-types/${home.id}?force=true`)).status,
    ).toBe(200);
    expect(
      (await call('DELETE', `/people-settings/company-relation-types/${boss.id}?force=true`))
        .status,
    ).toBe(200);
    const addresses = await inTenant(A, () =>
      db.cardAddress.findMany({ where: { cardId: card.id }, orderBy: { city: 'asc' } }),
    );
    expect(addresses.map((a) => a.addressTypeIds)).toEqual([[BUSINESS], []]);
    expect(
      (await inTenant(A, () => db.businessCard.findUnique({ where: { id: card.id } })))!
        .companyRelationTypeId,
    ).toBeNull();
  });

  it('manager roles are deleted without a usage check (used by crm-companies only)', async () => {
    const role = (
      await call('POST', '/people-settings/manager-roles', { text: 'Night shift contact' })
    ).body.data;
    expect((await call('DELETE', `/people-settings/manager-roles/${role.id}`)).status).toBe(200);
  });

  it('another tenant cannot delete: 404 and nothing changed', async () => {
    const e = (await call('POST', '/people-settings/orga-tags', { text: 'Mine only' })).body.data;
    expect(
      (await call('DELETE', `/people-settings/orga-tags/${e.id}`, undefined, tenantHeaders(B)))
        .status,
    ).toBe(404);
    expect(
      (await call('DELETE', '/people-settings/orga-tags/batch', { ids: [e.id] }, tenantHeaders(B)))
        .status,
    ).toBe(404);
    expect(await inTenant(A, () => db.settingsEntry.count({ where: { id: e.id } }))).toBe(1);
    const seenByB = await call(
      'GET',
      '/people-settings/orga-tags?q=Mine',
      undefined,
      tenantHeaders(B),
    );
    expect(seenByB.body.data).toEqual([]);
  });
});

describe('R9 GET /people-settings/relation-types', () => {
  it('lists the types with category, inverse and translated names', async () => {
    const res = await call('GET', '/people-settings/relation-types');
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({
      identifier: 'parent',
      category: 'private',
      inverseIdentifier: 'child',
      name: 'Parent',
      inverseName: 'Child',
      symmetric: false,
    });
    expect(res.body.data).toContainEqual(
      expect.objectContaining({
        identifier: 'spouse',
        inverseIdentifier: 'spouse',
        symmetric: true,
      }),
    );
    const business = await call(
      'GET',
      '/people-settings/relation-types?category=business',
      undefined,
      de(),
    );
    expect(business.body.data.every((t: any) => t.category === 'business')).toBe(true);
    expect(business.body.data).toContainEqual(
      expect.objectContaining({
        identifier: 'manager',
        name: 'Vorgesetzte/r',
        inverseName: 'Mitarbeiter/in',
      }),
    );
    const bad = await call('GET', '/people-settings/relation-types?category=family');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'category', rule: 'isIn' });
  });
});

describe('SettingsLookupService (used by the other people domains)', () => {
  it('resolveTags finds by id or text ignoring case and creates the rest (position 0, category as given)', async () => {
    const T = `tenant-tags-${randomUUID().slice(0, 8)}`;
    const lookup = svc.app.get(SettingsLookupService);
    const existing = (
      await call(
        'POST',
        '/people-settings/personality-tags',
        { text: 'Existing' },
        tenantHeaders(T),
      )
    ).body.data.id;
    await call(
      'POST',
      '/people-settings/personality-tags',
      { text: 'Last', position: 7 },
      tenantHeaders(T),
    );
    // the service's transactions are a request's: they run as its tenant
    const resolved = await inTenant(T, () =>
      db.$transaction((tx) =>
        lookup.resolveTags(
          tx,
          T,
          'PERSONALITY_TAGS',
          [
            { text: ' Brand new ', category: ' DISC ' },
            { id: existing },
            { text: 'BRAND NEW', category: 'ignored: the entry exists by then' },
            { text: 'existing' },
            { text: 'Second new' },
          ],
          'personalities',
          'en',
        ),
      ),
    );
    expect(resolved.map((e) => e.text)).toEqual(['Brand new', 'Existing', 'Second new']);
    const rows = await inTenant(T, () =>
      db.settingsEntry.findMany({
        where: { tenantId: T, list: 'PERSONALITY_TAGS' },
        orderBy: [{ position: 'asc' }, { text: 'asc' }],
        select: { text: true, position: true, category: true },
      }),
    );
    expect(rows).toEqual([
      { text: 'Brand new', position: 0, category: ' DISC ' },
      { text: 'Existing', position: 0, category: null },
      { text: 'Second new', position: 0, category: null },
      { text: 'Last', position: 7, category: null },
    ]);

    const foreign = (
      await call('POST', '/people-settings/orga-tags', { text: 'Foreign tag' }, tenantHeaders(B))
    ).body.data.id;
    const refused = await inTenant(T, () =>
      db.$transaction((tx) =>
        lookup.resolveTags(tx, T, 'ORGA_TAGS', [{ text: 'Never' }, { id: foreign }], 'tags', 'de'),
      ),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppException);
    expect((refused as AppException).problems).toEqual([
      { field: 'tags[1].id', rule: 'unknownEntry', args: { list: 'Orga-Tags' } },
    ]);
    expect(
      await inTenant(T, () => db.settingsEntry.count({ where: { tenantId: T, text: 'Never' } })),
    ).toBe(0);
  });

  it('resolveTags compares texts exactly ignoring case: % and _ are no wildcards', async () => {
    const T = `tenant-tags-${randomUUID().slice(0, 8)}`;
    const lookup = svc.app.get(SettingsLookupService);
    const [existing] = (
      await call('POST', '/people-settings/orga-tags', [{ text: 'Existing' }], tenantHeaders(T))
    ).body.data;
    const resolved = await inTenant(T, () =>
      db.$transaction((tx) =>
        lookup.resolveTags(
          tx,
          T,
          'ORGA_TAGS',
          [{ text: 'Exist_ng' }, { text: '%' }, { text: 'EXISTING' }],
          'tags',
          'en',
        ),
      ),
    );
    expect(resolved.map((e) => e.text)).toEqual(['Exist_ng', '%', 'Existing']);
    expect(resolved[2].id).toBe(existing.id);
    expect(
      await inTenant(T, () =>
        db.settingsEntry.count({ where: { tenantId: T, list: 'ORGA_TAGS' } }),
      ),
    ).toBe(3);
  });

  it('entries, anyEntries and requireEntry merge system and tenant entries of the tenant only', async () => {
    const lookup = svc.app.get(SettingsLookupService);
    const own = (await call('POST', '/people-settings/address-types', { text: 'Own address type' }))
      .body.data.id;
    const foreign = (
      await call(
        'POST',
        '/people-settings/address-types',
        { text: 'Foreign address type' },
        tenantHeaders(B),
      )
    ).body.data.id;
    // as a request of A calls it
    const found = await inTenant(A, () =>
      lookup.entries(A, 'ADDRESS_TYPES', [own, BUSINESS, foreign, LEAD], 'de'),
    );
    expect([...found.keys()].sort()).toEqual([own, BUSINESS].sort());
    expect(found.get(BUSINESS)!.text).toBe('Geschäftlich');
    const any = await inTenant(A, () => lookup.anyEntries(A, [own, LEAD, foreign], 'en'));
    expect(any.get(LEAD)).toEqual({ id: LEAD, text: 'Lead', color: '#9E9E9E', category: null });
    expect(any.get(own)).toEqual({
      id: own,
      text: 'Own address type',
      color: null,
      category: null,
    });
    expect(any.has(foreign)).toBe(false);
    await expect(
      inTenant(A, () =>
        lookup.requireEntry(A, 'ADDRESS_TYPES', foreign, 'addressTypeIds[0]', 'en'),
      ),
    ).rejects.toMatchObject({
      problems: [
        { field: 'addressTypeIds[0]', rule: 'unknownEntry', args: { list: 'address types' } },
      ],
    });
    await expect(
      inTenant(A, () => lookup.requireEntry(A, 'LIFECYCLES', LEAD, 'lifecycle', 'de')),
    ).resolves.toEqual({
      id: LEAD,
      text: 'Lead',
      color: '#9E9E9E',
      category: null,
    });
  });
});

describe('GraphQL', () => {
  it('peopleSettings, create, update and delete mutations and relationTypes', async () => {
    const created = await gql(
      `mutation($input: [CreatePeopleSettingsEntryInput!]!) {
        createPeopleSettingsEntries(list: "lifecycles", input: $input) { id text color isSystem }
      }`,
      { input: [{ text: 'GraphQL stage', color: '#ABCDEF' }] },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createPeopleSettingsEntries[0].id;
    const page = await gql(
      `{ peopleSettings(list: "lifecycles", q: "stage") { totalResults items { id text color isSystem } } }`,
    );
    expect(page.body.data.peopleSettings).toEqual({
      totalResults: 1,
      items: [{ id, text: 'GraphQL stage', color: '#ABCDEF', isSystem: false }],
    });
    const de = await gql(
      `{ peopleSettings(list: "lifecycles", pageSize: 1) { items { text } } }`,
      {},
      tenantHeaders(A, { 'Accept-Language': 'de' }),
    );
    expect(de.body.data.peopleSettings.items).toEqual([{ text: 'Lead' }]);
    const updated = await gql(
      `mutation($id: ID!) { updatePeopleSettingsEntry(list: "lifecycles", id: $id, input: { text: "GQL stage" }) { text } }`,
      { id },
    );
    expect(updated.body.data.updatePeopleSettingsEntry.text).toBe('GQL stage');
    const dup = await gql(
      `mutation { createPeopleSettingsEntries(list: "lifecycles", input: [{ text: "gql STAGE" }]) { id } }`,
    );
    expect(dup.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    const invalid = await gql(
      `mutation { createPeopleSettingsEntries(list: "lifecycles", input: [{ text: "ok" }, { text: "${'x'.repeat(201)}" }]) { id } }`,
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    expect(invalid.body.errors[0].extensions.errors[0]).toMatchObject({
      field: '[1].text',
      rule: 'maxLength',
    });
    const system = await gql(
      `mutation { deletePeopleSettingsEntry(list: "lifecycles", id: "${LEAD}") { id } }`,
    );
    expect(system.body.errors[0].extensions.statusCode).toBe(409);
    const deleted = await gql(
      `mutation($ids: [ID!]!) { deletePeopleSettingsEntries(list: "lifecycles", ids: $ids) { id } }`,
      { ids: [id] },
    );
    expect(deleted.body.data.deletePeopleSettingsEntries).toEqual([{ id }]);
    const unknown = await gql(`{ peopleSettings(list: "nope") { totalResults } }`);
    expect(unknown.body.errors[0].extensions.statusCode).toBe(404);
    const types = await gql(
      `{ relationTypes(category: "private") { identifier inverseIdentifier name } }`,
    );
    expect(types.body.data.relationTypes).toContainEqual({
      identifier: 'child',
      inverseIdentifier: 'parent',
      name: 'Child',
    });
  });
});

describe('OpenAPI description', () => {
  it('documents S1-S5 and R9 with the delete policy', async () => {
    const res = await fetch(`${svc.url}/v1/crm/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    const paths = doc.paths as Record<string, Record<string, any>>;
    const op = (path: string, method: string) => paths[`/v1/crm${path}`]?.[method];
    expect(op('/people-settings/relation-types', 'get').summary).toMatch(/^R9 /);
    expect(op('/people-settings/{list}', 'get').summary).toMatch(/^S1 /);
    expect(op('/people-settings/{list}', 'post').summary).toMatch(/^S2 /);
    expect(op('/people-settings/{list}/{entryId}', 'put').summary).toMatch(/^S3 /);
    expect(op('/people-settings/{list}/batch', 'delete').description).toContain('used by N people');
    expect(op('/people-settings/{list}/{entryId}', 'delete').description).toContain('force=true');
    expect(op('/people-settings/{list}/{entryId}', 'delete').description).toContain(
      'Manager roles',
    );
  });
});
