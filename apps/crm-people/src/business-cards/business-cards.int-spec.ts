import { randomUUID } from 'node:crypto';
import { inTenant } from '../test/tenant-scope';
import { CardTestKit } from './test/card-test-fixtures';

// startup and requests can be slow on a loaded machine (jest's default is 5 s)
jest.setTimeout(60000);

// B1-B7 over REST against real PostgreSQL and NATS: every field, favorites, phones, isolation.

let kit: CardTestKit;
let businessType: string;
let homeType: string;
let foreignType: string;
let employee: string;

beforeAll(async () => {
  kit = await CardTestKit.start('crm_people_it_b_cards');
  businessType = await kit.entry(kit.A, 'ADDRESS_TYPES', 'Business');
  homeType = await kit.entry(kit.A, 'ADDRESS_TYPES', 'Home');
  foreignType = await kit.entry(kit.B, 'ADDRESS_TYPES', 'Office');
  employee = await kit.entry(kit.A, 'COMPANY_RELATION_TYPES', 'Employee');
}, 60000);
afterAll(async () => kit?.close(), 30000);

const cards = (personId: string) => `/people/${personId}/business-cards`;

function fullCard() {
  return {
    isPrivate: false,
    alternativeSalutation: 'Frau',
    alternativeTitle: 'Dr.',
    alternativeFirstname: 'Anni',
    alternativeLastname: 'Schmidt-Meier',
    useAlternativeName: true,
    business: 'Acme GmbH',
    companyRelationType: { id: employee, text: 'ignored' },
    companyRelationSince: '2020-01-01T00:00:00Z',
    companyRelationUntil: '2025-12-31T00:00:00Z',
    validFrom: '2021-01-01T00:00:00Z',
    validTo: '2026-01-01T00:00:00Z',
    phones: [
      { isFavorite: true, type: 'landline', number: '01 58 80 1234' },
      { isFavorite: true, type: 'mobile', number: '+49 151 23456789' },
    ],
    emails: [
      { type: { id: 'business', text: 'Business' }, isFavorite: false, mail: 'anna@acme.example' },
      { type: null, isFavorite: true, mail: 'a.schmidt@acme.example' },
    ],
    businessPositions: [{ department: 'Sales', position: 'Head of Sales', isFavorite: true }],
    addresses: [
      {
        isFavorite: true,
        addressTypes: [{ id: businessType }],
        country: 'Österreich',
        countryCode: 'at',
        street: 'Ring 1',
        zip: '1010',
        city: 'Wien',
        coordinates: { longitude: 16.37, latitude: 48.21 },
        validationInfo: {
          status: 'valid',
          deviation: 0.1,
          lastValidationDate: '2024-05-01T10:00:00Z',
        },
      },
      { addressTypes: [{ id: homeType }], countryCode: 'DE', city: 'Berlin' },
    ],
    isFavorite: true,
    isActive: true,
    markAsFavorite: false,
  };
}

