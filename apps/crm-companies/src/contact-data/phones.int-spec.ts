import { randomUUID } from 'node:crypto';
import { ContactTestKit, favoriteCases, fieldRules } from './test/contact-test-kit';

// startup and requests can be slow on a loaded machine (jest's default is 5 s)
jest.setTimeout(60000);

// C19-C22 over REST and GraphQL: E.164, regions, conflicts, favorites, 404s.

let kit: ContactTestKit;

beforeAll(async () => {
  kit = await ContactTestKit.start('crm_companies_it_contact_phones');
}, 60000);
afterAll(async () => kit?.close(), 30000);

describe('C19 create', () => {
  it('stores E.164: international as typed, national with countryCode (not stored)', async () => {
    const companyId = await kit.company();
    const path = kit.path(companyId, 'phone');
    const intl = await kit.call('POST', path, {
      number: ' +41 44 668 18 00 ',
      label: ' Zentrale ',
    });
    expect(intl.status).toBe(201);
    expect(intl.body.data).toEqual({
      id: expect.any(String),
      type: 'office',
      number: '+41446681800',
      label: 'Zentrale',
      isFavorite: true,
    });
    const national = await kit.call('POST', path, {
      number: '01512 3456789',
      countryCode: 'de',
      type: 'mobile',
    });
    expect(national.status).toBe(201);
    expect(national.body.data).toMatchObject({
      number: '+4915123456789',
      type: 'mobile',
      label: null,
      isFavorite: false,
    });
    expect(await kit.state(companyId, 'phone')).toEqual([
      ['+41446681800', true],
      ['+4915123456789', false],
    ]);
  });

  it('refuses malformed fields with 400 naming field and rule', async () => {
    const companyId = await kit.company();
    const res = await kit.call('POST', kit.path(companyId, 'phone'), {
      type: 'pager',
      label: 'x'.repeat(201),
      isFavorite: 1,
    });
    expect(res.status).toBe(400);
    expect(fieldRules(res.body.errors)).toEqual([
      'isFavorite:isBoolean',
      'label:maxLength',
      'number:isDefined',
      'type:isIn',
    ]);
    const blank = await kit.call('POST', kit.path(companyId, 'phone'), { number: '   ' });
    expect(fieldRules(blank.body.errors)).toEqual(['number:isDefined']);
    expect(await kit.rows(companyId, 'phone')).toEqual([]);
  });

  it('refuses numbers it cannot read, with the reason in the caller language', async () => {
    const companyId = await kit.company();
    const path = kit.path(companyId, 'phone');
    const national = await kit.call('POST', path, { number: '030 1234567' });
    expect(national.status).toBe(400);
    expect(national.body.errors).toEqual([
      {
        field: 'number',
        rule: 'phoneNumber',
        message:
          'number is not a valid phone number; without countryCode it must be international, starting with + and the country code',
      },
    ]);
    const region = await kit.call('POST', path, { number: '12', countryCode: 'DE' }, kit.A, {
      'Accept-Language': 'de',
    });
    expect(region.body.errors).toEqual([
      {
        field: 'number',
        rule: 'phoneNumber',
        message:
          'number ist keine gültige Telefonnummer (Nummern ohne Ländervorwahl gelten für DE)',
      },
    ]);
    const code = await kit.call('POST', path, { number: '030 1234567', countryCode: 'Germany' });
    expect(fieldRules(code.body.errors)).toEqual(['countryCode:countryCode']);
    const plan = await kit.call('POST', path, { number: '030 1234567', countryCode: 'AQ' });
    expect(fieldRules(plan.body.errors)).toEqual(['countryCode:phoneRegion']);
    const ext = await kit.call('POST', path, { number: '+49 30 1234567 ext. 12' });
    expect(fieldRules(ext.body.errors)).toEqual(['number:phoneExtension']);
    expect(await kit.rows(companyId, 'phone')).toEqual([]);
  });

  it('answers 409 for a number the company has already (however typed)', async () => {
    const companyId = await kit.company();
    await kit.add(companyId, 'phone', { number: '+49 30 1234567' });
    const res = await kit.call('POST', kit.path(companyId, 'phone'), {
      number: '030-123 45 67',
      countryCode: 'DE',
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The company already has the phone number +49301234567');
    // another company may have the same number
    const other = await kit.company();
    expect(
      (await kit.call('POST', kit.path(other, 'phone'), { number: '+49 30 1234567' })).status,
    ).toBe(201);
    expect(await kit.state(companyId, 'phone')).toEqual([['+49301234567', true]]);
  });

  it("answers 404 for an unknown company and another tenant's", async () => {
    const companyId = await kit.company();
    const body = { number: '+49 30 1234567' };
    expect((await kit.call('POST', kit.path(companyId, 'phone'), body, kit.B)).status).toBe(404);
    expect((await kit.call('POST', kit.path(randomUUID(), 'phone'), body)).status).toBe(404);
    expect(await kit.rows(companyId, 'phone')).toEqual([]);
  });
});

describe('C20 update', () => {
  it('changes given fields only: label null clears, type null is office', async () => {
    const companyId = await kit.company();
    const p = await kit.add(companyId, 'phone', {
      number: '+49 30 1234567',
      type: 'fax',
      label: 'Fax',
    });
    const path = `${kit.path(companyId, 'phone')}/${p.id}`;
    const label = await kit.call('PUT', path, { label: null });
    expect(label.status).toBe(200);
    expect(label.body.data).toEqual({ ...p, label: null });
    const number = await kit.call('PUT', path, { number: '089 123456', countryCode: 'DE' });
    expect(number.body.data).toEqual({ ...p, label: null, number: '+4989123456' });
    const type = await kit.call('PUT', path, { type: null });
    expect(type.body.data.type).toBe('office');
    // the same number again is no conflict with itself
    expect((await kit.call('PUT', path, { number: '+49 89 123456' })).status).toBe(200);
  });

  it('refuses bad input (400) and numbers of other items (409), changing nothing', async () => {
    const companyId = await kit.company();
    await kit.add(companyId, 'phone', { number: '+49 30 1234567' });
    const p = await kit.add(companyId, 'phone', { number: '+49 89 123456' });
    const path = `${kit.path(companyId, 'phone')}/${p.id}`;
    const empty = await kit.call('PUT', path, { number: null });
    expect(fieldRules(empty.body.errors)).toEqual(['number:isNotEmpty']);
    const bad = await kit.call('PUT', path, { number: '030 1234567' });
    expect(fieldRules(bad.body.errors)).toEqual(['number:phoneNumber']);
    const code = await kit.call('PUT', path, { countryCode: 'XX' });
    expect(fieldRules(code.body.errors)).toEqual(['countryCode:countryCode']);
    const taken = await kit.call('PUT', path, { number: '+49301234567' });
    expect(taken.status).toBe(409);
    expect(await kit.state(companyId, 'phone')).toEqual([
      ['+49301234567', true],
      ['+4989123456', false],
    ]);
  });

  it("answers 404 naming the phone number for unknown ids and another company's or tenant's", async () => {
    const companyId = await kit.company();
    const p = await kit.add(companyId, 'phone', { number: '+49 30 1234567' });
    const other = await kit.company();
    const missing = randomUUID();
    const unknown = await kit.call('PUT', `${kit.path(companyId, 'phone')}/${missing}`, {
      label: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(`Phone number ${missing} was not found`);
    expect(
      (await kit.call('PUT', `${kit.path(other, 'phone')}/${p.id}`, { label: 'x' })).status,
    ).toBe(404);
    expect(
      (await kit.call('PUT', `${kit.path(companyId, 'phone')}/${p.id}`, { label: 'x' }, kit.B))
        .status,
    ).toBe(404);
    expect((await kit.rows(companyId, 'phone'))[0].label).toBeNull();
  });
});

describe('C21 delete', () => {
  it('deletes (200); unknown and foreign ids are 404 and nothing changes', async () => {
    const companyId = await kit.company();
    const p = await kit.add(companyId, 'phone', { number: '+49 30 1234567' });
    const path = kit.path(companyId, 'phone');
    expect((await kit.call('DELETE', `${path}/${p.id}`, undefined, kit.B)).status).toBe(404);
    expect((await kit.call('DELETE', `${path}/${randomUUID()}`)).status).toBe(404);
    const other = await kit.company();
    expect((await kit.call('DELETE', `${kit.path(other, 'phone')}/${p.id}`)).status).toBe(404);
    expect(await kit.state(companyId, 'phone')).toEqual([['+49301234567', true]]);
    const res = await kit.call('DELETE', `${path}/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: p.id, newFavoriteId: null });
    expect(await kit.rows(companyId, 'phone')).toEqual([]);
  });
});

describe('favorites', () => {
  it('applies every case of the favorite rule', async () => {
    await favoriteCases(
      kit,
      'phone',
      (n) => ({ number: `+49 30 123456${n}` }),
      (n) => `+4930123456${n}`,
    );
  });
});

describe('C22 validate', () => {
  it('answers e164, national, international, country and numberType, writing nothing', async () => {
    const companyId = await kit.company();
    const path = `${kit.path(companyId, 'phone')}/validate`;
    const res = await kit.call('POST', path, { number: '01512 3456789', countryCode: 'DE' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: {
        e164: '+4915123456789',
        national: '01512 3456789',
        international: '+49 1512 3456789',
        country: 'DE',
        numberType: 'MOBILE',
      },
    });
    expect(await kit.rows(companyId, 'phone')).toEqual([]);
  });

  it('reports every problem of create, and a number the company has already', async () => {
    const companyId = await kit.company();
    await kit.add(companyId, 'phone', { number: '+49 30 1234567' });
    const path = `${kit.path(companyId, 'phone')}/validate`;
    const shape = await kit.call('POST', path, { type: 'x' });
    expect(shape.status).toBe(200);
    expect(fieldRules(shape.body.data.errors)).toEqual(['number:isDefined', 'type:isIn']);
    const rule = await kit.call('POST', path, { number: '030 1234567' });
    expect(fieldRules(rule.body.data.errors)).toEqual(['number:phoneNumber']);
    const taken = await kit.call(
      'POST',
      path,
      { number: '030 1234567', countryCode: 'DE' },
      kit.A,
      {
        'Accept-Language': 'de',
      },
    );
    expect(taken.body.data).toEqual({
      valid: false,
      errors: [
        {
          field: 'number',
          rule: 'phoneExists',
          message: 'number: Die Firma hat die Telefonnummer +49301234567 bereits',
        },
      ],
      calculated: null,
    });
  });

  it('validates as an update with phoneId; unknown ids are 404', async () => {
    const companyId = await kit.company();
    const p = await kit.add(companyId, 'phone', { number: '+49 30 1234567' });
    const path = `${kit.path(companyId, 'phone')}/validate`;
    const res = await kit.call('POST', `${path}?phoneId=${p.id}`, { label: 'Zentrale' });
    expect(res.body.data).toMatchObject({ valid: true, calculated: { e164: '+49301234567' } });
    const same = await kit.call('POST', `${path}?phoneId=${p.id}`, { number: '+49301234567' });
    expect(same.body.data.valid).toBe(true);
    expect((await kit.call('POST', `${path}?phoneId=${randomUUID()}`, {})).status).toBe(404);
    expect((await kit.call('POST', path, { number: '+49301234567' }, kit.B)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('creates, updates, validates and deletes phone numbers', async () => {
    const companyId = await kit.company();
    const created = await kit.gql(
      `mutation($c: ID!, $i: CreateCompanyPhoneInput!) { createCompanyPhone(companyId: $c, input: $i) { id number type label isFavorite } }`,
      { c: companyId, i: { number: '030 1234567', countryCode: 'DE', label: 'Zentrale' } },
    );
    expect(created.body.errors).toBeUndefined();
    const p = created.body.data.createCompanyPhone;
    expect(p).toMatchObject({ number: '+49301234567', type: 'office', isFavorite: true });

    const updated = await kit.gql(
      `mutation($c: ID!, $p: ID!, $i: UpdateCompanyPhoneInput!) { updateCompanyPhone(companyId: $c, phoneId: $p, input: $i) { number type label } }`,
      { c: companyId, p: p.id, i: { type: 'fax', label: null } },
    );
    expect(updated.body.data.updateCompanyPhone).toEqual({
      number: '+49301234567',
      type: 'fax',
      label: null,
    });

    const validated = await kit.gql(
      `mutation($c: ID!, $i: UpdateCompanyPhoneInput!) { validateCompanyPhone(companyId: $c, input: $i) { valid errors { field rule } calculated { e164 country numberType } } }`,
      { c: companyId, i: { number: '+1 800 555 0100' } },
    );
    expect(validated.body.data.validateCompanyPhone).toEqual({
      valid: true,
      errors: [],
      calculated: { e164: '+18005550100', country: 'US', numberType: 'TOLL_FREE' },
    });
    const missing = await kit.gql(
      `mutation($c: ID!) { validateCompanyPhone(companyId: $c, input: {}) { valid errors { field rule } } }`,
      { c: companyId },
    );
    expect(missing.body.data.validateCompanyPhone).toEqual({
      valid: false,
      errors: [{ field: 'number', rule: 'isDefined' }],
    });

    const deleted = await kit.gql(
      `mutation($c: ID!, $p: ID!) { deleteCompanyPhone(companyId: $c, phoneId: $p) { id newFavoriteId } }`,
      { c: companyId, p: p.id },
    );
    expect(deleted.body.data.deleteCompanyPhone).toEqual({ id: p.id, newFavoriteId: null });
  });

  it('answers bad numbers with VALIDATION_FAILED, duplicates with CONFLICT, foreign ids with NOT_FOUND', async () => {
    const companyId = await kit.company();
    const p = await kit.add(companyId, 'phone', { number: '+49 30 1234567' });
    const create = `mutation($c: ID!, $i: CreateCompanyPhoneInput!) { createCompanyPhone(companyId: $c, input: $i) { id } }`;
    const bad = await kit.gql(create, { c: companyId, i: { number: '12' } });
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [expect.objectContaining({ field: 'number', rule: 'phoneNumber' })],
    });
    const dup = await kit.gql(create, { c: companyId, i: { number: '+49301234567' } });
    expect(dup.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    const foreign = await kit.gql(create, { c: companyId, i: { number: '+49891234567' } }, kit.B);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const foreignDelete = await kit.gql(
      `mutation($c: ID!, $p: ID!) { deleteCompanyPhone(companyId: $c, phoneId: $p) { id } }`,
      { c: companyId, p: p.id },
      kit.B,
    );
    expect(foreignDelete.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await kit.state(companyId, 'phone')).toEqual([['+49301234567', true]]);
  });
});
