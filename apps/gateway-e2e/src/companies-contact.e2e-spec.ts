import { randomUUID } from 'node:crypto';
import { Client as Pg } from 'pg';
import { Client, startClient, TestTenant } from './client';

// C15-C25 (addresses, phones, e-mails of a company) through the gateway, REST and GraphQL: one
// success and the main failure per row, and another tenant's ids answering 404 on every route
// with nothing changed.

jest.setTimeout(60000);

/** The system entry "office" of the company settings list email-types. */
const OFFICE = '00000000-0000-4000-b000-000000000701';

let client: Client;
let a: TestTenant;
let b: TestTenant;
let pg: Pg;

beforeAll(async () => {
  client = await startClient('companies_contact');
  a = await client.tenant();
  b = await client.tenant();
  pg = new Pg({ connectionString: client.stack.processes.get('crm-companies')!.env.DATABASE_URL });
  await pg.connect();
}, 120000);
afterAll(async () => {
  await pg?.end();
  await client?.stack.shutdown();
}, 30000);

/**
 * A company of tenant `t`, written straight into crm-companies' database: these tests are about
 * its contact data, not about C4.
 */
async function company(t: TestTenant): Promise<string> {
  const res = await pg.query(
    `INSERT INTO "Company" (id, "tenantId", name, "dateModified")
     VALUES (gen_random_uuid(), $1, 'Acme GmbH', now()) RETURNING id`,
    [t.id],
  );
  return res.rows[0].id;
}

const TABLES = { addresses: 'CompanyAddress', phones: 'CompanyPhone', emails: 'CompanyEmail' };
type List = keyof typeof TABLES;

/** The stored rows of a company's list in order, as compared snapshots. */
async function rows(companyId: string, list: List) {
  const res = await pg.query(
    `SELECT * FROM "${TABLES[list]}" WHERE "companyId" = $1 ORDER BY position, "dateCreated"`,
    [companyId],
  );
  return res.rows.map((r) => ({ ...r, dateModified: undefined }));
}

async function add(t: TestTenant, companyId: string, list: List, body: object) {
  const res = await client.rest(t, 'POST', `/companies/${companyId}/${list}`, body);
  if (res.status !== 201) throw new Error(`create ${list}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const fieldRules = (errors: { field: string; rule: string }[]) =>
  errors.map((e) => `${e.field}:${e.rule}`).sort();

describe('addresses (REST)', () => {
  let acme: string;
  let path: string;
  beforeAll(async () => {
    acme = await company(a);
    path = `/companies/${acme}/addresses`;
  });

  it('C15 creates an address (201, the first is the favorite); no line -> 400 naming the rule', async () => {
    const res = await client.rest(a, 'POST', path, {
      type: 'headquarters',
      street: 'Unter den Linden 1',
      zip: '10117',
      city: 'Berlin',
      countryCode: 'de',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ statusCode: 201, metaData: { totalResults: 1 } });
    expect(res.body.data).toMatchObject({ city: 'Berlin', countryCode: 'DE', isFavorite: true });
    const bad = await client.rest(
      a,
      'POST',
      path,
      { country: 'Deutschland' },
      {
        'Accept-Language': 'de',
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.data).toBeNull();
    expect(bad.body.errors).toEqual([
      {
        field: 'street',
        rule: 'addressLine',
        message:
          'street: Eine Adresse braucht mindestens eines von street, zip, city oder postboxNumber',
      },
    ]);
    expect(await rows(acme, 'addresses')).toHaveLength(1);
  });

  it('C16 updates given fields (200); an unknown address -> 404 naming it', async () => {
    const [address] = await rows(acme, 'addresses');
    const res = await client.rest(a, 'PUT', `${path}/${address.id}`, {
      zip: null,
      city: 'Potsdam',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      zip: null,
      city: 'Potsdam',
      street: 'Unter den Linden 1',
    });
    const missing = randomUUID();
    const unknown = await client.rest(a, 'PUT', `${path}/${missing}`, { city: 'X' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(`Address ${missing} was not found`);
  });

  it('C17 deletes the favorite (200): the first remaining address becomes the favorite', async () => {
    const [first] = await rows(acme, 'addresses');
    const second = await add(a, acme, 'addresses', { city: 'Hamburg' });
    const res = await client.rest(a, 'DELETE', `${path}/${first.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: first.id, newFavoriteId: second.id });
    expect((await client.rest(a, 'DELETE', `${path}/${first.id}`)).status).toBe(404);
  });

  it('C18 validates without writing: valid with calculated; problems as errors', async () => {
    const before = await rows(acme, 'addresses');
    const ok = await client.rest(a, 'POST', `${path}/validate`, {
      city: 'Wien',
      countryCode: 'at',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      valid: true,
      errors: [],
      calculated: { city: 'Wien', countryCode: 'AT', isFavorite: false },
    });
    const bad = await client.rest(a, 'POST', `${path}/validate`, {
      countryCode: 'XX',
      latitude: 95,
    });
    expect(bad.status).toBe(200);
    expect(bad.body.data.valid).toBe(false);
    expect(fieldRules(bad.body.data.errors)).toEqual(['latitude:max']);
    expect(await rows(acme, 'addresses')).toEqual(before);
  });
});

