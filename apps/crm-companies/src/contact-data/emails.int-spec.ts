import { randomUUID } from 'node:crypto';
import { ContactTestKit, favoriteCases, fieldRules } from './test/contact-test-kit';

// startup and requests can be slow on a loaded machine (jest's default is 5 s)
jest.setTimeout(60000);

// C23-C25 and the e-mail validate operation over REST and GraphQL: the seed's favorite rules,
// e-mail types, domains, conflicts, 404s.

let kit: ContactTestKit;
/** The system entry "office" of email-types (settings/system-entries.ts). */
const OFFICE = '00000000-0000-4000-b000-000000000701';
let newsletter: string;
let foreignType: string;

beforeAll(async () => {
  kit = await ContactTestKit.start('crm_companies_it_contact_emails');
  newsletter = await kit.emailType(kit.A, 'Newsletter');
  foreignType = await kit.emailType(kit.B, 'Press');
}, 60000);
afterAll(async () => kit?.close(), 30000);

describe('C23 create', () => {
  it('stores the address trimmed with its lower-cased domain; the type is translated', async () => {
    const companyId = await kit.company();
    const path = kit.path(companyId, 'email');
    const res = await kit.call(
      'POST',
      path,
      { email: '  Info@Example.COM ', emailType: { id: OFFICE, text: 'ignored' } },
      kit.A,
      { 'Accept-Language': 'de' },
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      email: 'Info@Example.COM',
      emailType: { id: OFFICE, text: 'Büro' },
      isFavorite: true,
    });
    const tenantType = await kit.call('POST', path, {
      email: 'news@example.com',
      emailType: { id: newsletter },
    });
    expect(tenantType.body.data).toMatchObject({
      emailType: { id: newsletter, text: 'Newsletter' },
      isFavorite: false,
    });
    const rows = await kit.rows(companyId, 'email');
    expect(rows.map((r) => [r.email, r.domain, r.emailTypeId, r.tenantId])).toEqual([
      ['Info@Example.COM', 'example.com', OFFICE, kit.A],
      ['news@example.com', 'example.com', newsletter, kit.A],
    ]);
  });

  it('refuses malformed input with 400 naming field and rule, writing nothing', async () => {
    const companyId = await kit.company();
    const path = kit.path(companyId, 'email');
    const res = await kit.call('POST', path, {
      email: 'not-an-address',
      emailType: { id: 'office' },
      isFavorite: 'yes',
    });
    expect(res.status).toBe(400);
    expect(fieldRules(res.body.errors)).toEqual([
      'email:isEmail',
      'emailType.id:isUuid',
      'isFavorite:isBoolean',
    ]);
    const de = await kit.call('POST', path, { email: 'a@b' }, kit.A, { 'Accept-Language': 'de' });
    expect(de.body.errors).toEqual([
      { field: 'email', rule: 'isEmail', message: 'email muss eine E-Mail-Adresse sein' },
    ]);
    const missing = await kit.call('POST', path, { emailType: null });
    expect(fieldRules(missing.body.errors)).toEqual(['email:isDefined']);
    // longer than any valid address can be (64 + 1 + 254)
    const long = await kit.call('POST', path, { email: `${'a'.repeat(64)}@${'b'.repeat(260)}.de` });
    expect(fieldRules(long.body.errors)).toEqual(['email:isEmail']);
    expect(await kit.rows(companyId, 'email')).toEqual([]);
  });

  it("refuses unknown e-mail types (also another tenant's) with 400 unknownEntry", async () => {
    const companyId = await kit.company();
    for (const id of [foreignType, randomUUID()]) {
      const res = await kit.call('POST', kit.path(companyId, 'email'), {
        email: 'a@example.com',
        emailType: { id },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          field: 'emailType.id',
          rule: 'unknownEntry',
          message: 'emailType.id does not name an entry of the list e-mail types',
        },
      ]);
    }
    expect(await kit.rows(companyId, 'email')).toEqual([]);
  });

  it('answers 409 for an address the company has already, ignoring case', async () => {
    const companyId = await kit.company();
    await kit.add(companyId, 'email', { email: 'info@example.com' });
    const res = await kit.call('POST', kit.path(companyId, 'email'), { email: 'INFO@example.com' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The company already has the e-mail address INFO@example.com');
    const other = await kit.company();
    expect(
      (await kit.call('POST', kit.path(other, 'email'), { email: 'info@example.com' })).status,
    ).toBe(201);
    expect(await kit.state(companyId, 'email')).toEqual([['info@example.com', true]]);
  });

  it("answers 404 for an unknown company and another tenant's", async () => {
    const companyId = await kit.company();
    const body = { email: 'a@example.com' };
    const foreign = await kit.call('POST', kit.path(companyId, 'email'), body, kit.B, {
      'Accept-Language': 'de',
    });
    expect(foreign.status).toBe(404);
    expect((await kit.call('POST', kit.path(randomUUID(), 'email'), body)).status).toBe(404);
    expect(await kit.rows(companyId, 'email')).toEqual([]);
  });
});