describe('B2 create', () => {
  it('stores all 21 fields: texts resolved, phones in E.164 for the address country, one favorite per list', async () => {
    const personId = await kit.person();
    const res = await kit.call('POST', cards(personId), fullCard());
    expect(res.status).toBe(201);
    expect(res.body.statusCode).toBe(201);
    const c = res.body.data;
    expect(c).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      isPrivate: false,
      alternativeSalutation: 'Frau',
      alternativeTitle: 'Dr.',
      alternativeFirstname: 'Anni',
      alternativeLastname: 'Schmidt-Meier',
      useAlternativeName: true,
      companyId: null,
      business: 'Acme GmbH',
      companyRelationType: { id: employee, text: 'Employee' },
      companyRelationSince: '2020-01-01T00:00:00.000Z',
      companyRelationUntil: '2025-12-31T00:00:00.000Z',
      validFrom: '2021-01-01T00:00:00.000Z',
      validTo: '2026-01-01T00:00:00.000Z',
      // national numbers take the favorite address's country (AT); the last favorite wins
      phones: [
        { isFavorite: false, type: 'landline', number: '+43158801234' },
        { isFavorite: true, type: 'mobile', number: '+4915123456789' },
      ],
      emails: [
        {
          type: { id: 'business', text: 'Business' },
          isFavorite: false,
          mail: 'anna@acme.example',
        },
        { type: null, isFavorite: true, mail: 'a.schmidt@acme.example' },
      ],
      businessPositions: [{ department: 'Sales', position: 'Head of Sales', isFavorite: true }],
      isFavorite: true,
      isActive: true,
      markAsFavorite: true,
    });
    expect(c.addresses).toHaveLength(2);
    expect(c.addresses[0]).toMatchObject({
      isFavorite: true,
      addressTypes: [{ id: businessType, text: 'Business' }],
      country: 'Österreich',
      countryCode: 'AT',
      coordinates: { longitude: 16.37, latitude: 48.21 },
      validationInfo: {
        status: 'valid',
        deviation: 0.1,
        lastValidationDate: '2024-05-01T10:00:00.000Z',
        message: null,
      },
      isPostOfficeBox: false,
    });
    expect(c.addresses[1]).toMatchObject({
      isFavorite: false,
      addressTypes: [{ text: 'Home' }],
      city: 'Berlin',
    });
  });

  it('reads national numbers as DE when no address has a country', async () => {
    const personId = await kit.person();
    const c = await kit.card(personId, { phones: [{ type: 'office', number: '030 1234567' }] });
    expect(c.phones).toEqual([{ isFavorite: false, type: 'office', number: '+49301234567' }]);
    expect(c).toMatchObject({ isFavorite: false, isActive: true, isPrivate: false, addresses: [] });
  });

  it('refuses invalid input with 400 naming every field and rule, in German too', async () => {
    const personId = await kit.person();
    const body = {
      validFrom: '2024-01-01T00:00:00Z',
      validTo: '2023-01-01T00:00:00Z',
      phones: [{ number: '+49 30 1234567' }, { number: '12' }],
      companyRelationType: { id: randomUUID() },
      addresses: [{ addressTypes: [{ id: foreignType }], countryCode: 'XX' }],
    };
    const res = await kit.call('POST', cards(personId), body, kit.A, { 'Accept-Language': 'de' });
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(res.body.errors.map((e: any) => [e.field, e]));
    expect(Object.keys(byField).sort()).toEqual([
      'addresses[0].addressTypes[0].id',
      'addresses[0].countryCode',
      'companyRelationType.id',
      'phones[1].number',
      'validTo',
    ]);
    expect(byField['phones[1].number']).toMatchObject({ rule: 'phoneNumber' });
    expect(byField['phones[1].number'].message).toContain('keine gültige Telefonnummer');
    expect(byField['validTo'].rule).toBe('notBefore');
    expect(byField['addresses[0].addressTypes[0].id'].message).toContain('Adresstypen');
    expect(byField['addresses[0].countryCode'].rule).toBe('countryCode');
    const list = await kit.call('GET', cards(personId));
    expect(list.body.data).toEqual([]);
  });

  it('refuses a bad e-mail, a missing number and unknown fields through the validation pipe', async () => {
    const personId = await kit.person();
    const res = await kit.call('POST', cards(personId), {
      emails: [{ mail: 'not-a-mail' }],
      phones: [{ type: 'x' }],
      nickname: 'x',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => `${e.field}:${e.rule}`).sort()).toEqual([
      'emails[0].mail:isEmail',
      'nickname:whitelistValidation',
      'phones[0].number:isDefined',
    ]);
  });

  it('answers 409 for a private card with a company and 404 for an unknown or malformed person', async () => {
    const personId = await kit.person();
    const priv = await kit.call('POST', cards(personId), {
      isPrivate: true,
      companyId: randomUUID(),
    });
    expect(priv.status).toBe(409);
    expect(priv.body.message).toMatch(/private/);
    expect((await kit.call('POST', cards(randomUUID()), {})).status).toBe(404);
    expect((await kit.call('POST', cards('nope'), {})).status).toBe(404);
    expect((await kit.call('POST', cards(personId), {}, kit.B)).status).toBe(404);
  });

  it('makes a new favorite card the only one of the person', async () => {
    const personId = await kit.person();
    const first = await kit.card(personId, { isFavorite: true });
    const second = await kit.card(personId, { markAsFavorite: true });
    const list = await kit.call('GET', cards(personId));
    const flags = Object.fromEntries(list.body.data.map((c: any) => [c.id, c.isFavorite]));
    expect(flags).toEqual({ [first.id]: false, [second.id]: true });
  });
});

