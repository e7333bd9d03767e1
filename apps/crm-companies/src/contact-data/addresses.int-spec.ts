import { randomUUID } from 'node:crypto';
import { ContactTestKit, favoriteCases, fieldRules } from './test/contact-test-kit';

// startup and requests can be slow on a loaded machine (jest's default is 5 s)
jest.setTimeout(60000);

// C15-C18 over REST and GraphQL: rules, favorites, 404s for unknown and foreign ids.

let kit: ContactTestKit;

beforeAll(async () => {
  kit = await ContactTestKit.start('crm_companies_it_contact_addresses');
}, 60000);
afterAll(async () => kit?.close(), 30000);

const FULL = {
  type: 'headquarters',
  country: ' Österreich ',
  countryCode: 'at',
  street: 'Ringstraße 1',
  streetAdditional: '3. Stock',
  zip: '1010',
  city: 'Wien',
  federalState: 'Wien',
  cityDistrict: 'Innere Stadt',
  longitude: 16.37,
  latitude: 48.21,
};

describe('C15 create', () => {
  it('creates an address (201): trimmed, code upper-cased, the first one is the favorite', async () => {
    const companyId = await kit.company();
    const before = await kit.prisma.company.findUniqueOrThrow({ where: { id: companyId } });
    const res = await kit.call('POST', kit.path(companyId, 'address'), FULL);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      ...FULL,
      id: expect.any(String),
      country: 'Österreich',
      countryCode: 'AT',
      postboxNumber: null,
      isPostOfficeBox: false,
      isFavorite: true,
    });
    const rows = await kit.rows(companyId, 'address');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tenantId: kit.A, countryCode: 'AT', position: 0 });
    // the company was changed through its contact data
    const after = await kit.prisma.company.findUniqueOrThrow({ where: { id: companyId } });
    expect(after.modifiedBy).toBe('test-suite');
    expect(after.dateModified.getTime()).toBeGreaterThan(before.dateModified.getTime());
  });

  it('accepts a post office box address with its number', async () => {
    const companyId = await kit.company();
    const res = await kit.call('POST', kit.path(companyId, 'address'), {
      type: 'postal',
      isPostOfficeBox: true,
      postboxNumber: '10 20 30',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ isPostOfficeBox: true, postboxNumber: '10 20 30' });
  });

  it('refuses malformed fields with 400 naming field and rule, writing nothing', async () => {
    const companyId = await kit.company();
    const res = await kit.call('POST', kit.path(companyId, 'address'), {
      type: 'home',
      zip: '1'.repeat(21),
      longitude: 181,
      latitude: 'north',
      isPostOfficeBox: 'yes',
      extra: 1,
    });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(fieldRules(res.body.errors)).toEqual([
      'extra:whitelistValidation',
      'isPostOfficeBox:isBoolean',
      'latitude:isNumber',
      'longitude:max',
      'type:isIn',
      'zip:maxLength',
    ]);
    expect(await kit.rows(companyId, 'address')).toEqual([]);
  });

  it('refuses broken address rules with 400, translated by Accept-Language', async () => {
    const companyId = await kit.company();
    const res = await kit.call(
      'POST',
      kit.path(companyId, 'address'),
      { country: 'Nowhere', countryCode: 'XX', isPostOfficeBox: true, longitude: 10, street: '  ' },
      kit.A,
      { 'Accept-Language': 'de' },
    );
    expect(res.status).toBe(400);
    expect(fieldRules(res.body.errors)).toEqual([
      'countryCode:countryCode',
      'latitude:coordinatesPair',
      'postboxNumber:postboxRequired',
      'street:addressLine',
    ]);
    const byField = Object.fromEntries(res.body.errors.map((e: any) => [e.field, e.message]));
    expect(byField.countryCode).toBe(
      'countryCode muss ein Ländercode nach ISO 3166-1 alpha-2 wie DE sein, nicht XX',
    );
    expect(byField.latitude).toBe('latitude ist zusammen mit longitude erforderlich');
    const en = await kit.call('POST', kit.path(companyId, 'address'), { country: 'X' });
    expect(en.body.errors).toEqual([
      {
        field: 'street',
        rule: 'addressLine',
        message: 'street: an address needs at least one of street, zip, city or postboxNumber',
      },
    ]);
    expect(await kit.rows(companyId, 'address')).toEqual([]);
  });

  it("answers 404 for an unknown company, another tenant's company and a malformed id", async () => {
    const companyId = await kit.company();
    const foreign = await kit.call('POST', kit.path(companyId, 'address'), { city: 'X' }, kit.B);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(`Company ${companyId} was not found`);
    const unknown = randomUUID();
    expect((await kit.call('POST', kit.path(unknown, 'address'), { city: 'X' })).status).toBe(404);
    expect((await kit.call('POST', '/companies/nope/addresses', { city: 'X' })).status).toBe(404);
    expect(await kit.rows(companyId, 'address')).toEqual([]);
  });
});