describe('phones (REST)', () => {
  let acme: string;
  let path: string;
  beforeAll(async () => {
    acme = await company(a);
    path = `/companies/${acme}/phones`;
  });

  it('C19 adds a number in E.164 (201); a national number without countryCode -> 400; twice -> 409', async () => {
    const res = await client.rest(a, 'POST', path, { number: '030 1234567', countryCode: 'DE' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      number: '+49301234567',
      type: 'office',
      isFavorite: true,
    });
    const national = await client.rest(a, 'POST', path, { number: '089 123456' });
    expect(national.status).toBe(400);
    expect(fieldRules(national.body.errors)).toEqual(['number:phoneNumber']);
    const twice = await client.rest(a, 'POST', path, { number: '+49 30 1234567' });
    expect(twice.status).toBe(409);
    expect(await rows(acme, 'phones')).toHaveLength(1);
  });

  it('C20 updates (200); a bad type -> 400', async () => {
    const [phone] = await rows(acme, 'phones');
    const res = await client.rest(a, 'PUT', `${path}/${phone.id}`, { type: 'fax', label: 'Fax' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'fax', label: 'Fax', number: '+49301234567' });
    const bad = await client.rest(a, 'PUT', `${path}/${phone.id}`, { type: 'pager' });
    expect(bad.status).toBe(400);
    expect(fieldRules(bad.body.errors)).toEqual(['type:isIn']);
  });

  it('C21 deletes (200); an unknown number -> 404', async () => {
    const extra = await add(a, acme, 'phones', { number: '+41 44 668 18 00' });
    const res = await client.rest(a, 'DELETE', `${path}/${extra.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: extra.id, newFavoriteId: null });
    expect((await client.rest(a, 'DELETE', `${path}/${randomUUID()}`)).status).toBe(404);
  });

  it('C22 validates: calculated e164, national, international, country, numberType; bad -> errors', async () => {
    const ok = await client.rest(a, 'POST', `${path}/validate`, { number: '+49 1512 3456789' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.calculated).toEqual({
      e164: '+4915123456789',
      national: '01512 3456789',
      international: '+49 1512 3456789',
      country: 'DE',
      numberType: 'MOBILE',
    });
    const bad = await client.rest(a, 'POST', `${path}/validate`, {
      number: '12',
      countryCode: 'DE',
    });
    expect(bad.body.data).toMatchObject({ valid: false, calculated: null });
    expect(fieldRules(bad.body.data.errors)).toEqual(['number:phoneNumber']);
    expect(await rows(acme, 'phones')).toHaveLength(1);
  });
});

describe('e-mails (REST)', () => {
  let acme: string;
  let path: string;
  beforeAll(async () => {
    acme = await company(a);
    path = `/companies/${acme}/emails`;
  });

  it('C23 adds an address (201, type translated, domain stored); not an e-mail -> 400', async () => {
    const res = await client.rest(
      a,
      'POST',
      path,
      { email: ' Info@Acme.Example ', emailType: { id: OFFICE } },
      { 'Accept-Language': 'de' },
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      email: 'Info@Acme.Example',
      emailType: { id: OFFICE, text: 'Büro' },
      isFavorite: true,
    });
    expect((await rows(acme, 'emails'))[0].domain).toBe('acme.example');
    const bad = await client.rest(a, 'POST', path, { email: 'info.acme.example' });
    expect(bad.status).toBe(400);
    expect(fieldRules(bad.body.errors)).toEqual(['email:isEmail']);
  });

  it('C24 marks another address favorite (200): the previous favorite loses it; duplicate -> 409', async () => {
    const [info] = await rows(acme, 'emails');
    const sales = await add(a, acme, 'emails', { email: 'sales@acme.example' });
    expect(sales.isFavorite).toBe(false);
    const res = await client.rest(a, 'PUT', `${path}/${sales.id}`, { isFavorite: true });
    expect(res.status).toBe(200);
    expect(res.body.data.isFavorite).toBe(true);
    expect((await rows(acme, 'emails')).map((r) => [r.email, r.isFavorite])).toEqual([
      ['Info@Acme.Example', false],
      ['sales@acme.example', true],
    ]);
    const dup = await client.rest(a, 'PUT', `${path}/${sales.id}`, { email: 'info@acme.example' });
    expect(dup.status).toBe(409);
    // unmarking the only favorite: the first element becomes the favorite again
    await client.rest(a, 'PUT', `${path}/${sales.id}`, { isFavorite: false });
    expect((await rows(acme, 'emails')).map((r) => r.id === info.id && r.isFavorite)).toEqual([
      true,
      false,
    ]);
  });

  it('C25 deletes the favorite (200): a new one is determined; unknown -> 404', async () => {
    const [info, sales] = await rows(acme, 'emails');
    const res = await client.rest(a, 'DELETE', `${path}/${info.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: info.id, newFavoriteId: sales.id });
    expect((await client.rest(a, 'DELETE', `${path}/${info.id}`)).status).toBe(404);
  });

  it('validates an e-mail address: calculated email and domain; unknown type -> error', async () => {
    const ok = await client.rest(a, 'POST', `${path}/validate`, { email: 'Team@Acme.Example' });
    expect(ok.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: { email: 'Team@Acme.Example', domain: 'acme.example' },
    });
    const bad = await client.rest(a, 'POST', `${path}/validate`, {
      email: 'team@acme.example',
      emailType: { id: randomUUID() },
    });
    expect(fieldRules(bad.body.data.errors)).toEqual(['emailType.id:unknownEntry']);
  });
});

