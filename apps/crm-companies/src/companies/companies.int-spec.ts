import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { AppException } from '@crm/errors';
import { CompanyExistsReply, MessageBus, Subjects } from '@crm/messaging';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { companyFilesPrefix } from '../files/files.storage';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { startCrmCompanies, RunningService } from '../test/service-harness';
import { CompaniesRepository } from './companies.repository';
import { companyTestClient, errorsOf, SYS } from './test/company-test-client';

// C2, C4-C6, C9-C11 over REST and GraphQL, the federation reference and the NATS request, on a
// real database and NATS.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let t: ReturnType<typeof companyTestClient>;

beforeAll(async () => {
  svc = await startCrmCompanies('crm_companies_it_companies');
  t = companyTestClient(svc);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const read = async (id: string, tenant = A) =>
  (await t.rest(tenant, 'GET', `/companies/${id}`)).body.data;

describe('C4 POST /companies', () => {
  it('creates a company with every field and answers 201 in the envelope', async () => {
    const callerId = randomUUID();
    const vip = await t.entry(A, 'TAGS', 'VIP', '#FF0000');
    const { status, body } = await t.rest(
      A,
      'POST',
      '/companies',
      {
        name: '  ACME GmbH  ',
        nameAddition: 'Berlin branch',
        website: 'https://www.ACME.example/about',
        customerNumber: 'K-1',
        vatId: 'DE123456789',
        taxNumber: '12/345/67890',
        foundingDate: '1998-09-04',
        legalForm: { id: SYS.limitedCompany },
        industrySector: null,
        employeeCount: { id: SYS.upTo9 },
        customerCount: { id: SYS.upTo10 },
        referenceNumbers: [{ type: { id: SYS.commercialRegister }, number: 'HRB 12345' }],
        socialMedias: [{ type: 'linkedin', link: 'https://www.linkedin.com/company/acme' }],
        lifecycle: { lifecycleId: SYS.prospect },
        tags: [{ id: vip }, { text: 'Partner' }, { text: 'vip' }],
      },
      { 'X-Caller-Id': callerId },
    );
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'metaData', 'statusCode']);
    expect(body.statusCode).toBe(201);
    const c = body.data;
    expect(c).toMatchObject({
      name: 'ACME GmbH',
      nameAddition: 'Berlin branch',
      website: 'https://www.ACME.example/about',
      websiteDomain: 'acme.example',
      customerNumber: 'K-1',
      vatId: 'DE123456789',
      taxNumber: '12/345/67890',
      foundingDate: '1998-09-04',
      legalForm: { id: SYS.limitedCompany, text: expect.stringMatching(/limited/i) },
      industrySector: null,
      employeeCount: { id: SYS.upTo9, text: '1-9' },
      customerCount: { id: SYS.upTo10, text: expect.any(String) },
      referenceNumbers: [
        { type: { id: SYS.commercialRegister, text: expect.any(String) }, number: 'HRB 12345' },
      ],
      socialMedias: [{ type: 'linkedin', link: 'https://www.linkedin.com/company/acme' }],
      lifecycle: { lifecycleId: SYS.prospect, text: 'Prospect', color: '#2196F3' },
      // "vip" names the existing VIP entry (any case): listed once
      tags: [
        { id: vip, text: 'VIP', color: '#FF0000' },
        { id: expect.any(String), text: 'Partner', color: null },
      ],
      note: null,
      addresses: [],
      phones: [],
      emails: [],
      logo: null,
      createdBy: 'test-suite',
      modifiedBy: 'test-suite',
      createdByUserId: callerId,
      modifiedByUserId: callerId,
    });
    expect(c.lifecycle.dateChanged).toMatch(/Z$/);
    expect(c.dateCreated).toMatch(/Z$/);
    const history = await t.sql(
      `SELECT "lifecycleId"::text AS id FROM "CompanyLifecycleHistory" WHERE "companyId" = $1`,
      [c.id],
    );
    expect(history).toEqual([{ id: SYS.prospect }]);
    // the created tag is an entry of the tenant's tags list
    expect(await t.count('CompanySettingsEntry', `"tenantId" = $1 AND text = 'Partner'`, [A])).toBe(
      1,
    );
  });

  it('answers the create with exactly what a later read returns', async () => {
    const created = await t.rest(A, 'POST', '/companies', {
      name: 'Same Twice',
      website: 'same.example',
      tags: [{ text: 'Brand new' }],
      lifecycle: { lifecycleId: SYS.lead },
    });
    expect(created.status).toBe(201);
    const again = await t.rest(A, 'GET', `/companies/${created.body.data.id}`);
    expect(again.body.data).toEqual(created.body.data);
    expect(again.body.data.websiteDomain).toBe('same.example');
  });

  it('refuses bad input naming field and rule, and writes nothing', async () => {
    const before = await t.count('Company', `"tenantId" = $1`, [A]);
    const cases: [Record<string, unknown>, string[][]][] = [
      [{}, [['name', 'isDefined']]],
      [{ name: '   ' }, [['name', 'isNotEmpty']]],
      [{ name: 'x'.repeat(201) }, [['name', 'maxLength']]],
      [{ name: 'X', website: 'ftp://files.example' }, [['website', 'isUrl']]],
      [{ name: 'X', website: 'not a url' }, [['website', 'isUrl']]],
      [{ name: 'X', foundingDate: '2020-13-01' }, [['foundingDate', 'isDateString']]],
      [{ name: 'X', foundingDate: '2020-01-01T00:00:00Z' }, [['foundingDate', 'matches']]],
      [{ name: 'X', legalForm: { id: 'nope' } }, [['legalForm.id', 'isUuid']]],
      [{ name: 'X', legalForm: { id: SYS.upTo9 } }, [['legalForm.id', 'unknownEntry']]],
      [
        { name: 'X', lifecycle: { lifecycleId: randomUUID() } },
        [['lifecycle.lifecycleId', 'unknownEntry']],
      ],
      [
        { name: 'X', referenceNumbers: [{ type: { id: SYS.duns }, number: '' }] },
        [['referenceNumbers[0].number', 'isNotEmpty']],
      ],
      [
        { name: 'X', referenceNumbers: [{ type: { id: SYS.upTo9 }, number: '1' }] },
        [['referenceNumbers[0].type.id', 'unknownEntry']],
      ],
      [
        { name: 'X', socialMedias: [{ type: 'x', link: 'javascript:alert(1)' }] },
        [['socialMedias[0].link', 'isUrl']],
      ],
      [{ name: 'X', tags: [{ id: randomUUID() }] }, [['tags[0].id', 'unknownEntry']]],
      [{ name: 'X', tags: [{ text: '' }] }, [['tags[0].text', 'isNotEmpty']]],
      // contact data and logo have their own routes; read-only fields are not input
      [{ name: 'X', emails: [] }, [['emails', 'whitelistValidation']]],
      [{ name: 'X', logo: null }, [['logo', 'whitelistValidation']]],
      [{ name: 'X', websiteDomain: 'x.example' }, [['websiteDomain', 'whitelistValidation']]],
    ];
    for (const [body, expected] of cases) {
      const res = await t.rest(A, 'POST', '/companies', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect({ body, errors: errorsOf(res.body) }).toEqual({ body, errors: expected });
      expect(res.body.data).toBeNull();
    }
    expect(await t.count('Company', `"tenantId" = $1`, [A])).toBe(before);
  });

  it("refuses the tenant's entry of another list, and another tenant's entry, in one check", async () => {
    const lifecycle = await t.entry(A, 'LIFECYCLES', `Partner ${randomUUID()}`);
    const sector = await t.entry(A, 'INDUSTRY_SECTORS', `Sector ${randomUUID()}`);
    const foreign = await t.entry(B, 'LEGAL_FORMS', `Form ${randomUUID()}`);
    const res = await t.rest(A, 'POST', '/companies', {
      name: 'Mixed up',
      legalForm: { id: foreign },
      industrySector: { id: lifecycle },
      lifecycle: { lifecycleId: sector },
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual(
      expect.arrayContaining([
        ['legalForm.id', 'unknownEntry'],
        ['industrySector.id', 'unknownEntry'],
        ['lifecycle.lifecycleId', 'unknownEntry'],
      ]),
    );
    const ok = await t.rest(A, 'POST', '/companies', {
      name: 'Right lists',
      industrySector: { id: sector },
      lifecycle: { lifecycleId: lifecycle },
    });
    expect(ok.status).toBe(201);
  });

  it('translates errors and system entry texts by Accept-Language', async () => {
    const de = { 'Accept-Language': 'de-DE,de;q=0.9' };
    const bad = await t.rest(A, 'POST', '/companies', { name: '' }, de);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'name', rule: 'isNotEmpty', message: 'name darf nicht leer sein' },
    ]);
    const entry = await t.rest(
      A,
      'POST',
      '/companies',
      { name: 'X', legalForm: { id: SYS.upTo9 } },
      de,
    );
    expect(entry.body.errors).toEqual([
      {
        field: 'legalForm.id',
        rule: 'unknownEntry',
        message: 'legalForm.id bezeichnet keinen Eintrag der Liste Rechtsformen',
      },
    ]);
    const id = await t.company(A, { name: 'Deutsch AG', lifecycle: { lifecycleId: SYS.customer } });
    const read = await t.rest(A, 'GET', `/companies/${id}`, undefined, de);
    expect(read.body.data.lifecycle.text).toBe('Kunde');
  });
});