describe('B1 list, B3 and B4 read', () => {
  let personId: string;
  let ids: string[];
  beforeAll(async () => {
    personId = await kit.person();
    ids = [];
    for (const business of ['Beta', 'Alpha', 'Gamma'])
      ids.push((await kit.card(personId, { business })).id);
    await kit.call('PUT', `${cards(personId)}/${ids[2]}`, { isFavorite: true });
  });

  it('lists favorite first, then oldest, with paging, sort and q', async () => {
    const all = await kit.call('GET', cards(personId));
    expect(all.status).toBe(200);
    expect(all.body.metaData.totalResults).toBe(3);
    expect(all.body.data.map((c: any) => c.business)).toEqual(['Gamma', 'Beta', 'Alpha']);
    const page = await kit.call('GET', `${cards(personId)}?page=2&pageSize=2&sort=business`);
    expect(page.body.data.map((c: any) => c.business)).toEqual(['Gamma']);
    expect(page.body.metaData.totalResults).toBe(3);
    const q = await kit.call('GET', `${cards(personId)}?q=alp`);
    expect(q.body.data.map((c: any) => c.business)).toEqual(['Alpha']);
    const bad = await kit.call('GET', `${cards(personId)}?sort=password`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
  });

  it('answers 404 for an unknown person and an empty list for a person without cards', async () => {
    expect((await kit.call('GET', cards(randomUUID()))).status).toBe(404);
    expect((await kit.call('GET', cards(personId), undefined, kit.B)).status).toBe(404);
    const empty = await kit.call('GET', cards(await kit.person()));
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.metaData.totalResults).toBe(0);
  });

  it('B3 reads a card of the person; another person, tenant or a bad id is 404', async () => {
    const res = await kit.call('GET', `${cards(personId)}/${ids[0]}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: ids[0], business: 'Beta' });
    const other = await kit.person();
    expect((await kit.call('GET', `${cards(other)}/${ids[0]}`)).status).toBe(404);
    expect((await kit.call('GET', `${cards(personId)}/${ids[0]}`, undefined, kit.B)).status).toBe(
      404,
    );
    expect((await kit.call('GET', `${cards(personId)}/x1`)).status).toBe(404);
  });

  it('B4 reads a card by its id alone; another tenant or a bad id is 404', async () => {
    const res = await kit.call('GET', `/business-cards/${ids[1]}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: ids[1], business: 'Alpha' });
    expect((await kit.call('GET', `/business-cards/${ids[1]}`, undefined, kit.B)).status).toBe(404);
    const bad = await kit.call('GET', '/business-cards/not-a-uuid');
    expect(bad.status).toBe(404);
    expect(bad.body.message).toContain('not-a-uuid');
  });
});