describe('tenant isolation', () => {
  it("answers 404 on every route for another tenant's company and items, changing nothing", async () => {
    const acme = await company(a);
    const address = await add(a, acme, 'addresses', { city: 'Berlin' });
    const phone = await add(a, acme, 'phones', { number: '+49 30 1234567' });
    const email = await add(a, acme, 'emails', { email: 'info@acme.example' });
    const before = {
      addresses: await rows(acme, 'addresses'),
      phones: await rows(acme, 'phones'),
      emails: await rows(acme, 'emails'),
    };
    const base = `/companies/${acme}`;
    const calls: [string, string, object | undefined][] = [
      ['POST', `${base}/addresses`, { city: 'X' }],
      ['PUT', `${base}/addresses/${address.id}`, { city: 'X' }],
      ['DELETE', `${base}/addresses/${address.id}`, undefined],
      ['POST', `${base}/addresses/validate`, { city: 'X' }],
      ['POST', `${base}/phones`, { number: '+49 89 123456' }],
      ['PUT', `${base}/phones/${phone.id}`, { label: 'X' }],
      ['DELETE', `${base}/phones/${phone.id}`, undefined],
      ['POST', `${base}/phones/validate`, { number: '+49 89 123456' }],
      ['POST', `${base}/emails`, { email: 'x@acme.example' }],
      ['PUT', `${base}/emails/${email.id}`, { email: 'x@acme.example' }],
      ['DELETE', `${base}/emails/${email.id}`, undefined],
      ['POST', `${base}/emails/validate`, { email: 'x@acme.example' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await client.rest(b, method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(res.body.message).toBe(`Company ${acme} was not found`);
    }
    // tenant B's own company does not reach tenant A's items either
    const other = await company(b);
    const cross: [string, string, object | undefined][] = [
      ['PUT', `/companies/${other}/addresses/${address.id}`, { city: 'X' }],
      ['DELETE', `/companies/${other}/phones/${phone.id}`, undefined],
      ['PUT', `/companies/${other}/emails/${email.id}`, { email: 'x@acme.example' }],
    ];
    for (const [method, path, body] of cross) {
      expect((await client.rest(b, method, path, body)).status).toBe(404);
    }
    expect({
      addresses: await rows(acme, 'addresses'),
      phones: await rows(acme, 'phones'),
      emails: await rows(acme, 'emails'),
    }).toEqual(before);
  });
});

describe('GraphQL', () => {
  it('runs every contact-data mutation through the gateway', async () => {
    const acme = await company(a);
    const gql = async (query: string, variables: Record<string, unknown>, t = a) => {
      const res = await client.graphql(t, query, { c: acme, ...variables });
      expect(res.status).toBe(200);
      return res.body;
    };

    const address = (
      await gql(
        `mutation($c: ID!) { createCompanyAddress(companyId: $c, input: { city: "Berlin", countryCode: "de" }) { id countryCode isFavorite } }`,
        {},
      )
    ).data.createCompanyAddress;
    expect(address).toMatchObject({ countryCode: 'DE', isFavorite: true });
    const updatedAddress = await gql(
      `mutation($c: ID!, $id: ID!) { updateCompanyAddress(companyId: $c, addressId: $id, input: { zip: "10117" }) { zip city } }`,
      { id: address.id },
    );
    expect(updatedAddress.data.updateCompanyAddress).toEqual({ zip: '10117', city: 'Berlin' });
    const validAddress = await gql(
      `mutation($c: ID!) { validateCompanyAddress(companyId: $c, input: { isPostOfficeBox: true, city: "Bonn" }) { valid errors { field rule } } }`,
      {},
    );
    expect(validAddress.data.validateCompanyAddress).toEqual({
      valid: false,
      errors: [{ field: 'postboxNumber', rule: 'postboxRequired' }],
    });

    const phone = (
      await gql(
        `mutation($c: ID!) { createCompanyPhone(companyId: $c, input: { number: "030 1234567", countryCode: "DE" }) { id number } }`,
        {},
      )
    ).data.createCompanyPhone;
    expect(phone.number).toBe('+49301234567');
    const updatedPhone = await gql(
      `mutation($c: ID!, $id: ID!) { updateCompanyPhone(companyId: $c, phoneId: $id, input: { type: "mobile" }) { type } }`,
      { id: phone.id },
    );
    expect(updatedPhone.data.updateCompanyPhone).toEqual({ type: 'mobile' });
    const validPhone = await gql(
      `mutation($c: ID!) { validateCompanyPhone(companyId: $c, input: { number: "+41446681800" }) { valid calculated { country } } }`,
      {},
    );
    expect(validPhone.data.validateCompanyPhone).toEqual({
      valid: true,
      calculated: { country: 'CH' },
    });

    const email = (
      await gql(
        `mutation($c: ID!, $t: ID!) { createCompanyEmail(companyId: $c, input: { email: "info@acme.example", emailType: { id: $t } }) { id emailType { text } } }`,
        { t: OFFICE },
      )
    ).data.createCompanyEmail;
    expect(email.emailType).toEqual({ text: 'Office' });
    const updatedEmail = await gql(
      `mutation($c: ID!, $id: ID!) { updateCompanyEmail(companyId: $c, emailId: $id, input: { emailType: null }) { emailType { id } } }`,
      { id: email.id },
    );
    expect(updatedEmail.data.updateCompanyEmail).toEqual({ emailType: null });
    const validEmail = await gql(
      `mutation($c: ID!) { validateCompanyEmail(companyId: $c, input: { email: "INFO@acme.example" }) { valid errors { rule } } }`,
      {},
    );
    expect(validEmail.data.validateCompanyEmail).toEqual({
      valid: false,
      errors: [{ rule: 'emailExists' }],
    });

    // failures carry the REST status; another tenant sees nothing
    const bad = await gql(
      `mutation($c: ID!) { createCompanyEmail(companyId: $c, input: { email: "nope" }) { id } }`,
      {},
    );
    expect(bad.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', statusCode: 400 });
    for (const [mutation, arg, id] of [
      ['deleteCompanyAddress', 'addressId', address.id],
      ['deleteCompanyPhone', 'phoneId', phone.id],
      ['deleteCompanyEmail', 'emailId', email.id],
    ]) {
      const foreign = await gql(
        `mutation($c: ID!, $id: ID!) { ${mutation}(companyId: $c, ${arg}: $id) { id } }`,
        { id },
        b,
      );
      expect(foreign.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
      const own = await gql(
        `mutation($c: ID!, $id: ID!) { ${mutation}(companyId: $c, ${arg}: $id) { id newFavoriteId } }`,
        { id },
      );
      expect(own.data[mutation]).toEqual({ id, newFavoriteId: null });
    }
  });
});
