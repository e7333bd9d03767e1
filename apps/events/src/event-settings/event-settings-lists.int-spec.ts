import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { AppException } from '@crm/errors';
import { PrismaService } from '../database/prisma.service';
import { asTenantDo, inspect } from '../test/scopes';
import { startEvents, RunningService } from '../test/service-harness';
import { EventSettingsLookup } from './event-settings-lookup.service';
import {
  CONDITION,
  errorsOf,
  FIELD_SET,
  settingsTestClient,
  SYS,
} from './test/settings-test-client';

// ES4/ES5 of the tenant lists (settings engine) and the vendor lists, and EventSettingsLookup,
// against the real service (PostgreSQL, NATS). Events are written with Prisma: their routes
// belong to the events domain, as their tenant (row-level security holds the app's client).

// slow when the machine is busy (2 cores shared with other test runs)
jest.setTimeout(60000);

let svc: RunningService;
let t: ReturnType<typeof settingsTestClient>;
let db: PrismaService;
let lookup: EventSettingsLookup;

/** Concurrent creators of one new tag, each in a transaction of its own (one connection each). */
const CREATORS = 25;

const newTenant = () => `tenant-es-${randomUUID().slice(0, 8)}`;
const A = newTenant();
const B = newTenant();

beforeAll(async () => {
  // a connection for each of the concurrent creators below, so that all of them race in the
  // database at once instead of queueing for the pool (on a loaded CI machine the last of 50
  // creators on 25 connections gave up after the pool's 10 s, which is not what it is about)
  svc = await startEvents('events_it_settings_lists', { DATABASE_POOL_SIZE: String(CREATORS) });
  t = settingsTestClient(svc);
  db = svc.app.get(PrismaService);
  lookup = svc.app.get(EventSettingsLookup);
}, 90000);
afterAll(async () => {
  await svc?.app.close();
});

async function entry(list: string, body: Record<string, unknown>, tenant = A): Promise<string> {
  const res = await t.rest(tenant, 'POST', `/event-settings/${list}`, body);
  expect(res.status).toBe(201);
  return res.body.data.id;
}

function event(tenantId: string, data: Record<string, unknown> = {}) {
  return asTenantDo(tenantId, () =>
    db.event.create({
      data: { tenantId, title: 'Event', timeZone: 'Europe/Berlin', ...data },
    }),
  );
}