describe('C2 GET /companies/{id}', () => {
  it('reads contact data in position order, e-mail types translated, and the logo link', async () => {
    const id = await t.company(A, { name: 'Contacts Ltd' });
    await t.email(A, id, 'second@contacts.example', { position: 1 });
    await t.email(A, id, 'first@contacts.example', {
      position: 0,
      emailTypeId: SYS.emailOffice,
      isFavorite: true,
    });
    await t.sql(
      `INSERT INTO "CompanyPhone" (id, "tenantId", "companyId", number, position, "dateModified")
       VALUES (gen_random_uuid(), $1, $2, '+4930123', 0, now())`,
      [A, id],
    );
    await t.sql(
      `INSERT INTO "CompanyAddress" (id, "tenantId", "companyId", city, position, "dateModified")
       VALUES (gen_random_uuid(), $1, $2, 'Berlin', 0, now())`,
      [A, id],
    );
    const logoAt = new Date('2026-01-02T03:04:05.000Z');
    await t.sql(`UPDATE "Company" SET logo = 'some/key', "logoDateModified" = $2 WHERE id = $1`, [
      id,
      logoAt,
    ]);
    const { status, body } = await t.rest(A, 'GET', `/companies/${id}`);
    expect(status).toBe(200);
    expect(body.data.emails).toEqual([
      {
        id: expect.any(String),
        email: 'first@contacts.example',
        emailType: { id: SYS.emailOffice, text: expect.any(String) },
        isFavorite: true,
      },
      {
        id: expect.any(String),
        email: 'second@contacts.example',
        emailType: null,
        isFavorite: false,
      },
    ]);
    expect(body.data.phones).toEqual([
      {
        id: expect.any(String),
        type: 'office',
        number: '+4930123',
        label: null,
        isFavorite: false,
      },
    ]);
    expect(body.data.addresses[0]).toMatchObject({ city: 'Berlin', isFavorite: false });
    expect(body.data.logo).toEqual({
      url: `/v1/crm/companies/${id}/logo`,
      dateModified: logoAt.toISOString(),
    });
  });

  it('answers 404 for unknown, foreign and malformed ids', async () => {
    const foreign = await t.company(B, { name: 'Foreign' });
    for (const id of [randomUUID(), foreign, 'not-a-uuid']) {
      const res = await t.rest(A, 'GET', `/companies/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.data).toBeNull();
      expect(res.body.message).toContain(id);
    }
    const de = await t.rest(A, 'GET', `/companies/${foreign}`, undefined, {
      'Accept-Language': 'de',
    });
    expect(de.body.message).toContain('Firma');
  });
});

describe('C5 PUT /companies/{id}', () => {
  it('changes what is given, keeps what is absent, clears what is null', async () => {
    const tag = await t.entry(A, 'TAGS', 'Keep me');
    const id = await t.company(A, {
      name: 'Before',
      nameAddition: 'Addition',
      website: 'before.example',
      vatId: 'DE1',
      legalForm: { id: SYS.limitedCompany },
      socialMedias: [{ type: 'x', link: 'https://x.example/before' }],
      tags: [{ id: tag }],
      lifecycle: { lifecycleId: SYS.lead },
    });
    const before = await read(id);
    const res = await t.rest(
      A,
      'PUT',
      `/companies/${id}`,
      {
        name: 'After',
        website: 'http://WWW.After.example:8080/x',
        vatId: null,
        legalForm: null,
        socialMedias: [],
        lifecycle: { lifecycleId: SYS.customer },
      },
      { 'X-Integration-Name': 'updater' },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'After',
      nameAddition: 'Addition',
      website: 'http://WWW.After.example:8080/x',
      websiteDomain: 'after.example',
      vatId: null,
      legalForm: null,
      socialMedias: [],
      tags: [{ id: tag, text: 'Keep me' }],
      lifecycle: { lifecycleId: SYS.customer, text: 'Customer' },
      createdBy: 'test-suite',
      modifiedBy: 'updater',
      dateCreated: before.dateCreated,
    });
    expect(new Date(res.body.data.dateModified) > new Date(before.dateModified)).toBe(true);
    expect(res.body.data).toEqual(await read(id));
    const history = await t.sql<{ id: string }>(
      `SELECT "lifecycleId"::text AS id FROM "CompanyLifecycleHistory" WHERE "companyId" = $1 ORDER BY "dateChanged"`,
      [id],
    );
    expect(history.map((h) => h.id)).toEqual([SYS.lead, SYS.customer]);
  });

  it('refuses a null name and bad fields with 400, changing nothing', async () => {
    const id = await t.company(A, { name: 'Stays' });
    const before = await read(id);
    const res = await t.rest(A, 'PUT', `/companies/${id}`, {
      name: null,
      website: 'nope',
      phones: [],
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual([
      ['phones', 'whitelistValidation'],
      ['name', 'isDefined'],
      ['website', 'isUrl'],
    ]);
    expect(await read(id)).toEqual(before);
  });

  it('answers 404 for unknown and foreign ids and changes nothing', async () => {
    const foreign = await t.company(B, { name: 'Foreign keeps' });
    for (const id of [randomUUID(), foreign, 'x']) {
      const res = await t.rest(A, 'PUT', `/companies/${id}`, { name: 'Hijacked' });
      expect(res.status).toBe(404);
    }
    expect((await read(foreign, B)).name).toBe('Foreign keeps');
  });
});

describe('C9 PUT /companies/{id}/notes', () => {
  it('writes, updates and clears the note, recording who', async () => {
    const id = await t.company(A, { name: 'Noted' });
    const first = await t.rest(A, 'PUT', `/companies/${id}/notes`, { note: 'First' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      note: 'First',
      createdBy: 'test-suite',
      modifiedBy: 'test-suite',
    });
    const second = await t.rest(
      A,
      'PUT',
      `/companies/${id}/notes`,
      { note: 'Second' },
      { 'X-Integration-Name': 'other' },
    );
    expect(second.body.data).toMatchObject({
      note: 'Second',
      createdBy: 'test-suite',
      modifiedBy: 'other',
    });
    expect((await read(id)).note).toEqual(second.body.data);
    const cleared = await t.rest(A, 'PUT', `/companies/${id}/notes`, { note: null });
    expect(cleared.body.data.note).toBeNull();
  });

  it('refuses a missing or too long note (400) and foreign ids (404)', async () => {
    const id = await t.company(A, { name: 'Noted too' });
    expect(errorsOf((await t.rest(A, 'PUT', `/companies/${id}/notes`, {})).body)).toEqual([
      ['note', 'isDefined'],
    ]);
    const long = await t.rest(A, 'PUT', `/companies/${id}/notes`, { note: 'x'.repeat(10001) });
    expect(errorsOf(long.body)).toEqual([['note', 'maxLength']]);
    expect(
      await t.rest(A, 'PUT', `/companies/${id}/notes`, { note: 'x'.repeat(10000) }),
    ).toMatchObject({ status: 200 });
    const foreign = await t.company(B, { name: 'Foreign note' });
    expect((await t.rest(A, 'PUT', `/companies/${foreign}/notes`, { note: 'x' })).status).toBe(404);
    expect(await t.count('CompanyNote', `"companyId" = $1`, [foreign])).toBe(0);
  });
});

describe('C10 PUT /companies/{id}/tags', () => {
  it('replaces the list by ids and texts in the order given; [] clears', async () => {
    const a = await t.entry(A, 'TAGS', 'Alpha');
    const id = await t.company(A, { name: 'Tagged', tags: [{ id: a }] });
    const res = await t.rest(A, 'PUT', `/companies/${id}/tags`, [
      { text: 'Beta' },
      { text: 'ALPHA' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.tags.map((x: { text: string }) => x.text)).toEqual(['Beta', 'Alpha']);
    expect(res.body.data.tags[1].id).toBe(a);
    const cleared = await t.rest(A, 'PUT', `/companies/${id}/tags`, []);
    expect(cleared.body.data.tags).toEqual([]);
  });

  it('names bad items by index (400), foreign ids are 404, nothing changes', async () => {
    const a = await t.entry(A, 'TAGS', 'Stay');
    const foreignTag = await t.entry(B, 'TAGS', 'Theirs');
    const id = await t.company(A, { name: 'Tag checks', tags: [{ id: a }] });
    const bad = await t.rest(A, 'PUT', `/companies/${id}/tags`, [
      { id: foreignTag },
      { text: '' },
      { id: 'x' },
    ]);
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([
      ['[1].text', 'isNotEmpty'],
      ['[2].id', 'isUuid'],
      ['[0].id', 'unknownEntry'],
    ]);
    expect(errorsOf((await t.rest(A, 'PUT', `/companies/${id}/tags`, { id: a })).body)).toEqual([
      ['body', 'isArray'],
    ]);
    const foreign = await t.company(B, { name: 'Their company' });
    expect((await t.rest(A, 'PUT', `/companies/${foreign}/tags`, [{ id: a }])).status).toBe(404);
    expect((await read(id)).tags.map((x: { id: string }) => x.id)).toEqual([a]);
    expect((await read(foreign, B)).tags).toEqual([]);
  });
});

describe('C11 PUT /companies/{id}/lifecycle', () => {
  it('records each change once; the same lifecycle again writes nothing; null clears', async () => {
    const id = await t.company(A, { name: 'Cycling' });
    const first = await t.rest(A, 'PUT', `/companies/${id}/lifecycle`, { lifecycleId: SYS.lead });
    expect(first.status).toBe(200);
    expect(first.body.data.lifecycle).toMatchObject({ lifecycleId: SYS.lead, text: 'Lead' });
    const same = await t.rest(A, 'PUT', `/companies/${id}/lifecycle`, { lifecycleId: SYS.lead });
    // nothing written: not even dateModified moves
    expect(same.body.data).toEqual(first.body.data);
    await t.rest(A, 'PUT', `/companies/${id}/lifecycle`, { lifecycleId: SYS.customer });
    const cleared = await t.rest(A, 'PUT', `/companies/${id}/lifecycle`, { lifecycleId: null });
    expect(cleared.body.data.lifecycle).toBeNull();
    expect(await t.count('CompanyLifecycleHistory', `"companyId" = $1`, [id])).toBe(2);
  });

  it('refuses unknown entries (400) and foreign companies (404)', async () => {
    const id = await t.company(A, { name: 'Cycle checks' });
    const unknown = await t.rest(A, 'PUT', `/companies/${id}/lifecycle`, {
      lifecycleId: SYS.upTo9,
    });
    expect(errorsOf(unknown.body)).toEqual([['lifecycleId', 'unknownEntry']]);
    expect(errorsOf((await t.rest(A, 'PUT', `/companies/${id}/lifecycle`, {})).body)).toEqual([
      ['lifecycleId', 'isDefined'],
    ]);
    const foreign = await t.company(B, { name: 'Foreign cycle' });
    expect(
      (await t.rest(A, 'PUT', `/companies/${foreign}/lifecycle`, { lifecycleId: SYS.lead })).status,
    ).toBe(404);
    expect((await read(foreign, B)).lifecycle).toBeNull();
  });
});

describe('C6 DELETE /companies/{id}', () => {
  it('deletes with children, writes the outbox event and removes the stored files', async () => {
    const storage = svc.app.get<FileStorage>(FILE_STORAGE);
    const id = await t.company(A, { name: 'Doomed', tags: [{ text: 'Doomed tag' }] });
    await t.rest(A, 'PUT', `/companies/${id}/notes`, { note: 'bye' });
    await t.email(A, id, 'x@doomed.example');
    const key = `${companyFilesPrefix(A, id)}/documents/${randomUUID()}`;
    await storage.put(key, Buffer.from('bytes'), 'text/plain');
    const neighbour = await t.company(A, { name: 'Neighbour' });
    const otherKey = `${companyFilesPrefix(A, neighbour)}/documents/${randomUUID()}`;
    await storage.put(otherKey, Buffer.from('keep'), 'text/plain');

    const res = await t.rest(A, 'DELETE', `/companies/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deletedIds: [id] });
    expect((await t.rest(A, 'GET', `/companies/${id}`)).status).toBe(404);
    for (const table of ['CompanyNote', 'CompanyTag', 'CompanyEmail', 'CompanyLifecycleHistory']) {
      expect(await t.count(table, `"companyId" = $1`, [id])).toBe(0);
    }
    const events = await t.sql(
      `SELECT "tenantId", subject, payload FROM "OutboxEvent" WHERE payload->'companyIds' ? $1`,
      [id],
    );
    expect(events).toEqual([
      {
        tenantId: A,
        subject: Subjects.crmCompanies.companiesDeleted,
        payload: { tenantId: A, companyIds: [id] },
      },
    ]);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.exists(otherKey)).toBe(true);
  });

  it('answers 404 for unknown and foreign ids, deleting nothing and writing no event', async () => {
    const foreign = await t.company(B, { name: 'Foreign survivor' });
    const events = await t.count('OutboxEvent');
    for (const id of [randomUUID(), foreign, 'bad']) {
      expect((await t.rest(A, 'DELETE', `/companies/${id}`)).status).toBe(404);
    }
    expect((await read(foreign, B)).name).toBe('Foreign survivor');
    expect(await t.count('OutboxEvent')).toBe(events);
  });
});