describe('C24 update', () => {
  it('changes given fields only; a new address gets a new domain; emailType null clears', async () => {
    const companyId = await kit.company();
    const e = await kit.add(companyId, 'email', {
      email: 'info@example.com',
      emailType: { id: OFFICE },
    });
    const path = `${kit.path(companyId, 'email')}/${e.id}`;
    const res = await kit.call('PUT', path, { email: 'Sales@Beispiel.DE' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...e, email: 'Sales@Beispiel.DE' });
    const typeless = await kit.call('PUT', path, { emailType: null });
    expect(typeless.body.data).toEqual({ ...e, email: 'Sales@Beispiel.DE', emailType: null });
    const [row] = await kit.rows(companyId, 'email');
    expect(row).toMatchObject({ domain: 'beispiel.de', emailTypeId: null });
    // the same address in another case is no conflict with itself
    expect((await kit.call('PUT', path, { email: 'sales@beispiel.de' })).status).toBe(200);
  });

  it('refuses bad input (400) and addresses of other items (409), changing nothing', async () => {
    const companyId = await kit.company();
    await kit.add(companyId, 'email', { email: 'info@example.com' });
    const e = await kit.add(companyId, 'email', { email: 'sales@example.com' });
    const path = `${kit.path(companyId, 'email')}/${e.id}`;
    expect(fieldRules((await kit.call('PUT', path, { email: null })).body.errors)).toEqual([
      'email:isNotEmpty',
    ]);
    expect(fieldRules((await kit.call('PUT', path, { email: 'x@' })).body.errors)).toEqual([
      'email:isEmail',
    ]);
    const type = await kit.call('PUT', path, { emailType: { id: foreignType } });
    expect(fieldRules(type.body.errors)).toEqual(['emailType.id:unknownEntry']);
    const taken = await kit.call('PUT', path, { email: 'Info@Example.com' });
    expect(taken.status).toBe(409);
    expect(await kit.state(companyId, 'email')).toEqual([
      ['info@example.com', true],
      ['sales@example.com', false],
    ]);
  });

  it("answers 404 naming the e-mail address for unknown ids and another company's or tenant's", async () => {
    const companyId = await kit.company();
    const e = await kit.add(companyId, 'email', { email: 'info@example.com' });
    const other = await kit.company();
    const missing = randomUUID();
    const unknown = await kit.call(
      'PUT',
      `${kit.path(companyId, 'email')}/${missing}`,
      { email: 'x@example.com' },
      kit.A,
      { 'Accept-Language': 'de' },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(`E-Mail-Adresse ${missing} wurde nicht gefunden`);
    const body = { email: 'x@example.com' };
    expect((await kit.call('PUT', `${kit.path(other, 'email')}/${e.id}`, body)).status).toBe(404);
    expect(
      (await kit.call('PUT', `${kit.path(companyId, 'email')}/${e.id}`, body, kit.B)).status,
    ).toBe(404);
    expect(await kit.state(companyId, 'email')).toEqual([['info@example.com', true]]);
  });
});

describe('C25 delete', () => {
  it('deletes (200); unknown and foreign ids are 404 and nothing changes', async () => {
    const companyId = await kit.company();
    const e = await kit.add(companyId, 'email', { email: 'info@example.com' });
    const path = kit.path(companyId, 'email');
    expect((await kit.call('DELETE', `${path}/${e.id}`, undefined, kit.B)).status).toBe(404);
    expect((await kit.call('DELETE', `${path}/${randomUUID()}`)).status).toBe(404);
    const other = await kit.company();
    expect((await kit.call('DELETE', `${kit.path(other, 'email')}/${e.id}`)).status).toBe(404);
    expect(await kit.state(companyId, 'email')).toEqual([['info@example.com', true]]);
    const res = await kit.call('DELETE', `${path}/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: e.id, newFavoriteId: null });
    expect(await kit.rows(companyId, 'email')).toEqual([]);
  });
});

describe('favorites (the seed rules of C24 and C25)', () => {
  it('applies every case of the favorite rule', async () => {
    await favoriteCases(
      kit,
      'email',
      (n) => ({ email: `mail${n}@example.com` }),
      (n) => `mail${n}@example.com`,
    );
  });

  it('keeps one favorite when writes of one company run at the same time', async () => {
    const companyId = await kit.company();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        kit.call('POST', kit.path(companyId, 'email'), {
          email: `p${n}@example.com`,
          isFavorite: n % 2 === 0,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const rows = await kit.rows(companyId, 'email');
    expect(rows.filter((r) => r.isFavorite)).toHaveLength(1);
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('validate', () => {
  it('answers valid with email and domain as they would be stored, writing nothing', async () => {
    const companyId = await kit.company();
    const path = `${kit.path(companyId, 'email')}/validate`;
    const res = await kit.call('POST', path, {
      email: ' Info@Example.COM',
      emailType: { id: OFFICE },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: { email: 'Info@Example.COM', domain: 'example.com' },
    });
    expect(await kit.rows(companyId, 'email')).toEqual([]);
  });

  it('reports every problem of create, unknown types and addresses the company has', async () => {
    const companyId = await kit.company();
    await kit.add(companyId, 'email', { email: 'info@example.com' });
    const path = `${kit.path(companyId, 'email')}/validate`;
    const shape = await kit.call('POST', path, { email: 'nope', x: 1 });
    expect(fieldRules(shape.body.data.errors)).toEqual(['email:isEmail', 'x:whitelistValidation']);
    const domain = await kit.call(
      'POST',
      path,
      { email: 'INFO@example.com', emailType: { id: randomUUID() } },
      kit.A,
      { 'Accept-Language': 'de' },
    );
    expect(domain.body.data.valid).toBe(false);
    expect(domain.body.data.calculated).toBeNull();
    expect(domain.body.data.errors).toEqual([
      {
        field: 'emailType.id',
        rule: 'unknownEntry',
        message: expect.stringContaining('emailType.id'),
      },
      {
        field: 'email',
        rule: 'emailExists',
        message: 'email: Die Firma hat die E-Mail-Adresse INFO@example.com bereits',
      },
    ]);
  });

  it('validates as an update with emailId; unknown ids are 404', async () => {
    const companyId = await kit.company();
    const e = await kit.add(companyId, 'email', { email: 'info@example.com' });
    const path = `${kit.path(companyId, 'email')}/validate`;
    const res = await kit.call('POST', `${path}?emailId=${e.id}`, { emailType: { id: OFFICE } });
    expect(res.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: { email: 'info@example.com', domain: 'example.com' },
    });
    expect((await kit.call('POST', `${path}?emailId=${randomUUID()}`, {})).status).toBe(404);
    expect((await kit.call('POST', path, { email: 'a@example.com' }, kit.B)).status).toBe(404);
    expect((await kit.call('POST', `${kit.path(randomUUID(), 'email')}/validate`, {})).status).toBe(
      404,
    );
  });
});

describe('GraphQL', () => {
  it('creates, updates, validates and deletes e-mail addresses', async () => {
    const companyId = await kit.company();
    const created = await kit.gql(
      `mutation($c: ID!, $i: CreateCompanyEmailInput!) { createCompanyEmail(companyId: $c, input: $i) { id email isFavorite emailType { id text } } }`,
      { c: companyId, i: { email: 'info@example.com', emailType: { id: OFFICE } } },
      kit.A,
      { 'Accept-Language': 'de' },
    );
    expect(created.body.errors).toBeUndefined();
    const e = created.body.data.createCompanyEmail;
    expect(e).toMatchObject({ isFavorite: true, emailType: { id: OFFICE, text: 'Büro' } });
    const second = await kit.add(companyId, 'email', { email: 'sales@example.com' });

    const updated = await kit.gql(
      `mutation($c: ID!, $e: ID!, $i: UpdateCompanyEmailInput!) { updateCompanyEmail(companyId: $c, emailId: $e, input: $i) { email isFavorite emailType { text } } }`,
      { c: companyId, e: second.id, i: { isFavorite: true, emailType: { id: newsletter } } },
    );
    expect(updated.body.data.updateCompanyEmail).toEqual({
      email: 'sales@example.com',
      isFavorite: true,
      emailType: { text: 'Newsletter' },
    });

    const validated = await kit.gql(
      `mutation($c: ID!, $i: UpdateCompanyEmailInput!) { validateCompanyEmail(companyId: $c, input: $i) { valid errors { field rule } calculated { email domain } } }`,
      { c: companyId, i: { email: 'Team@Example.org' } },
    );
    expect(validated.body.data.validateCompanyEmail).toEqual({
      valid: true,
      errors: [],
      calculated: { email: 'Team@Example.org', domain: 'example.org' },
    });

    const deleted = await kit.gql(
      `mutation($c: ID!, $e: ID!) { deleteCompanyEmail(companyId: $c, emailId: $e) { id newFavoriteId } }`,
      { c: companyId, e: second.id },
    );
    expect(deleted.body.data.deleteCompanyEmail).toEqual({ id: second.id, newFavoriteId: e.id });
    expect(await kit.state(companyId, 'email')).toEqual([['info@example.com', true]]);
  });

  it('answers bad input with VALIDATION_FAILED, duplicates with CONFLICT, foreign ids with NOT_FOUND', async () => {
    const companyId = await kit.company();
    const e = await kit.add(companyId, 'email', { email: 'info@example.com' });
    const create = `mutation($c: ID!, $i: CreateCompanyEmailInput!) { createCompanyEmail(companyId: $c, input: $i) { id } }`;
    const bad = await kit.gql(create, { c: companyId, i: { email: 'nope' } });
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [expect.objectContaining({ field: 'email', rule: 'isEmail' })],
    });
    const dup = await kit.gql(create, { c: companyId, i: { email: 'INFO@example.com' } });
    expect(dup.body.errors[0].extensions.code).toBe('CONFLICT');
    const foreign = await kit.gql(
      `mutation($c: ID!, $e: ID!) { updateCompanyEmail(companyId: $c, emailId: $e, input: { email: "x@example.com" }) { id } }`,
      { c: companyId, e: e.id },
      kit.B,
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const foreignDelete = await kit.gql(
      `mutation($c: ID!, $e: ID!) { deleteCompanyEmail(companyId: $c, emailId: $e) { id } }`,
      { c: companyId, e: e.id },
      kit.B,
    );
    expect(foreignDelete.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await kit.state(companyId, 'email')).toEqual([['info@example.com', true]]);
  });
});