describe('ES4 GET /event-settings/{list}', () => {
  it('answers the contributor roles (system entries, translated) and empty tenant lists', async () => {
    const en = await t.rest(B, 'GET', '/event-settings/contributor-roles');
    expect(en.status).toBe(200);
    expect(en.body.data.map((e: any) => e.text)).toEqual([
      'Speaker',
      'Moderator',
      'Trainer',
      'Organizer',
    ]);
    expect(en.body.data[0]).toEqual({
      id: SYS.speaker,
      text: 'Speaker',
      color: null,
      category: null,
      position: null,
      isSystem: true,
      data: null,
    });
    const de = await t.rest(B, 'GET', '/event-settings/contributor-roles', undefined, {
      'Accept-Language': 'de',
    });
    expect(de.body.data[0].text).toBe('Referent/in');
    for (const list of [
      'booking-form-field-sets',
      'cancellation-conditions',
      'event-categories',
      'orga-tags',
      'portal-tags',
    ]) {
      const res = await t.rest(B, 'GET', `/event-settings/${list}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.metaData.totalResults).toBe(0);
    }
  });

  it('an unknown list is a 404 naming the lists', async () => {
    const res = await t.rest(A, 'GET', '/event-settings/colours');
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('booking-form-field-sets');
    expect(res.body.message).toContain('tax-rates');
  });

  it('answers the vendor lists: meeting platforms and tax rates, translated', async () => {
    const platforms = await t.rest(A, 'GET', '/event-settings/online-meeting-platforms');
    expect(platforms.status).toBe(200);
    expect(platforms.body.data.map((p: any) => p.id)).toEqual([
      'zoom',
      'microsoft-teams',
      'google-meet',
      'webex',
      'gotomeeting',
      'jitsi-meet',
      'bigbluebutton',
      'other',
    ]);
    const de = await t.rest(A, 'GET', '/event-settings/online-meeting-platforms?q=and', undefined, {
      'Accept-Language': 'de',
    });
    expect(de.body.data).toEqual([{ id: 'other', name: 'Andere', urlHint: null }]);

    const rates = await t.rest(A, 'GET', '/event-settings/tax-rates?q=de-&pageSize=500');
    expect(rates.status).toBe(200);
    const deStandard = rates.body.data.find((r: any) => r.id === 'de-standard');
    expect(deStandard).toMatchObject({
      country: 'DE',
      kind: 'standard',
      name: 'Germany: standard rate',
      rate: '19.00',
    });
    expect(deStandard.periods).toContainEqual({
      validFrom: '2020-07-01',
      validTo: '2020-12-31',
      rate: '16.00',
    });
    const german = await t.rest(A, 'GET', '/event-settings/tax-rates?q=schweiz', undefined, {
      'Accept-Language': 'de',
    });
    expect(german.body.data.map((r: any) => r.name)).toContain('Schweiz: Regelsatz');
    const sorted = await t.rest(A, 'GET', '/event-settings/online-meeting-platforms?sort=-name');
    expect(sorted.body.data.map((p: any) => p.name).slice(0, 3)).toEqual([
      'Zoom',
      'Webex',
      'Other',
    ]);
    const badSort = await t.rest(A, 'GET', '/event-settings/tax-rates?sort=rate');
    expect(badSort.status).toBe(400);
    expect(badSort.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
  });
});

describe('ES4 queries', () => {
  it('reads a page with three queries whatever its size (entries, total, data); templates with two', async () => {
    const T = newTenant();
    const created = await t.rest(
      T,
      'POST',
      '/event-settings/booking-form-field-sets',
      Array.from({ length: 30 }, (_, i) => ({ text: `Set ${i}`, data: FIELD_SET })),
    );
    expect(created.status).toBe(201);
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    const count = (table: string) =>
      spy.mock.calls.filter(([q]) =>
        new RegExp(`"${table}"`).test(
          typeof q === 'string' ? q : String((q as { text?: string })?.text),
        ),
      ).length;
    try {
      for (const size of [2, 30]) {
        spy.mockClear();
        const res = await t.rest(
          T,
          'GET',
          `/event-settings/booking-form-field-sets?pageSize=${size}`,
        );
        expect(res.body.data).toHaveLength(size);
        expect(res.body.data[size - 1].data).toEqual(FIELD_SET);
        expect(count('EventSettingsEntry')).toBe(3);
      }
      spy.mockClear();
      await t.rest(T, 'GET', '/event-settings/contact-person-templates?pageSize=500');
      expect(count('ContactPersonTemplate')).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('ES5 the tenant lists', () => {
  it('creates, updates and deletes entries with data; another tenant sees none of it', async () => {
    const created = await t.rest(A, 'POST', '/event-settings/booking-form-field-sets', {
      text: 'Conference',
      data: FIELD_SET,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      text: 'Conference',
      isSystem: false,
      data: FIELD_SET,
    });
    const id = created.body.data.id;

    const list = await t.rest(A, 'GET', '/event-settings/booking-form-field-sets');
    expect(list.body.data).toEqual([expect.objectContaining({ id, data: FIELD_SET })]);
    expect((await t.rest(B, 'GET', '/event-settings/booking-form-field-sets')).body.data).toEqual(
      [],
    );

    const changed = { fields: [FIELD_SET.fields[0]] };
    const updated = await t.rest(A, 'PUT', `/event-settings/booking-form-field-sets/${id}`, {
      data: changed,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id, text: 'Conference', data: changed });

    // another tenant's id: 404, nothing changed
    const foreign = await t.rest(B, 'PUT', `/event-settings/booking-form-field-sets/${id}`, {
      text: 'Hijacked',
    });
    expect(foreign.status).toBe(404);
    expect(
      (await t.rest(B, 'DELETE', `/event-settings/booking-form-field-sets/${id}`)).status,
    ).toBe(404);
    const row = await inspect(() => db.eventSettingsEntry.findUnique({ where: { id } }));
    expect(row?.text).toBe('Conference');

    const deleted = await t.rest(A, 'DELETE', `/event-settings/booking-form-field-sets/${id}`);
    expect(deleted.status).toBe(200);
    expect(await inspect(() => db.eventSettingsEntry.findUnique({ where: { id } }))).toBeNull();
  });

  it('checks data per list and names the field', async () => {
    const bad = await t.rest(A, 'POST', '/event-settings/booking-form-field-sets', {
      text: 'Bad set',
      data: {
        fields: [
          { key: 'a', label: 'A', type: 'text', required: true },
          { key: 'a', label: 'B', type: 'text', required: true },
          { key: 'c', label: 'C', type: 'colour', required: true },
          { key: 'd', label: 'D', type: 'select', required: true },
          { key: 'e', label: 'E', type: 'text', required: true, options: ['x'] },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['data.fields[2].type', 'isIn']]);
    const rules = await t.rest(A, 'POST', '/event-settings/booking-form-field-sets', {
      text: 'Bad set',
      data: {
        fields: [
          { key: 'a', label: 'A', type: 'text', required: true },
          { key: 'a', label: 'B', type: 'text', required: true },
          { key: 'd', label: 'D', type: 'select', required: true },
          { key: 'e', label: 'E', type: 'text', required: true, options: ['x'] },
        ],
      },
    });
    expect(errorsOf(rules.body)).toEqual([
      ['data.fields[1].key', 'keyTaken'],
      ['data.fields[2].options', 'optionsRequired'],
      ['data.fields[3].options', 'optionsNotForType'],
    ]);
    const missing = await t.rest(A, 'POST', '/event-settings/cancellation-conditions', {
      text: 'No tiers',
    });
    expect(errorsOf(missing.body)).toEqual([['data', 'isDefined']]);
    const tiers = await t.rest(
      A,
      'POST',
      '/event-settings/cancellation-conditions',
      [
        { text: 'Fine', data: CONDITION },
        {
          text: 'Broken',
          data: {
            tiers: [
              { daysBeforeStart: 7, feePercent: 12.345, feeFixed: '1.00' },
              { daysBeforeStart: 7, feePercent: 101, feeFixed: '-1' },
            ],
          },
        },
      ],
      { 'Accept-Language': 'de' },
    );
    expect(tiers.status).toBe(400);
    expect(errorsOf(tiers.body)).toEqual([
      ['[1].data.tiers[1].feePercent', 'max'],
      ['[1].data.tiers[1].feeFixed', 'matches'],
    ]);
    const decimals = await t.rest(
      A,
      'POST',
      '/event-settings/cancellation-conditions',
      {
        text: 'Broken',
        data: {
          tiers: [
            { daysBeforeStart: 7, feePercent: 12.345, feeFixed: '1.00' },
            { daysBeforeStart: 7, feePercent: 10, feeFixed: '1' },
          ],
        },
      },
      { 'Accept-Language': 'de' },
    );
    expect(errorsOf(decimals.body)).toEqual([
      ['data.tiers[0].feePercent', 'decimals'],
      ['data.tiers[1].daysBeforeStart', 'daysTaken'],
    ]);
    expect(decimals.body.errors[0].message).toContain('Nachkommastellen');
    // a tier's field left out is required, named as such (not "must be a text")
    for (const lang of ['en', 'de'] as const) {
      const absent = await t.rest(
        A,
        'POST',
        '/event-settings/cancellation-conditions',
        { text: 'Broken', data: { tiers: [{ daysBeforeStart: 7, feePercent: 10 }, {}] } },
        { 'Accept-Language': lang },
      );
      expect(absent.status).toBe(400);
      expect(absent.body.errors).toEqual(
        [
          'data.tiers[0].feeFixed',
          'data.tiers[1].daysBeforeStart',
          'data.tiers[1].feePercent',
          'data.tiers[1].feeFixed',
        ].map((field) => ({
          field,
          rule: 'isDefined',
          message: lang === 'en' ? `${field} is required` : `${field} ist erforderlich`,
        })),
      );
    }
    const noKey = await t.rest(A, 'POST', '/event-settings/booking-form-field-sets', {
      text: 'Bad set',
      data: { fields: [{ label: 'A', type: 'text', required: true }] },
    });
    expect(errorsOf(noKey.body)).toEqual([['data.fields[0].key', 'isDefined']]);
    const notForList = await t.rest(A, 'POST', '/event-settings/event-categories', {
      text: 'Workshop',
      data: CONDITION,
    });
    expect(errorsOf(notForList.body)).toEqual([['data', 'notForList']]);
    expect(
      await inspect(() => db.eventSettingsEntry.count({ where: { tenantId: A, text: 'Broken' } })),
    ).toBe(0);
  });

  it('texts are unique ignoring case; system entries and vendor lists are read-only', async () => {
    await entry('event-categories', { text: 'Seminar', color: '#123456' });
    const taken = await t.rest(A, 'POST', '/event-settings/event-categories', { text: 'SEMINAR' });
    expect(taken.status).toBe(409);
    const system = await t.rest(A, 'PUT', `/event-settings/contributor-roles/${SYS.speaker}`, {
      text: 'Talker',
    });
    expect(system.status).toBe(409);
    const adHoc = await t.rest(A, 'POST', '/event-settings/orga-tags', { text: 'Manual' });
    expect(adHoc.status).toBe(409);
    expect(adHoc.body.message).toContain('naming a tag on an event');
    expect(adHoc.body.errors).toEqual([
      { field: 'list', rule: 'adHoc', message: adHoc.body.message },
    ]);
    const vendor = await t.rest(A, 'POST', '/event-settings/tax-rates', { text: 'Zero' });
    expect(vendor.status).toBe(409);
    expect(vendor.body.message).toBe(
      'The list tax rates is shipped with the service and is read-only',
    );
    expect(vendor.body.errors).toEqual([
      { field: 'list', rule: 'readOnly', message: vendor.body.message },
    ]);
  });

  it('delete of an entry in use is a 409 naming how many events; force clears the reference', async () => {
    const category = await entry('event-categories', { text: 'Festival' });
    const role = await entry('contributor-roles', { text: 'DJ' });
    const [tag] = await asTenantDo(A, () =>
      db.$transaction((tx) => lookup.tagIdsByText(tx, A, 'ORGA_TAGS', [{ text: 'VIP' }])),
    );
    const e1 = await event(A, {
      categoryId: category,
      contributors: [
        { name: 'Ann', roleId: role },
        { name: 'Bob', roleId: SYS.speaker },
      ],
    });
    await event(A, { categoryId: category });
    await asTenantDo(A, () =>
      db.eventTag.create({ data: { tenantId: A, eventId: e1.id, entryId: tag } }),
    );

    const refused = await t.rest(A, 'DELETE', `/event-settings/event-categories/${category}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('"Festival" is used by 2 events');
    expect(errorsOf(refused.body)).toEqual([['id', 'entryInUse']]);
    const german = await t.rest(
      A,
      'DELETE',
      `/event-settings/contributor-roles/${role}`,
      undefined,
      {
        'Accept-Language': 'de',
      },
    );
    expect(german.body.message).toContain('„DJ“ wird von 1 Veranstaltung verwendet');

    const forced = await t.rest(
      A,
      'DELETE',
      `/event-settings/event-categories/${category}?force=true`,
    );
    expect(forced.status).toBe(200);
    expect(
      await inspect(() => db.event.count({ where: { tenantId: A, categoryId: category } })),
    ).toBe(0);
    expect(
      (await t.rest(A, 'DELETE', `/event-settings/contributor-roles/${role}?force=true`)).status,
    ).toBe(200);
    const after = await inspect(() => db.event.findUniqueOrThrow({ where: { id: e1.id } }));
    expect(after.contributors).toEqual([
      { name: 'Ann', roleId: null },
      { name: 'Bob', roleId: SYS.speaker },
    ]);
    expect(after.sequence).toBe(2);
    expect((await t.rest(A, 'DELETE', `/event-settings/orga-tags/${tag}?force=true`)).status).toBe(
      200,
    );
    expect(await inspect(() => db.eventTag.count({ where: { eventId: e1.id } }))).toBe(0);
  });
});

describe('EventSettingsLookup', () => {
  it('onEventsChanged: tiers changed or a snapshot reference removed -> sequence grows, hook runs in the write', async () => {
    const calls: { tenantId: string; eventIds: string[]; seen: number; tiers?: unknown }[] = [];
    lookup.onEventsChanged(async (tx, tenantId, eventIds) => {
      // inside the write's transaction: sees the grown sequence and the tiers just written
      const rows = await tx.event.findMany({ where: { id: { in: eventIds } } });
      const id = rows[0].cancellationConditionId;
      calls.push({
        tenantId,
        eventIds: [...eventIds].sort(),
        seen: rows[0].sequence,
        ...(id ? { tiers: await lookup.cancellationTiers(tenantId, id, tx) } : {}),
      });
    });
    const condition = await entry('cancellation-conditions', { text: 'Hooked', data: CONDITION });
    const set = await entry('booking-form-field-sets', { text: 'Hooked', data: FIELD_SET });
    const e1 = await event(A, { cancellationConditionId: condition, bookingFormFieldSetId: set });
    const e2 = await event(A, { cancellationConditionId: condition });
    await event(B, {});

    // a rename alone changes no snapshot
    await t.rest(A, 'PUT', `/event-settings/cancellation-conditions/${condition}`, { text: 'H2' });
    expect(calls).toEqual([]);
    const tiers = { tiers: [{ daysBeforeStart: 1, feePercent: 100, feeFixed: '0' }] };
    const put = await t.rest(A, 'PUT', `/event-settings/cancellation-conditions/${condition}`, {
      data: tiers,
    });
    expect(put.status).toBe(200);
    expect(calls).toEqual([
      { tenantId: A, eventIds: [e1.id, e2.id].sort(), seen: 1, tiers: tiers.tiers },
    ]);

    calls.length = 0;
    const forced = await t.rest(
      A,
      'DELETE',
      `/event-settings/booking-form-field-sets/${set}?force=true`,
    );
    expect(forced.status).toBe(200);
    expect(calls).toEqual([{ tenantId: A, eventIds: [e1.id], seen: 2, tiers: tiers.tiers }]);
    expect(
      (await inspect(() => db.event.findUniqueOrThrow({ where: { id: e1.id } })))
        .bookingFormFieldSetId,
    ).toBeNull();
    lookup.onEventsChanged(() => Promise.resolve());
  });

  it('checkEntryIds names every unknown or foreign id; system entries count', async () => {
    const category = await entry('event-categories', { text: 'Lookup' });
    const foreign = await entry('event-categories', { text: 'Lookup' }, B);
    await expect(
      asTenantDo(A, () =>
        lookup.checkEntryIds(A, [
          { field: 'categoryId', list: 'EVENT_CATEGORIES', id: category.toUpperCase() },
          { field: 'contributors[0].roleId', list: 'CONTRIBUTOR_ROLES', id: SYS.moderator },
          { field: 'bookingFormFieldSetId', list: 'BOOKING_FORM_FIELD_SETS', id: null },
        ]),
      ),
    ).resolves.toBeUndefined();
    const err = await asTenantDo(A, () =>
      lookup.checkEntryIds(A, [
        { field: 'categoryId', list: 'EVENT_CATEGORIES', id: foreign },
        { field: 'cancellationConditionId', list: 'CANCELLATION_CONDITIONS', id: category },
        { field: 'contributors[1].roleId', list: 'CONTRIBUTOR_ROLES', id: 'not-a-uuid' },
      ]),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppException);
    expect((err as AppException).problems?.map((p) => [p.field, p.rule])).toEqual([
      ['categoryId', 'unknownEntry'],
      ['cancellationConditionId', 'unknownEntry'],
      ['contributors[1].roleId', 'unknownEntry'],
    ]);
  });

  it('answers the data of booking form field sets and cancellation conditions, vendor ids', async () => {
    const set = await entry('booking-form-field-sets', { text: 'Lookup set', data: FIELD_SET });
    const condition = await entry('cancellation-conditions', { text: 'Lookup', data: CONDITION });
    const asA = <T>(work: () => PromiseLike<T>) => asTenantDo(A, work);
    const asB = <T>(work: () => PromiseLike<T>) => asTenantDo(B, work);
    expect(await asA(() => lookup.bookingFormFields(A, set))).toEqual(FIELD_SET.fields);
    expect(await asA(() => lookup.cancellationTiers(A, condition))).toEqual(CONDITION.tiers);
    expect(await asB(() => lookup.bookingFormFields(B, set))).toBeNull();
    expect(await asA(() => lookup.bookingFormFields(A, condition))).toBeNull();
    expect(await asA(() => lookup.cancellationTiers(A, 'nope'))).toBeNull();
    const template = await asA(() =>
      db.contactPersonTemplate.create({
        data: { tenantId: A, name: 'Desk', firstname: 'Ada', email: 'ada@example.com' },
      }),
    );
    expect(await asA(() => lookup.contactPersonTemplate(A, template.id.toUpperCase()))).toEqual({
      id: template.id,
      name: 'Desk',
      salutation: null,
      title: null,
      firstname: 'Ada',
      lastname: null,
      position: null,
      email: 'ada@example.com',
      phone: null,
    });
    expect(await asB(() => lookup.contactPersonTemplate(B, template.id))).toBeNull();
    expect(await asA(() => lookup.contactPersonTemplate(A, 'x'))).toBeNull();
    expect(lookup.isTaxRate('de-reduced')).toBe(true);
    expect(lookup.isTaxRate('de-zero')).toBe(false);
    expect(lookup.isMeetingPlatform('jitsi-meet')).toBe(true);
    expect(lookup.isMeetingPlatform('skype')).toBe(false);
    expect(await asB(() => lookup.settingsOf(B))).toMatchObject({
      timeZone: 'Europe/Berlin',
      currency: 'EUR',
      eventDefaults: { categoryId: null, capacity: null },
    });
  });

  it('tagIdsByText finds ignoring case or creates, in input order; unknown ids are a 400', async () => {
    const existing = await entry('portal-tags', { text: 'Outdoor' });
    const tags = (
      tenant: string,
      list: 'ORGA_TAGS' | 'PORTAL_TAGS',
      wanted: { id?: string; text?: string }[],
      field?: string,
    ) =>
      asTenantDo(tenant, () =>
        db.$transaction((tx) => lookup.tagIdsByText(tx, tenant, list, wanted, field)),
      );
    const ids = await tags(A, 'PORTAL_TAGS', [
      { text: ' new tag ' },
      { text: 'OUTDOOR' },
      { id: existing },
      { text: 'New Tag' },
    ]);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(existing);
    const created = await inspect(() =>
      db.eventSettingsEntry.findUniqueOrThrow({ where: { id: ids[0] } }),
    );
    expect(created).toMatchObject({ tenantId: A, list: 'PORTAL_TAGS', text: 'new tag' });
    const err = await tags(A, 'ORGA_TAGS', [{ id: existing }, { text: '  ' }], 'orgaTags').catch(
      (e: unknown) => e,
    );
    expect((err as AppException).problems?.map((p) => [p.field, p.rule])).toEqual([
      ['orgaTags[1].text', 'isNotEmpty'],
    ]);
    const unknown = await tags(A, 'ORGA_TAGS', [{ id: existing }], 'orgaTags').catch(
      (e: unknown) => e,
    );
    expect((unknown as AppException).problems?.map((p) => [p.field, p.rule])).toEqual([
      ['orgaTags[0].id', 'unknownEntry'],
    ]);
  });

  it(`${CREATORS} concurrent creators of the same new orga tag text -> exactly one entry`, async () => {
    const tenant = newTenant();
    const spellings = ['Backstage', 'BACKSTAGE', 'backstage', ' Backstage '];
    const ids = await Promise.all(
      Array.from({ length: CREATORS }, (_, i) =>
        asTenantDo(tenant, () =>
          db.$transaction(
            (tx) => lookup.tagIdsByText(tx, tenant, 'ORGA_TAGS', [{ text: spellings[i % 4] }]),
            { maxWait: 30000, timeout: 30000 },
          ),
        ),
      ),
    );
    const rows = await t.sql<{ id: string }>(
      `SELECT id::text FROM "EventSettingsEntry"
       WHERE "tenantId" = $1 AND list = 'ORGA_TAGS' AND lower(text) = 'backstage'`,
      [tenant],
    );
    expect(rows).toHaveLength(1);
    expect(new Set(ids.flat())).toEqual(new Set([rows[0].id]));
  });
});