describe('B5 update', () => {
  it('changes only given fields, null clears, lists are replaced and addresses keep their ids', async () => {
    const personId = await kit.person();
    const c = await kit.card(personId, fullCard());
    const [first, second] = c.addresses;
    const res = await kit.call('PUT', `${cards(personId)}/${c.id}`, {
      business: 'Acme AG',
      alternativeTitle: null,
      phones: [{ number: '0664 1234567', type: 'mobile' }],
      addresses: [{ id: second.id, city: 'Hamburg', isFavorite: true }, { city: 'Köln' }],
    });
    expect(res.status).toBe(200);
    const u = res.body.data;
    expect(u).toMatchObject({
      business: 'Acme AG',
      alternativeTitle: null,
      alternativeFirstname: 'Anni',
      companyRelationType: { id: employee, text: 'Employee' },
      emails: c.emails,
      // the region comes from the new favorite address (no country any more): DE
      phones: [{ isFavorite: false, type: 'mobile', number: '+496641234567' }],
    });
    expect(u.addresses.map((a: any) => [a.id, a.city, a.isFavorite, a.countryCode])).toEqual([
      [second.id, 'Hamburg', true, null],
      [expect.any(String), 'Köln', false, null],
    ]);
    expect(u.addresses[1].id).not.toBe(first.id);
  });

  it('checks dates against stored values, address ids and the private rule', async () => {
    const personId = await kit.person();
    const c = await kit.card(personId, { validFrom: '2024-01-01T00:00:00Z', companyId: null });
    const path = `${cards(personId)}/${c.id}`;
    const early = await kit.call('PUT', path, { validTo: '2023-06-01T00:00:00Z' });
    expect(early.status).toBe(400);
    expect(early.body.errors[0]).toMatchObject({ field: 'validTo', rule: 'notBefore' });
    const foreign = await kit.call('PUT', path, { addresses: [{ id: randomUUID() }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0]).toMatchObject({
      field: 'addresses[0].id',
      rule: 'unknownAddress',
    });
    await inTenant(kit.A, () =>
      kit.prisma.businessCard.update({ where: { id: c.id }, data: { companyId: randomUUID() } }),
    );
    expect((await kit.call('PUT', path, { isPrivate: true })).status).toBe(409);
    expect((await kit.call('GET', path)).body.data.isPrivate).toBe(false);
  });

  it('another tenant or person gets 404 and changes nothing', async () => {
    const personId = await kit.person();
    const c = await kit.card(personId, { business: 'Mine' });
    expect(
      (await kit.call('PUT', `${cards(personId)}/${c.id}`, { business: 'Theirs' }, kit.B)).status,
    ).toBe(404);
    const other = await kit.person();
    expect((await kit.call('PUT', `${cards(other)}/${c.id}`, { business: 'Theirs' })).status).toBe(
      404,
    );
    expect((await kit.call('GET', `/business-cards/${c.id}`)).body.data.business).toBe('Mine');
  });
});

describe('B6 and B7 delete', () => {
  async function threeCards(favorite: number) {
    const personId = await kit.person();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await kit.card(personId, { isFavorite: i === favorite })).id);
    return { personId, ids };
  }
  const favorites = async (personId: string) =>
    (await kit.call('GET', cards(personId))).body.data
      .filter((c: any) => c.isFavorite)
      .map((c: any) => c.id);

  it('deleting the favorite with two others left leaves no favorite', async () => {
    const { personId, ids } = await threeCards(0);
    const res = await kit.call('DELETE', `${cards(personId)}/${ids[0]}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ids: [ids[0]], newFavoriteId: null });
    expect(await favorites(personId)).toEqual([]);
  });

  it('deleting the favorite with exactly one other left makes that one the favorite', async () => {
    const { personId, ids } = await threeCards(1);
    const res = await kit.call('DELETE', `${cards(personId)}/batch`, { ids: [ids[0], ids[1]] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ids: [ids[0], ids[1]], newFavoriteId: ids[2] });
    expect(await favorites(personId)).toEqual([ids[2]]);
  });

  it('deleting another card keeps the favorite', async () => {
    const { personId, ids } = await threeCards(2);
    await kit.call('DELETE', `${cards(personId)}/${ids[0]}`);
    await kit.call('DELETE', `${cards(personId)}/${ids[1]}`);
    expect(await favorites(personId)).toEqual([ids[2]]);
  });

  it('B7 is all or nothing: an unknown or foreign id is 404, malformed ids are 400 by index', async () => {
    const { personId, ids } = await threeCards(-1);
    const foreignPerson = await kit.person(kit.B);
    const foreign = (await kit.card(foreignPerson, {}, kit.B)).id;
    const missing = await kit.call('DELETE', `${cards(personId)}/batch`, {
      ids: [ids[0], foreign],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain(foreign);
    const bad = await kit.call('DELETE', `${cards(personId)}/batch`, { ids: [ids[0], 'x', 'y'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['ids[1]', 'ids[2]']);
    const empty = await kit.call('DELETE', `${cards(personId)}/batch`, { ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatchObject({ field: 'ids', rule: 'arrayMinSize' });
    expect((await kit.call('GET', cards(personId))).body.metaData.totalResults).toBe(3);
    expect((await kit.call('GET', `/business-cards/${foreign}`, undefined, kit.B)).status).toBe(
      200,
    );
  });

  it('B6 of another tenant is 404 and the card stays', async () => {
    const { personId, ids } = await threeCards(0);
    expect(
      (await kit.call('DELETE', `${cards(personId)}/${ids[0]}`, undefined, kit.B)).status,
    ).toBe(404);
    expect((await kit.call('DELETE', `${cards(personId)}/${randomUUID()}`)).status).toBe(404);
    expect((await kit.call('GET', cards(personId))).body.metaData.totalResults).toBe(3);
  });
});