describe('GraphQL: company, createCompany, updateCompany, deleteCompany, updateCompanyNote', () => {
  const FIELDS = `id name website websiteDomain legalForm { id text } lifecycle { lifecycleId text }
    tags { id text } note { note } emails { email } logo { url }`;

  it('runs each through the same rules as REST', async () => {
    const created = await t.gql(
      A,
      `mutation($i: CreateCompanyInput!) { createCompany(input: $i) { ${FIELDS} } }`,
      {
        i: {
          name: ' Graph AG ',
          website: 'graph.example',
          legalForm: { id: SYS.stockCorporation },
          tags: [{ text: 'GQL' }],
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const c = created.body.data.createCompany;
    expect(c).toMatchObject({
      name: 'Graph AG',
      websiteDomain: 'graph.example',
      legalForm: { id: SYS.stockCorporation, text: 'Stock corporation' },
      tags: [{ text: 'GQL' }],
      note: null,
      emails: [],
      logo: null,
    });
    const one = await t.gql(A, `query($id: ID!) { company(id: $id) { ${FIELDS} } }`, { id: c.id });
    expect(one.body.data.company).toEqual(c);
    // unknown and foreign ids are null, not errors
    const foreign = await t.company(B, { name: 'Not yours' });
    for (const id of [randomUUID(), foreign, 'x']) {
      const none = await t.gql(A, `query($id: ID!) { company(id: $id) { id } }`, { id });
      expect(none.body).toEqual({ data: { company: null } });
    }

    const updated = await t.gql(
      A,
      `mutation($id: ID!, $i: UpdateCompanyInput!) { updateCompany(id: $id, input: $i) { ${FIELDS} } }`,
      { id: c.id, i: { website: null, lifecycle: { lifecycleId: SYS.lead } } },
    );
    expect(updated.body.data.updateCompany).toMatchObject({
      name: 'Graph AG',
      website: null,
      websiteDomain: null,
      lifecycle: { lifecycleId: SYS.lead, text: 'Lead' },
    });
    const bad = await t.gql(
      A,
      `mutation($id: ID!, $i: UpdateCompanyInput!) { updateCompany(id: $id, input: $i) { id } }`,
      { id: c.id, i: { name: '' } },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(JSON.stringify(bad.body.errors[0])).toContain('isNotEmpty');
    const foreignUpdate = await t.gql(
      A,
      `mutation($id: ID!, $i: UpdateCompanyInput!) { updateCompany(id: $id, input: $i) { id } }`,
      { id: foreign, i: { name: 'Mine' } },
    );
    expect(foreignUpdate.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const note = await t.gql(
      A,
      `mutation($id: ID!) { updateCompanyNote(id: $id, note: "Hello") { note modifiedBy } }`,
      { id: c.id },
    );
    expect(note.body.data.updateCompanyNote).toEqual({ note: 'Hello', modifiedBy: 'test-suite' });
    const long = await t.gql(
      A,
      `mutation($id: ID!, $n: String) { updateCompanyNote(id: $id, note: $n) { note } }`,
      { id: c.id, n: 'x'.repeat(10001) },
    );
    expect(long.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const cleared = await t.gql(A, `mutation($id: ID!) { updateCompanyNote(id: $id) { note } }`, {
      id: c.id,
    });
    expect(cleared.body.data.updateCompanyNote.note).toBeNull();

    const deleted = await t.gql(A, `mutation($id: ID!) { deleteCompany(id: $id) }`, { id: c.id });
    expect(deleted.body.data.deleteCompany).toBe(true);
    const again = await t.gql(A, `mutation($id: ID!) { deleteCompany(id: $id) }`, { id: c.id });
    expect(again.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const foreignDelete = await t.gql(A, `mutation($id: ID!) { deleteCompany(id: $id) }`, {
      id: foreign,
    });
    expect(foreignDelete.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await read(foreign, B)).name).toBe('Not yours');
  });

  it('resolves all _entities references of a request with one SQL query', async () => {
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const id = await t.company(A, { name, lifecycle: { lifecycleId: SYS.customer } });
      await t.email(A, id, `${name.toLowerCase()}@entities.example`, {
        emailTypeId: SYS.emailOffice,
      });
      ids.push(id);
    }
    const foreign = await t.company(B, { name: 'Foreign entity' });
    const repo = svc.app.get(CompaniesRepository);
    const loads = jest.spyOn(repo, 'findByIds');
    const lookups = jest.spyOn(svc.app.get(SettingsLookupService), 'anyEntries');
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    // statements naming the Company table (other modules, e.g. the outbox relay, poll meanwhile)
    const companyQueries = () =>
      spy.mock.calls.filter(([q]) =>
        /"Company"/.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
      ).length;
    try {
      const reps = [...ids, randomUUID(), foreign].map((id) => ({ __typename: 'Company', id }));
      const res = await t.gql(
        A,
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { id name lifecycle { text } emails { email emailType { text } } } } }`,
        { r: reps },
      );
      expect(res.body.errors).toBeUndefined();
      const names = res.body.data._entities.map((e: { name: string } | null) => e?.name ?? null);
      expect(names).toEqual(['One', 'Two', 'Three', null, null]);
      expect(res.body.data._entities[0].emails[0].emailType.text).toEqual(expect.any(String));
      expect(loads).toHaveBeenCalledTimes(1);
      expect(lookups).toHaveBeenCalledTimes(1);
      expect(companyQueries()).toBe(1);
    } finally {
      spy.mockRestore();
      loads.mockRestore();
      lookups.mockRestore();
    }
  });
});

describe('NATS companyExists', () => {
  it('answers for the tenant of the payload only', async () => {
    const bus = svc.app.get(MessageBus);
    const id = await t.company(A, { name: 'Asked about' });
    const ask = (tenantId: string, companyId: string) =>
      bus.request<CompanyExistsReply>(Subjects.crmCompanies.companyExists, { tenantId, companyId });
    expect(await ask(A, id)).toEqual({ exists: true, name: 'Asked about' });
    expect(await ask(A, id.toUpperCase())).toEqual({ exists: true, name: 'Asked about' });
    expect(await ask(B, id)).toEqual({ exists: false });
    expect(await ask(A, randomUUID())).toEqual({ exists: false });
    const invalid = ask(A, 'not-a-uuid');
    await expect(invalid).rejects.toBeInstanceOf(AppException);
    await expect(invalid).rejects.toMatchObject({
      status: 400,
      problems: [expect.objectContaining({ field: 'companyId', rule: 'isUuid' })],
    });
  });
});