describe('C16 update', () => {
  it('changes given fields only; null clears; 200 with the address', async () => {
    const companyId = await kit.company();
    const a = await kit.add(companyId, 'address', FULL);
    const res = await kit.call('PUT', `${kit.path(companyId, 'address')}/${a.id}`, {
      zip: null,
      longitude: null,
      latitude: null,
      countryCode: 'ch',
      city: 'Zürich',
      type: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...a,
      zip: null,
      longitude: null,
      latitude: null,
      countryCode: 'CH',
      city: 'Zürich',
      type: null,
    });
    const [row] = await kit.rows(companyId, 'address');
    expect(row).toMatchObject({ street: 'Ringstraße 1', zip: null, city: 'Zürich' });
  });

  it('checks the address as it would be after the update: 400, nothing changed', async () => {
    const companyId = await kit.company();
    const a = await kit.add(companyId, 'address', { city: 'Bonn', longitude: 7.1, latitude: 50.7 });
    const path = `${kit.path(companyId, 'address')}/${a.id}`;
    const res = await kit.call('PUT', path, { city: null, latitude: null });
    expect(res.status).toBe(400);
    expect(fieldRules(res.body.errors)).toEqual(['latitude:coordinatesPair', 'street:addressLine']);
    const box = await kit.call('PUT', path, { isPostOfficeBox: true });
    expect(fieldRules(box.body.errors)).toEqual(['postboxNumber:postboxRequired']);
    const shape = await kit.call('PUT', path, { latitude: 91 });
    expect(fieldRules(shape.body.errors)).toEqual(['latitude:max']);
    expect(await kit.state(companyId, 'address')).toEqual([['Bonn', true]]);
  });

  it("answers 404 naming the address for unknown ids and another company's or tenant's", async () => {
    const companyId = await kit.company();
    const a = await kit.add(companyId, 'address', { city: 'Bonn' });
    const other = await kit.company();
    const missing = randomUUID();
    const unknown = await kit.call(
      'PUT',
      `${kit.path(companyId, 'address')}/${missing}`,
      { city: 'Köln' },
      kit.A,
      { 'Accept-Language': 'de' },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(`Adresse ${missing} wurde nicht gefunden`);
    const elsewhere = await kit.call('PUT', `${kit.path(other, 'address')}/${a.id}`, {
      city: 'Köln',
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe(`Address ${a.id} was not found`);
    const foreign = await kit.call(
      'PUT',
      `${kit.path(companyId, 'address')}/${a.id}`,
      { city: 'Köln' },
      kit.B,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(`Company ${companyId} was not found`);
    expect(
      (await kit.call('PUT', `${kit.path(companyId, 'address')}/nope`, { city: 'Köln' })).status,
    ).toBe(404);
    expect(await kit.state(companyId, 'address')).toEqual([['Bonn', true]]);
  });
});

describe('C17 delete', () => {
  it('deletes (200 with id and newFavoriteId); unknown and foreign ids are 404, nothing changes', async () => {
    const companyId = await kit.company();
    const a = await kit.add(companyId, 'address', { city: 'Bonn' });
    const b = await kit.add(companyId, 'address', { city: 'Köln' });
    const path = kit.path(companyId, 'address');
    const other = await kit.company();
    expect((await kit.call('DELETE', `${path}/${a.id}`, undefined, kit.B)).status).toBe(404);
    expect((await kit.call('DELETE', `${kit.path(other, 'address')}/${a.id}`)).status).toBe(404);
    expect((await kit.call('DELETE', `${path}/${randomUUID()}`)).status).toBe(404);
    expect((await kit.call('DELETE', `${path}/nope`)).status).toBe(404);
    expect(await kit.state(companyId, 'address')).toEqual([
      ['Bonn', true],
      ['Köln', false],
    ]);
    const res = await kit.call('DELETE', `${path}/${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: a.id, newFavoriteId: b.id });
    expect(await kit.state(companyId, 'address')).toEqual([['Köln', true]]);
  });
});

describe('favorites', () => {
  it('applies every case of the favorite rule', async () => {
    await favoriteCases(
      kit,
      'address',
      (n) => ({ city: `City ${n}` }),
      (n) => `City ${n}`,
    );
  });
});

describe('C18 validate', () => {
  it('answers valid with the address as it would be stored, writing nothing', async () => {
    const companyId = await kit.company();
    const path = `${kit.path(companyId, 'address')}/validate`;
    const res = await kit.call('POST', path, { city: ' Wien ', countryCode: 'at' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: expect.objectContaining({
        city: 'Wien',
        countryCode: 'AT',
        isPostOfficeBox: false,
        isFavorite: true,
      }),
    });
    expect(await kit.rows(companyId, 'address')).toEqual([]);
  });

  it('lists pipe problems, then rule problems, in the caller language', async () => {
    const companyId = await kit.company();
    const path = `${kit.path(companyId, 'address')}/validate`;
    const shape = await kit.call('POST', path, { type: 'x', extra: true });
    expect(shape.status).toBe(200);
    expect(shape.body.data.valid).toBe(false);
    expect(shape.body.data.calculated).toBeNull();
    expect(fieldRules(shape.body.data.errors)).toEqual(['extra:whitelistValidation', 'type:isIn']);
    const rules = await kit.call('POST', path, { countryCode: 'XX' }, kit.A, {
      'Accept-Language': 'de',
    });
    expect(fieldRules(rules.body.data.errors)).toEqual([
      'countryCode:countryCode',
      'street:addressLine',
    ]);
    expect(rules.body.data.errors.find((e: any) => e.field === 'street').message).toBe(
      'street: Eine Adresse braucht mindestens eines von street, zip, city oder postboxNumber',
    );
    const notObject = await kit.call('POST', path, [1]);
    expect(notObject.body.data.errors).toEqual([
      { field: 'body', rule: 'isObject', message: 'body must be an object' },
    ]);
  });

  it('validates as an update with addressId (stored values count); unknown ids are 404', async () => {
    const companyId = await kit.company();
    await kit.add(companyId, 'address', { city: 'Bonn' });
    const b = await kit.add(companyId, 'address', { city: 'Köln', zip: '50667' });
    const path = `${kit.path(companyId, 'address')}/validate`;
    const res = await kit.call('POST', `${path}?addressId=${b.id}`, { city: null });
    expect(res.body.data).toMatchObject({
      valid: true,
      calculated: { city: null, zip: '50667', isFavorite: false },
    });
    const fav = await kit.call('POST', `${path}?addressId=${b.id}`, { isFavorite: true });
    expect(fav.body.data.calculated.isFavorite).toBe(true);
    const broken = await kit.call('POST', `${path}?addressId=${b.id}`, { city: null, zip: null });
    expect(fieldRules(broken.body.data.errors)).toEqual(['street:addressLine']);
    expect((await kit.call('POST', `${path}?addressId=${randomUUID()}`, {})).status).toBe(404);
    expect((await kit.call('POST', path, { city: 'X' }, kit.B)).status).toBe(404);
    expect(
      (await kit.call('POST', `${kit.path(randomUUID(), 'address')}/validate`, {})).status,
    ).toBe(404);
    expect(await kit.state(companyId, 'address')).toEqual([
      ['Bonn', true],
      ['Köln', false],
    ]);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id city countryCode isFavorite longitude latitude isPostOfficeBox type';

  it('creates, updates, validates and deletes addresses', async () => {
    const companyId = await kit.company();
    const created = await kit.gql(
      `mutation($c: ID!, $i: CompanyAddressInput!) { createCompanyAddress(companyId: $c, input: $i) { ${FIELDS} } }`,
      { c: companyId, i: { city: 'Wien', countryCode: 'at', longitude: 16.37, latitude: 48.21 } },
    );
    expect(created.body.errors).toBeUndefined();
    const a = created.body.data.createCompanyAddress;
    expect(a).toMatchObject({ city: 'Wien', countryCode: 'AT', isFavorite: true, type: null });

    const second = await kit.add(companyId, 'address', { city: 'Graz' });
    const updated = await kit.gql(
      `mutation($c: ID!, $a: ID!, $i: CompanyAddressInput!) { updateCompanyAddress(companyId: $c, addressId: $a, input: $i) { ${FIELDS} } }`,
      { c: companyId, a: second.id, i: { isFavorite: true, type: 'branch' } },
    );
    expect(updated.body.data.updateCompanyAddress).toMatchObject({
      city: 'Graz',
      type: 'branch',
      isFavorite: true,
    });

    const validated = await kit.gql(
      `mutation($c: ID!, $i: CompanyAddressInput!) { validateCompanyAddress(companyId: $c, input: $i) { valid errors { field rule message } calculated { city isFavorite } } }`,
      { c: companyId, i: { isPostOfficeBox: true, city: 'Linz' } },
    );
    expect(validated.body.data.validateCompanyAddress).toEqual({
      valid: false,
      errors: [
        {
          field: 'postboxNumber',
          rule: 'postboxRequired',
          message: 'postboxNumber is required when isPostOfficeBox is true',
        },
      ],
      calculated: null,
    });
    const asUpdate = await kit.gql(
      `mutation($c: ID!, $a: ID, $i: CompanyAddressInput!) { validateCompanyAddress(companyId: $c, addressId: $a, input: $i) { valid calculated { city isFavorite } } }`,
      { c: companyId, a: a.id, i: { isFavorite: true } },
    );
    expect(asUpdate.body.data.validateCompanyAddress).toEqual({
      valid: true,
      calculated: { city: 'Wien', isFavorite: true },
    });

    const deleted = await kit.gql(
      `mutation($c: ID!, $a: ID!) { deleteCompanyAddress(companyId: $c, addressId: $a) { id newFavoriteId } }`,
      { c: companyId, a: second.id },
    );
    expect(deleted.body.data.deleteCompanyAddress).toEqual({ id: second.id, newFavoriteId: a.id });
    expect(await kit.state(companyId, 'address')).toEqual([['Wien', true]]);
  });

  it('answers bad input with VALIDATION_FAILED and foreign ids with NOT_FOUND', async () => {
    const companyId = await kit.company();
    const a = await kit.add(companyId, 'address', { city: 'Wien' });
    const bad = await kit.gql(
      `mutation($c: ID!, $i: CompanyAddressInput!) { createCompanyAddress(companyId: $c, input: $i) { id } }`,
      { c: companyId, i: { latitude: 100, countryCode: 'XX', city: 'Y' } },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
      errors: [expect.objectContaining({ field: 'latitude', rule: 'max' })],
    });
    const rule = await kit.gql(
      `mutation($c: ID!, $i: CompanyAddressInput!) { createCompanyAddress(companyId: $c, input: $i) { id } }`,
      { c: companyId, i: { countryCode: 'XX', city: 'Y' } },
    );
    expect(fieldRules(rule.body.errors[0].extensions.errors)).toEqual(['countryCode:countryCode']);
    const foreign = await kit.gql(
      `mutation($c: ID!, $a: ID!) { deleteCompanyAddress(companyId: $c, addressId: $a) { id } }`,
      { c: companyId, a: a.id },
      kit.B,
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const foreignUpdate = await kit.gql(
      `mutation($c: ID!, $a: ID!) { updateCompanyAddress(companyId: $c, addressId: $a, input: { city: "Z" }) { id } }`,
      { c: companyId, a: a.id },
      kit.B,
    );
    expect(foreignUpdate.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const foreignValidate = await kit.gql(
      `mutation($c: ID!) { validateCompanyAddress(companyId: $c, input: { city: "Z" }) { valid } }`,
      { c: companyId },
      kit.B,
    );
    expect(foreignValidate.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await kit.state(companyId, 'address')).toEqual([['Wien', true]]);
  });
});
