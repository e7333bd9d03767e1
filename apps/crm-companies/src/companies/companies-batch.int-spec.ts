import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Subjects } from '@crm/messaging';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { companyFilesPrefix } from '../files/files.storage';
import { startCrmCompanies, RunningService } from '../test/service-harness';
import { companyTestClient, errorsOf, SYS } from './test/company-test-client';

// C7, C8 (batches), C12, C13 (tags of a selection), C14 (validate): REST and GraphQL.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let t: ReturnType<typeof companyTestClient>;

beforeAll(async () => {
  svc = await startCrmCompanies('crm_companies_it_batch');
  t = companyTestClient(svc);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const read = async (id: string, tenant = A) =>
  (await t.rest(tenant, 'GET', `/companies/${id}`)).body.data;
const tagTexts = (c: { tags: { text: string }[] }) => c.tags.map((x) => x.text);

describe('C8 POST /companies/batch', () => {
  it('creates all in one go, in the order given, tags by text created once', async () => {
    const res = await t.rest(A, 'POST', '/companies/batch', [
      { name: 'First', tags: [{ text: 'Batch tag' }], lifecycle: { lifecycleId: SYS.lead } },
      { name: 'Second', website: 'https://www.second.example', tags: [{ text: 'BATCH TAG' }] },
      { name: 'Third' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.metaData.totalResults).toBe(3);
    const [first, second, third] = res.body.data;
    expect([first.name, second.name, third.name]).toEqual(['First', 'Second', 'Third']);
    expect(first.tags[0].id).toBe(second.tags[0].id);
    expect(second.websiteDomain).toBe('second.example');
    expect(first.lifecycle).toMatchObject({ lifecycleId: SYS.lead, text: 'Lead' });
    expect(await t.count('CompanyLifecycleHistory', `"companyId" = $1`, [first.id])).toBe(1);
    expect(await read(third.id)).toEqual(third);
    expect(
      await t.count('CompanySettingsEntry', `"tenantId" = $1 AND lower(text) = 'batch tag'`, [A]),
    ).toBe(1);
  });

  it('reports every invalid item by index and writes nothing', async () => {
    const before = await t.count('Company', `"tenantId" = $1`, [A]);
    const entries = await t.count('CompanySettingsEntry', `"tenantId" = $1`, [A]);
    const res = await t.rest(A, 'POST', '/companies/batch', [
      { name: 'Fine', tags: [{ text: 'Never created' }] },
      { name: '' },
      { name: 'Bad entry', legalForm: { id: SYS.lead } },
      'not an object',
      { name: 'Unknown field', emails: [] },
    ]);
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual([
      ['[1].name', 'isNotEmpty'],
      ['[3]', 'isObject'],
      ['[4].emails', 'whitelistValidation'],
      ['[2].legalForm.id', 'unknownEntry'],
    ]);
    expect(await t.count('Company', `"tenantId" = $1`, [A])).toBe(before);
    expect(await t.count('CompanySettingsEntry', `"tenantId" = $1`, [A])).toBe(entries);
  });

  it('refuses an empty list, a non-list and more than 1000 items', async () => {
    expect(errorsOf((await t.rest(A, 'POST', '/companies/batch', [])).body)).toEqual([
      ['body', 'arrayMinSize'],
    ]);
    expect(errorsOf((await t.rest(A, 'POST', '/companies/batch', { name: 'x' })).body)).toEqual([
      ['body', 'isArray'],
    ]);
    const many = Array.from({ length: 1001 }, (_, i) => ({ name: `N${i}` }));
    expect(errorsOf((await t.rest(A, 'POST', '/companies/batch', many)).body)).toEqual([
      ['body', 'arrayMaxSize'],
    ]);
  });

  it('creates 1000 in one request with a fixed number of statements, new tags included', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({
      name: `Bulk ${i}`,
      tags: [{ text: 'Bulk' }, { text: `Bulk tag ${i}` }],
    }));
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    let statements = 0;
    try {
      const res = await t.rest(A, 'POST', '/companies/batch', many);
      expect(res.status).toBe(201);
      expect(res.body.data).toHaveLength(1000);
      expect(res.body.data[999].tags.map((x: { text: string }) => x.text)).toEqual([
        'Bulk',
        'Bulk tag 999',
      ]);
      // statements on the company tables and the settings entries (the outbox relay polls too)
      statements = spy.mock.calls.filter(([q]) =>
        /"Company|"CompanySettingsEntry"/.test(
          typeof q === 'string' ? q : String((q as { text?: string })?.text),
        ),
      ).length;
    } finally {
      spy.mockRestore();
    }
    expect(statements).toBeLessThan(20);
    expect(await t.count('Company', `"tenantId" = $1 AND name LIKE 'Bulk %'`, [A])).toBe(1000);
    expect(
      await t.count('CompanySettingsEntry', `"tenantId" = $1 AND text LIKE 'Bulk tag %'`, [A]),
    ).toBe(1000);
    await t.sql(`DELETE FROM "Company" WHERE "tenantId" = $1 AND name LIKE 'Bulk %'`, [A]);
  }, 60000);
});

describe('C8 PUT /companies/batch', () => {
  it('updates all, each like C5, in one transaction', async () => {
    const one = await t.company(A, {
      name: 'One',
      vatId: 'DE1',
      lifecycle: { lifecycleId: SYS.lead },
    });
    const two = await t.company(A, { name: 'Two', website: 'two.example' });
    const res = await t.rest(A, 'PUT', '/companies/batch', [
      { id: one, vatId: null, lifecycle: { lifecycleId: SYS.customer } },
      { id: two.toUpperCase(), name: 'Two renamed', tags: [{ text: 'Renamed' }] },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([one, two]);
    expect(res.body.data[0]).toMatchObject({
      name: 'One',
      vatId: null,
      lifecycle: { lifecycleId: SYS.customer },
    });
    expect(res.body.data[1]).toMatchObject({
      name: 'Two renamed',
      websiteDomain: 'two.example',
      tags: [{ text: 'Renamed' }],
    });
    expect(await t.count('CompanyLifecycleHistory', `"companyId" = $1`, [one])).toBe(2);
  });

  it('reports invalid items by index (400) and unknown or foreign ids (404), changing nothing', async () => {
    const mine = await t.company(A, { name: 'Mine' });
    const foreign = await t.company(B, { name: 'Theirs' });
    const bad = await t.rest(A, 'PUT', '/companies/batch', [
      { id: mine, name: 'Changed' },
      { id: 'x', name: 'Bad id' },
      { id: mine, name: null },
      { name: 'No id' },
    ]);
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([
      ['[1].id', 'isUuid'],
      ['[2].name', 'isDefined'],
      ['[3].id', 'isDefined'],
      ['[2].id', 'duplicateId'],
    ]);
    const unknown = await t.rest(A, 'PUT', '/companies/batch', [
      { id: mine, name: 'Changed' },
      { id: foreign, name: 'Hijacked' },
      { id: randomUUID(), name: 'Ghost' },
    ]);
    expect(unknown.status).toBe(404);
    expect(errorsOf(unknown.body)).toEqual([
      ['[1].id', 'unknownCompany'],
      ['[2].id', 'unknownCompany'],
    ]);
    expect((await read(mine)).name).toBe('Mine');
    expect((await read(foreign, B)).name).toBe('Theirs');
  });
});

describe('C7 DELETE /companies/batch', () => {
  it('deletes all, writes one event, removes their files', async () => {
    const storage = svc.app.get<FileStorage>(FILE_STORAGE);
    const ids = [await t.company(A, { name: 'Del 1' }), await t.company(A, { name: 'Del 2' })];
    const keys = ids.map((id) => `${companyFilesPrefix(A, id)}/logo/v1/original`);
    for (const key of keys) await storage.put(key, Buffer.from('img'), 'image/png');
    const res = await t.rest(A, 'DELETE', '/companies/batch', { ids: [...ids, ids[0]] });
    expect(res.status).toBe(200);
    expect([...res.body.data.deletedIds].sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await t.rest(A, 'GET', `/companies/${id}`)).status).toBe(404);
    const events = await t.sql<{ subject: string; payload: { companyIds: string[] } }>(
      `SELECT subject, payload FROM "OutboxEvent" WHERE payload->'companyIds' ? $1`,
      [ids[0]],
    );
    expect(events).toHaveLength(1);
    expect(events[0].subject).toBe(Subjects.crmCompanies.companiesDeleted);
    expect([...events[0].payload.companyIds].sort()).toEqual([...ids].sort());
    for (const key of keys) expect(await storage.exists(key)).toBe(false);
  });

  it('deletes nothing when an id is malformed (400), unknown or foreign (404)', async () => {
    const mine = await t.company(A, { name: 'Survivor' });
    const foreign = await t.company(B, { name: 'Foreign survivor' });
    const events = await t.count('OutboxEvent');
    const malformed = await t.rest(A, 'DELETE', '/companies/batch', { ids: [mine, 'nope'] });
    expect(malformed.status).toBe(400);
    expect(errorsOf(malformed.body)).toEqual([['ids[1]', 'isUuid']]);
    const unknown = await t.rest(A, 'DELETE', '/companies/batch', {
      ids: [mine, foreign, randomUUID()],
    });
    expect(unknown.status).toBe(404);
    expect(errorsOf(unknown.body)).toEqual([
      ['ids[1]', 'unknownCompany'],
      ['ids[2]', 'unknownCompany'],
    ]);
    const de = await t.rest(
      A,
      'DELETE',
      '/companies/batch',
      { ids: [foreign] },
      { 'Accept-Language': 'de' },
    );
    expect(de.body.errors[0].message).toBe('ids[0] bezeichnet keine Firma dieses Mandanten');
    expect(errorsOf((await t.rest(A, 'DELETE', '/companies/batch', { ids: [] })).body)).toEqual([
      ['ids', 'arrayMinSize'],
    ]);
    expect((await read(mine)).name).toBe('Survivor');
    expect((await read(foreign, B)).name).toBe('Foreign survivor');
    expect(await t.count('OutboxEvent')).toBe(events);
  });
});

describe('C12 POST /companies/tags, C13 DELETE /companies/tags', () => {
  it('adds tags after the existing ones, keeps existing pairs, removes pairs', async () => {
    const [x, y, z] = [
      await t.entry(A, 'TAGS', 'X'),
      await t.entry(A, 'TAGS', 'Y'),
      await t.entry(A, 'TAGS', 'Z'),
    ];
    const c1 = await t.company(A, { name: 'Sel 1', tags: [{ id: y }] });
    const c2 = await t.company(A, { name: 'Sel 2' });
    const added = await t.rest(
      A,
      'POST',
      '/companies/tags',
      { companyIds: [c1, c2], tagIds: [x, y, z] },
      { 'X-Integration-Name': 'tagger' },
    );
    expect(added.status).toBe(200);
    expect(added.body.data.map((c: { id: string }) => c.id)).toEqual([c1, c2]);
    expect(tagTexts(added.body.data[0])).toEqual(['Y', 'X', 'Z']);
    expect(tagTexts(added.body.data[1])).toEqual(['X', 'Y', 'Z']);
    expect(added.body.data[0].modifiedBy).toBe('tagger');
    const removed = await t.rest(A, 'DELETE', '/companies/tags', {
      companyIds: [c1, c2],
      tagIds: [x],
    });
    expect(removed.status).toBe(200);
    expect(tagTexts(removed.body.data[0])).toEqual(['Y', 'Z']);
    expect(tagTexts(await read(c2))).toEqual(['Y', 'Z']);
    // removing what is not there changes no tag
    const again = await t.rest(A, 'DELETE', '/companies/tags', { companyIds: [c2], tagIds: [x] });
    expect(tagTexts(again.body.data[0])).toEqual(['Y', 'Z']);
  });

  it('refuses malformed ids and unknown tags (400), foreign companies (404), changing nothing', async () => {
    const x = await t.entry(A, 'TAGS', 'Only mine');
    const theirs = await t.entry(B, 'TAGS', 'Theirs');
    const mine = await t.company(A, { name: 'Tag target' });
    const foreign = await t.company(B, { name: 'Foreign target' });
    const malformed = await t.rest(A, 'POST', '/companies/tags', {
      companyIds: ['x'],
      tagIds: [x, 'y'],
    });
    expect(errorsOf(malformed.body)).toEqual([
      ['companyIds[0]', 'isUuid'],
      ['tagIds[1]', 'isUuid'],
    ]);
    const missing = await t.rest(A, 'POST', '/companies/tags', { companyIds: [mine] });
    expect(errorsOf(missing.body)).toEqual([['tagIds', 'isDefined']]);
    const unknownTag = await t.rest(A, 'POST', '/companies/tags', {
      companyIds: [mine],
      tagIds: [x, theirs],
    });
    expect(unknownTag.status).toBe(400);
    expect(errorsOf(unknownTag.body)).toEqual([['tagIds[1]', 'unknownEntry']]);
    const foreignCompany = await t.rest(A, 'POST', '/companies/tags', {
      companyIds: [mine, foreign],
      tagIds: [x],
    });
    expect(foreignCompany.status).toBe(404);
    expect(errorsOf(foreignCompany.body)).toEqual([['companyIds[1]', 'unknownCompany']]);
    const foreignRemove = await t.rest(A, 'DELETE', '/companies/tags', {
      companyIds: [foreign],
      tagIds: [x],
    });
    expect(foreignRemove.status).toBe(404);
    expect((await read(mine)).tags).toEqual([]);
    expect((await read(foreign, B)).tags).toEqual([]);
  });
});

describe('C14 POST /companies/validate', () => {
  it('answers 200 with every problem and the calculated domain, writing nothing', async () => {
    const before = await t.count('Company', `"tenantId" = $1`, [A]);
    const ok = await t.rest(A, 'POST', '/companies/validate', {
      name: 'Valid',
      website: 'HTTPS://WWW.Valid.Example/x',
      tags: [{ text: 'Not created' }],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: { websiteDomain: 'valid.example' },
    });
    const bad = await t.rest(
      A,
      'POST',
      '/companies/validate',
      {
        website: 'nope',
        legalForm: { id: SYS.lead },
        phones: [],
      },
      { 'Accept-Language': 'de' },
    );
    expect(bad.status).toBe(200);
    expect(bad.body.data.valid).toBe(false);
    expect(bad.body.data.errors).toEqual([
      { field: 'phones', rule: 'whitelistValidation', message: 'phones ist kein bekanntes Feld' },
      { field: 'name', rule: 'isDefined', message: 'name ist erforderlich' },
      { field: 'website', rule: 'isUrl', message: 'website muss eine URL sein' },
      {
        field: 'legalForm.id',
        rule: 'unknownEntry',
        message: expect.stringContaining('Rechtsformen'),
      },
    ]);
    expect(bad.body.data.calculated).toEqual({ websiteDomain: null });
    expect(await t.count('Company', `"tenantId" = $1`, [A])).toBe(before);
    expect(await t.count('CompanySettingsEntry', `text = 'Not created'`)).toBe(0);
  });
});

describe('GraphQL batches, tags of a selection, validate, replace tags, lifecycle', () => {
  it('runs each through the same rules as REST', async () => {
    const created = await t.gql(
      A,
      `mutation($i: [CreateCompanyInput!]!) { createCompanies(inputs: $i) { id name } }`,
      { i: [{ name: 'G1' }, { name: 'G2' }] },
    );
    expect(created.body.data.createCompanies.map((c: { name: string }) => c.name)).toEqual([
      'G1',
      'G2',
    ]);
    const [g1, g2] = created.body.data.createCompanies.map((c: { id: string }) => c.id);
    const invalid = await t.gql(
      A,
      `mutation($i: [CreateCompanyInput!]!) { createCompanies(inputs: $i) { id } }`,
      { i: [{ name: 'ok' }, { name: 'x'.repeat(201) }] },
    );
    expect(invalid.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(invalid.body.errors[0])).toContain('[1].name');

    const updated = await t.gql(
      A,
      `mutation($i: [UpdateCompanyItemInput!]!) { updateCompanies(items: $i) { name } }`,
      { i: [{ id: g1, name: 'G1 new' }] },
    );
    expect(updated.body.data.updateCompanies).toEqual([{ name: 'G1 new' }]);
    const foreign = await t.company(B, { name: 'GQL foreign' });
    const foreignUpdate = await t.gql(
      A,
      `mutation($i: [UpdateCompanyItemInput!]!) { updateCompanies(items: $i) { name } }`,
      { i: [{ id: foreign, name: 'Hijack' }] },
    );
    expect(foreignUpdate.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const tagged = await t.gql(
      A,
      `mutation($id: ID!, $t: [CompanyTagInput!]!) { replaceCompanyTags(id: $id, tags: $t) { tags { id text } } }`,
      { id: g1, t: [{ text: 'GQL tag' }] },
    );
    const tag = tagged.body.data.replaceCompanyTags.tags[0];
    expect(tag.text).toBe('GQL tag');
    const badTags = await t.gql(
      A,
      `mutation($id: ID!, $t: [CompanyTagInput!]!) { replaceCompanyTags(id: $id, tags: $t) { id } }`,
      { id: foreign, t: [] },
    );
    expect(badTags.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const add = await t.gql(
      A,
      `mutation($c: [ID!]!, $t: [ID!]!) { addCompanyTags(companyIds: $c, tagIds: $t) { id tags { text } } }`,
      { c: [g2], t: [tag.id] },
    );
    expect(add.body.data.addCompanyTags).toEqual([{ id: g2, tags: [{ text: 'GQL tag' }] }]);
    const addForeign = await t.gql(
      A,
      `mutation($c: [ID!]!, $t: [ID!]!) { addCompanyTags(companyIds: $c, tagIds: $t) { id } }`,
      { c: [foreign], t: [tag.id] },
    );
    expect(addForeign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const remove = await t.gql(
      A,
      `mutation($c: [ID!]!, $t: [ID!]!) { removeCompanyTags(companyIds: $c, tagIds: $t) { tags { text } } }`,
      { c: [g1, g2], t: [tag.id] },
    );
    expect(remove.body.data.removeCompanyTags).toEqual([{ tags: [] }, { tags: [] }]);

    const lifecycle = await t.gql(
      A,
      `mutation($id: ID!, $l: ID) { updateCompanyLifecycle(id: $id, lifecycleId: $l) { lifecycle { lifecycleId text } } }`,
      { id: g1, l: SYS.prospect },
    );
    expect(lifecycle.body.data.updateCompanyLifecycle.lifecycle).toEqual({
      lifecycleId: SYS.prospect,
      text: 'Prospect',
    });
    const unknownLifecycle = await t.gql(
      A,
      `mutation($id: ID!, $l: ID) { updateCompanyLifecycle(id: $id, lifecycleId: $l) { id } }`,
      { id: g1, l: SYS.upTo9 },
    );
    expect(unknownLifecycle.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const cleared = await t.gql(
      A,
      `mutation($id: ID!) { updateCompanyLifecycle(id: $id) { lifecycle { text } } }`,
      { id: g1 },
    );
    expect(cleared.body.data.updateCompanyLifecycle.lifecycle).toBeNull();

    const validation = await t.gql(
      A,
      `mutation($i: UpdateCompanyInput!) { validateCompany(input: $i) { valid errors { field rule message } calculated { websiteDomain } } }`,
      { i: { website: 'www.Shop.example' } },
    );
    expect(validation.body.data.validateCompany).toEqual({
      valid: false,
      errors: [{ field: 'name', rule: 'isDefined', message: 'name is required' }],
      calculated: { websiteDomain: 'shop.example' },
    });

    const deleted = await t.gql(
      A,
      `mutation($ids: [ID!]!) { deleteCompanies(ids: $ids) { deletedIds } }`,
      {
        ids: [g1, g2],
      },
    );
    expect([...deleted.body.data.deleteCompanies.deletedIds].sort()).toEqual([g1, g2].sort());
    const deleteForeign = await t.gql(
      A,
      `mutation($ids: [ID!]!) { deleteCompanies(ids: $ids) { deletedIds } }`,
      {
        ids: [foreign],
      },
    );
    expect(deleteForeign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await read(foreign, B)).name).toBe('GQL foreign');
  });
});
