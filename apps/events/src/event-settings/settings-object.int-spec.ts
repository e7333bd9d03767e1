import { randomUUID } from 'node:crypto';
import { PrismaService } from '../database/prisma.service';
import { asTenantDo, inspect } from '../test/scopes';
import { startEvents, RunningService } from '../test/service-harness';
import { CONDITION, errorsOf, FIELD_SET, settingsTestClient } from './test/settings-test-client';

// ES1-ES3 (the settings object) and the GraphQL side of ES1-ES5, against the real service.

jest.setTimeout(60000);

let svc: RunningService;
let t: ReturnType<typeof settingsTestClient>;
let db: PrismaService;

const newTenant = () => `tenant-eso-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  svc = await startEvents('events_it_settings_object');
  t = settingsTestClient(svc);
  db = svc.app.get(PrismaService);
}, 90000);
afterAll(async () => {
  await svc?.app.close();
});

const DEFAULTS = {
  timeZone: 'Europe/Berlin',
  currency: 'EUR',
  eventDefaults: {
    capacity: null,
    categoryId: null,
    bookingFormFieldSetId: null,
    cancellationConditionId: null,
    taxRateId: null,
    contactPersonTemplateId: null,
  },
  invoiceSender: {
    name: null,
    street: null,
    zip: null,
    city: null,
    country: null,
    vatId: null,
    taxNumber: null,
    email: null,
    phone: null,
    iban: null,
    bic: null,
  },
  dateModified: null,
};

async function entry(tenant: string, list: string, body: Record<string, unknown>) {
  const res = await t.rest(tenant, 'POST', `/event-settings/${list}`, body);
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

describe('ES1-ES3 /event-settings', () => {
  it('ES1 answers the defaults while nothing is saved', async () => {
    const res = await t.rest(newTenant(), 'GET', '/event-settings');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(DEFAULTS);
  });

  it('ES2 replaces the settings; ES1 reads them back; another tenant keeps its defaults', async () => {
    const A = newTenant();
    const category = await entry(A, 'event-categories', { text: 'Talks' });
    const condition = await entry(A, 'cancellation-conditions', { text: 'Std', data: CONDITION });
    const template = await asTenantDo(A, () =>
      db.contactPersonTemplate.create({ data: { tenantId: A, name: 'Front desk' } }),
    );
    const body = {
      timeZone: 'europe/zurich',
      currency: 'chf',
      eventDefaults: {
        capacity: 120,
        categoryId: category.toUpperCase(),
        cancellationConditionId: condition,
        taxRateId: 'ch-standard',
        contactPersonTemplateId: template.id,
      },
      invoiceSender: {
        name: 'Events AG',
        city: 'Zürich',
        country: 'ch',
        iban: 'ch93 0076 2011 6238 5295 7',
        bic: 'ubswchzh80a',
        email: 'billing@example.com',
      },
    };
    const put = await t.rest(A, 'PUT', '/event-settings', body);
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      timeZone: 'Europe/Zurich',
      currency: 'CHF',
      eventDefaults: {
        capacity: 120,
        categoryId: category,
        bookingFormFieldSetId: null,
        cancellationConditionId: condition,
        taxRateId: 'ch-standard',
        contactPersonTemplateId: template.id,
      },
      invoiceSender: {
        name: 'Events AG',
        country: 'CH',
        iban: 'CH9300762011623852957',
        bic: 'UBSWCHZH80A',
        street: null,
      },
    });
    expect(put.body.data.dateModified).toMatch(/Z$/);
    const get = await t.rest(A, 'GET', '/event-settings');
    expect(get.body.data).toEqual(put.body.data);
    expect((await t.rest(newTenant(), 'GET', '/event-settings')).body.data).toEqual(DEFAULTS);

    // PUT replaces: what is left out goes back to its default
    const again = await t.rest(A, 'PUT', '/event-settings', { currency: 'USD' });
    expect(again.body.data).toMatchObject({
      ...DEFAULTS,
      currency: 'USD',
      dateModified: expect.any(String),
    });

    // a default whose entry is deleted later reads as null
    await t.rest(A, 'PUT', '/event-settings', { eventDefaults: { categoryId: category } });
    await t.rest(A, 'DELETE', `/event-settings/event-categories/${category}`);
    expect(
      (await t.rest(A, 'GET', '/event-settings')).body.data.eventDefaults.categoryId,
    ).toBeNull();
  });

  it('ES2 refuses bad input naming every field, and writes nothing', async () => {
    const A = newTenant();
    const B = newTenant();
    const foreign = await entry(B, 'event-categories', { text: 'Theirs' });
    const res = await t.rest(A, 'PUT', '/event-settings', {
      timeZone: 'Mars/Olympus',
      currency: 'EURO',
      eventDefaults: {
        capacity: 0,
        categoryId: foreign,
        bookingFormFieldSetId: 'nope',
        taxRateId: 'de-zero',
        contactPersonTemplateId: randomUUID(),
      },
      invoiceSender: { country: 'XX', iban: 'DE00 1234', bic: 'nope', email: 'x', extra: 1 },
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body).sort()).toEqual(
      [
        ['timeZone', 'timeZone'],
        ['currency', 'maxLength'],
        ['eventDefaults.capacity', 'min'],
        ['eventDefaults.categoryId', 'unknownEntry'],
        ['eventDefaults.bookingFormFieldSetId', 'isUuid'],
        ['eventDefaults.taxRateId', 'unknownTaxRate'],
        ['eventDefaults.contactPersonTemplateId', 'unknownTemplate'],
        ['invoiceSender.country', 'country'],
        ['invoiceSender.email', 'isEmail'],
        ['invoiceSender.extra', 'whitelistValidation'],
        ['invoiceSender.iban', 'iban'],
        ['invoiceSender.bic', 'bic'],
      ].sort(),
    );
    expect(await inspect(() => db.eventSettings.count({ where: { tenantId: A } }))).toBe(0);
    const notObject = await t.rest(A, 'PUT', '/event-settings', [1]);
    expect(notObject.status).toBe(400);
    const german = await t.rest(
      A,
      'PUT',
      '/event-settings',
      { currency: 'XYZ' },
      {
        'Accept-Language': 'de',
      },
    );
    expect(german.body.errors).toEqual([
      {
        field: 'currency',
        rule: 'currency',
        message: 'currency: „XYZ“ ist kein ISO-4217-Währungscode (wie EUR)',
      },
    ]);
  });

  it('ES3 validates without writing', async () => {
    const A = newTenant();
    const ok = await t.rest(A, 'POST', '/event-settings/validate', {
      timeZone: 'America/New_York',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ valid: true, errors: [] });
    const bad = await t.rest(A, 'POST', '/event-settings/validate', {
      timeZone: '+01:00',
      invoiceSender: { iban: 'DE89370400440532013001' },
    });
    expect(bad.status).toBe(200);
    expect(bad.body.data.valid).toBe(false);
    expect(bad.body.data.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['timeZone', 'timeZone'],
      ['invoiceSender.iban', 'iban'],
    ]);
    expect(bad.body.data.errors[0].message).toBe(
      'timeZone: "+01:00" is not an IANA time zone (such as Europe/Berlin)',
    );
    expect(await inspect(() => db.eventSettings.count({ where: { tenantId: A } }))).toBe(0);
  });
});

describe('GraphQL', () => {
  it('eventSettings, updateEventSettings, validateEventSettings', async () => {
    const A = newTenant();
    const read = await t.gql(
      A,
      '{ eventSettings { timeZone currency eventDefaults { capacity } } }',
    );
    expect(read.body.data.eventSettings).toEqual({
      timeZone: 'Europe/Berlin',
      currency: 'EUR',
      eventDefaults: { capacity: null },
    });
    const update = await t.gql(
      A,
      `mutation($input: UpdateEventSettingsInput!) {
        updateEventSettings(input: $input) { timeZone invoiceSender { iban } }
      }`,
      { input: { timeZone: 'Europe/Vienna', invoiceSender: { iban: 'AT61 1904 3002 3457 3201' } } },
    );
    expect(update.body.data.updateEventSettings).toEqual({
      timeZone: 'Europe/Vienna',
      invoiceSender: { iban: 'AT611904300234573201' },
    });
    const bad = await t.gql(
      A,
      `mutation($input: UpdateEventSettingsInput!) {
        updateEventSettings(input: $input) { timeZone }
      }`,
      { input: { currency: 'ABC' } },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ statusCode: 400 });
    const validate = await t.gql(
      A,
      `mutation($input: UpdateEventSettingsInput!) {
        validateEventSettings(input: $input) { valid errors { field rule message } }
      }`,
      { input: { eventDefaults: { taxRateId: 'xx' } } },
    );
    expect(validate.body.data.validateEventSettings).toMatchObject({
      valid: false,
      errors: [{ field: 'eventDefaults.taxRateId', rule: 'unknownTaxRate' }],
    });
  });

  it('lists: read, create with typed data, update, delete; vendor lists', async () => {
    const A = newTenant();
    const created = await t.gql(
      A,
      `mutation($inputs: [EventSettingsEntryInput!]!) {
        createEventSettingsEntries(list: "booking-form-field-sets", inputs: $inputs) {
          id text bookingFormFields { key type options } cancellationTiers { feePercent }
        }
      }`,
      { inputs: [{ text: 'Gala', bookingFormFields: FIELD_SET.fields }] },
    );
    expect(created.body.errors).toBeUndefined();
    const [set] = created.body.data.createEventSettingsEntries;
    expect(set).toMatchObject({
      text: 'Gala',
      bookingFormFields: [
        { key: 'company', type: 'text', options: null },
        { key: 'diet', type: 'select', options: ['none', 'vegetarian', 'vegan'] },
      ],
      cancellationTiers: null,
    });
    const tier = await t.gql(
      A,
      `mutation($input: EventSettingsEntryInput!) {
        createEventSettingsEntry(list: "cancellation-conditions", input: $input) {
          text cancellationTiers { daysBeforeStart feePercent feeFixed }
        }
      }`,
      {
        input: {
          text: 'Flex',
          cancellationTiers: [{ daysBeforeStart: 1, feePercent: 10.5, feeFixed: '2.50' }],
        },
      },
    );
    expect(tier.body.data.createEventSettingsEntry).toEqual({
      text: 'Flex',
      cancellationTiers: [{ daysBeforeStart: 1, feePercent: 10.5, feeFixed: '2.50' }],
    });
    const missing = await t.gql(
      A,
      `mutation { createEventSettingsEntry(list: "cancellation-conditions", input: { text: "No" }) { id } }`,
    );
    expect(missing.body.errors[0].extensions).toMatchObject({ statusCode: 400 });

    const list = await t.gql(
      A,
      `{ eventSettingsList(list: "booking-form-field-sets") { totalResults items { id text } } }`,
    );
    expect(list.body.data.eventSettingsList).toEqual({
      totalResults: 1,
      items: [{ id: set.id, text: 'Gala' }],
    });
    const roles = await t.gql(
      A,
      `{ eventSettingsList(list: "contributor-roles", pageSize: 2) { totalResults items { text } } }`,
      {},
      { 'Accept-Language': 'de' },
    );
    expect(roles.body.data.eventSettingsList).toEqual({
      totalResults: 4,
      items: [{ text: 'Referent/in' }, { text: 'Moderator/in' }],
    });
    const renamed = await t.gql(
      A,
      `mutation($id: ID!) { updateEventSettingsEntry(list: "booking-form-field-sets", id: $id, input: { text: "Ball" }) { text bookingFormFields { key } } }`,
      { id: set.id },
    );
    expect(renamed.body.data.updateEventSettingsEntry).toEqual({
      text: 'Ball',
      bookingFormFields: [{ key: 'company' }, { key: 'diet' }],
    });
    const foreign = await t.gql(
      newTenant(),
      `mutation($id: ID!) { deleteEventSettingsEntry(list: "booking-form-field-sets", id: $id) { id } }`,
      { id: set.id },
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ statusCode: 404 });
    const deleted = await t.gql(
      A,
      `mutation($id: ID!) { deleteEventSettingsEntry(list: "booking-form-field-sets", id: $id) { id } }`,
      { id: set.id },
    );
    expect(deleted.body.data.deleteEventSettingsEntry).toEqual({ id: set.id });

    const vendor = await t.gql(
      A,
      `{ onlineMeetingPlatforms(q: "zoom") { totalResults items { id name } }
         taxRates(q: "at-") { items { id rate periods { validFrom validTo rate } } } }`,
    );
    expect(vendor.body.data.onlineMeetingPlatforms).toEqual({
      totalResults: 1,
      items: [{ id: 'zoom', name: 'Zoom' }],
    });
    expect(vendor.body.data.taxRates.items.map((r: any) => [r.id, r.rate])).toEqual([
      ['at-standard', '20.00'],
      ['at-reduced', '10.00'],
      ['at-reduced-2', '13.00'],
    ]);
  });
});
