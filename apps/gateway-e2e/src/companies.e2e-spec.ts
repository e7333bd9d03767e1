import { randomUUID } from 'node:crypto';
import { Client as Pg } from 'pg';
import { Client, startClient, TestTenant } from './client';

// C1-C14 (companies) through the gateway, REST and GraphQL: one success and the main failure per
// row, and another tenant's ids answering 404 (or null) on every route with nothing changed.

jest.setTimeout(60000);

const sys = (n: number) => `00000000-0000-4000-b000-${String(n).padStart(12, '0')}`;
const LEAD = sys(101);
const CUSTOMER = sys(103);
const UP_TO_9 = sys(201);

let client: Client;
let a: TestTenant;
let b: TestTenant;
let pg: Pg;

beforeAll(async () => {
  client = await startClient('companies');
  a = await client.tenant();
  b = await client.tenant();
  pg = new Pg({ connectionString: client.stack.processes.get('crm-companies')!.env.DATABASE_URL });
  await pg.connect();
}, 120000);
afterAll(async () => {
  await pg?.end();
  await client?.stack.shutdown();
}, 30000);

const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);

async function create(t: TestTenant, body: Record<string, unknown>): Promise<string> {
  const res = await client.rest(t, 'POST', '/companies', body);
  if (res.status !== 201) throw new Error(`create company: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** The stored company row (with its tags and note) as a snapshot for "nothing changed". */
async function snapshot(id: string) {
  const company = await pg.query(`SELECT * FROM "Company" WHERE id = $1`, [id]);
  const tags = await pg.query(
    `SELECT "entryId", position FROM "CompanyTag" WHERE "companyId" = $1 ORDER BY position`,
    [id],
  );
  const note = await pg.query(`SELECT note FROM "CompanyNote" WHERE "companyId" = $1`, [id]);
  return { company: company.rows, tags: tags.rows, note: note.rows };
}

describe('REST', () => {
  it('C4 creates (201, envelope, caller), C2 reads it back, C14 validates', async () => {
    const res = await client.rest(a, 'POST', '/companies', {
      name: 'Gateway GmbH',
      website: 'https://www.Gateway.example/',
      employeeCount: { id: UP_TO_9 },
      lifecycle: { lifecycleId: LEAD },
      tags: [{ text: 'E2E' }],
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'metaData', 'statusCode']);
    expect(res.body.data).toMatchObject({
      name: 'Gateway GmbH',
      websiteDomain: 'gateway.example',
      employeeCount: { id: UP_TO_9, text: '1-9' },
      lifecycle: { lifecycleId: LEAD, text: 'Lead' },
      tags: [{ text: 'E2E' }],
      emails: [],
      logo: null,
      createdBy: 'test-suite',
      createdByUserId: a.keyId,
    });
    const read = await client.rest(a, 'GET', `/companies/${res.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(res.body.data);

    const bad = await client.rest(
      a,
      'POST',
      '/companies',
      { name: '', emails: [] },
      { 'Accept-Language': 'de' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'emails', rule: 'whitelistValidation', message: 'emails ist kein bekanntes Feld' },
      { field: 'name', rule: 'isNotEmpty', message: 'name darf nicht leer sein' },
    ]);

    const valid = await client.rest(a, 'POST', '/companies/validate', {
      name: 'V',
      website: 'v.example',
    });
    expect(valid.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: { websiteDomain: 'v.example' },
    });
    const invalid = await client.rest(a, 'POST', '/companies/validate', {
      legalForm: { id: LEAD },
    });
    expect(invalid.status).toBe(200);
    expect(invalid.body.data.errors.map((e: { field: string }) => e.field)).toEqual([
      'name',
      'legalForm.id',
    ]);
  });

  it('C1 lists with paging, sort, q and filters; C3 finds by domain', async () => {
    const t = await client.tenant();
    const tagged = await create(t, {
      name: 'Zulu Trading',
      customerNumber: 'Z-1',
      tags: [{ text: 'Key' }],
      lifecycle: { lifecycleId: CUSTOMER },
    });
    await create(t, { name: 'Alpha Systems', website: 'alpha.example' });
    await create(t, { name: 'Mike Media', website: 'https://www.mike.example' });
    const page = await client.rest(t, 'GET', '/companies?pageSize=2&sort=-name');
    expect(page.status).toBe(200);
    expect(page.body.data.map((c: { name: string }) => c.name)).toEqual([
      'Zulu Trading',
      'Mike Media',
    ]);
    expect(page.body.metaData.totalResults).toBe(3);
    expect(
      (await client.rest(t, 'GET', '/companies?q=ALPHA')).body.data.map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(['Alpha Systems']);
    const tagId = (await client.rest(t, 'GET', `/companies/${tagged}`)).body.data.tags[0].id;
    const filtered = await client.rest(
      t,
      'GET',
      `/companies?tagId=${tagId}&lifecycleId=${CUSTOMER}`,
    );
    expect(filtered.body.data.map((c: { id: string }) => c.id)).toEqual([tagged]);
    const badSort = await client.rest(t, 'GET', '/companies?sort=secret');
    expect(badSort.status).toBe(400);
    expect(errorsOf(badSort.body)).toEqual([['sort', 'unknownSortField']]);

    const byDomain = await client.rest(
      t,
      'GET',
      `/companies/by-domain/${encodeURIComponent('info@www.MIKE.example')}`,
    );
    expect(byDomain.status).toBe(200);
    expect(byDomain.body.data.name).toBe('Mike Media');
    expect((await client.rest(t, 'GET', '/companies/by-domain/nobody.example')).status).toBe(404);
  });

  it('C5 updates (absent stays, null clears), C9 note, C10 tags, C11 lifecycle', async () => {
    const id = await create(a, { name: 'Before', vatId: 'DE1', nameAddition: 'Stays' });
    const updated = await client.rest(a, 'PUT', `/companies/${id}`, { name: 'After', vatId: null });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'After', vatId: null, nameAddition: 'Stays' });
    expect(
      errorsOf((await client.rest(a, 'PUT', `/companies/${id}`, { name: null })).body),
    ).toEqual([['name', 'isDefined']]);

    const note = await client.rest(a, 'PUT', `/companies/${id}/notes`, { note: 'Call back' });
    expect(note.status).toBe(200);
    expect(note.body.data).toMatchObject({ note: 'Call back', createdBy: 'test-suite' });
    expect(
      errorsOf(
        (await client.rest(a, 'PUT', `/companies/${id}/notes`, { note: 'x'.repeat(10001) })).body,
      ),
    ).toEqual([['note', 'maxLength']]);

    const tags = await client.rest(a, 'PUT', `/companies/${id}/tags`, [
      { text: 'One' },
      { text: 'Two' },
    ]);
    expect(tags.status).toBe(200);
    expect(tags.body.data.tags.map((x: { text: string }) => x.text)).toEqual(['One', 'Two']);
    expect(
      errorsOf((await client.rest(a, 'PUT', `/companies/${id}/tags`, [{ id: randomUUID() }])).body),
    ).toEqual([['[0].id', 'unknownEntry']]);

    const lifecycle = await client.rest(a, 'PUT', `/companies/${id}/lifecycle`, {
      lifecycleId: CUSTOMER,
    });
    expect(lifecycle.status).toBe(200);
    expect(lifecycle.body.data.lifecycle).toMatchObject({
      lifecycleId: CUSTOMER,
      text: 'Customer',
    });
    expect(
      errorsOf(
        (await client.rest(a, 'PUT', `/companies/${id}/lifecycle`, { lifecycleId: UP_TO_9 })).body,
      ),
    ).toEqual([['lifecycleId', 'unknownEntry']]);
  });

  it('C8 creates and updates batches all or nothing; C12/C13 add and remove tags of a selection', async () => {
    const created = await client.rest(a, 'POST', '/companies/batch', [
      { name: 'B1' },
      { name: 'B2' },
    ]);
    expect(created.status).toBe(201);
    const [b1, b2] = created.body.data.map((c: { id: string }) => c.id);
    const failed = await client.rest(a, 'POST', '/companies/batch', [{ name: 'B3' }, { name: '' }]);
    expect(failed.status).toBe(400);
    expect(errorsOf(failed.body)).toEqual([['[1].name', 'isNotEmpty']]);
    expect(
      (await pg.query(`SELECT 1 FROM "Company" WHERE "tenantId" = $1 AND name = 'B3'`, [a.id]))
        .rowCount,
    ).toBe(0);

    const updated = await client.rest(a, 'PUT', '/companies/batch', [
      { id: b1, name: 'B1 new' },
      { id: b2, customerNumber: 'C-2' },
    ]);
    expect(updated.status).toBe(200);
    expect(updated.body.data.map((c: { name: string }) => c.name)).toEqual(['B1 new', 'B2']);
    const badUpdate = await client.rest(a, 'PUT', '/companies/batch', [
      { id: b1, website: 'no url' },
    ]);
    expect(errorsOf(badUpdate.body)).toEqual([['[0].website', 'isUrl']]);

    const tag = (await client.rest(a, 'PUT', `/companies/${b1}/tags`, [{ text: 'Selected' }])).body
      .data.tags[0].id;
    const added = await client.rest(a, 'POST', '/companies/tags', {
      companyIds: [b1, b2],
      tagIds: [tag],
    });
    expect(added.status).toBe(200);
    expect(added.body.data.map((c: { tags: unknown[] }) => c.tags.length)).toEqual([1, 1]);
    expect(
      errorsOf(
        (
          await client.rest(a, 'POST', '/companies/tags', {
            companyIds: [b1],
            tagIds: [randomUUID()],
          })
        ).body,
      ),
    ).toEqual([['tagIds[0]', 'unknownEntry']]);
    const removed = await client.rest(a, 'DELETE', '/companies/tags', {
      companyIds: [b1, b2],
      tagIds: [tag],
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data.map((c: { tags: unknown[] }) => c.tags.length)).toEqual([0, 0]);
    expect(
      errorsOf(
        (await client.rest(a, 'DELETE', '/companies/tags', { companyIds: ['x'], tagIds: [tag] }))
          .body,
      ),
    ).toEqual([['companyIds[0]', 'isUuid']]);
  });

  it('C6 and C7 delete with the outbox event; a malformed id is a 400', async () => {
    const one = await create(a, { name: 'Delete me' });
    const deleted = await client.rest(a, 'DELETE', `/companies/${one}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deletedIds: [one] });
    expect((await client.rest(a, 'GET', `/companies/${one}`)).status).toBe(404);
    const events = await pg.query(
      `SELECT subject FROM "OutboxEvent" WHERE payload->'companyIds' ? $1`,
      [one],
    );
    expect(events.rows).toEqual([{ subject: 'crm-companies.companies.deleted' }]);

    const many = [await create(a, { name: 'Del A' }), await create(a, { name: 'Del B' })];
    const batch = await client.rest(a, 'DELETE', '/companies/batch', { ids: many });
    expect(batch.status).toBe(200);
    expect([...batch.body.data.deletedIds].sort()).toEqual([...many].sort());
    expect(
      errorsOf((await client.rest(a, 'DELETE', '/companies/batch', { ids: ['x'] })).body),
    ).toEqual([['ids[0]', 'isUuid']]);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another tenant's company on every route and changes nothing", async () => {
    const theirs = await create(b, {
      name: 'Theirs',
      website: 'theirs.example',
      tags: [{ text: 'Their tag' }],
    });
    await client.rest(b, 'PUT', `/companies/${theirs}/notes`, { note: 'private' });
    const before = await snapshot(theirs);
    const mine = await create(a, { name: 'Mine' });
    const myTag = (await client.rest(a, 'PUT', `/companies/${mine}/tags`, [{ text: 'My tag' }]))
      .body.data.tags[0].id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/companies/${theirs}`],
      ['PUT', `/companies/${theirs}`, { name: 'Hijacked' }],
      ['DELETE', `/companies/${theirs}`],
      ['PUT', `/companies/${theirs}/notes`, { note: 'overwritten' }],
      ['PUT', `/companies/${theirs}/tags`, []],
      ['PUT', `/companies/${theirs}/lifecycle`, { lifecycleId: LEAD }],
      ['PUT', '/companies/batch', [{ id: theirs, name: 'Hijacked' }]],
      ['DELETE', '/companies/batch', { ids: [theirs] }],
      ['POST', '/companies/tags', { companyIds: [theirs], tagIds: [myTag] }],
      ['DELETE', '/companies/tags', { companyIds: [theirs], tagIds: [myTag] }],
      ['GET', '/companies/by-domain/theirs.example'],
    ];
    for (const [method, path, body] of calls) {
      const res = await client.rest(a, method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    // lists and validate never show it
    const list = await client.rest(a, 'GET', '/companies?q=theirs');
    expect(list.body.data).toEqual([]);
    // their tag is not an entry of A's lists
    const theirTag = (await client.rest(b, 'GET', `/companies/${theirs}`)).body.data.tags[0].id;
    const foreignTag = await client.rest(a, 'POST', '/companies/tags', {
      companyIds: [mine],
      tagIds: [theirTag],
    });
    expect(foreignTag.status).toBe(400);
    expect(await snapshot(theirs)).toEqual(before);
  });
});

describe('GraphQL', () => {
  it('runs the company operations through the gateway with the same rules', async () => {
    const created = await client.graphql(
      a,
      `mutation($i: CreateCompanyInput!) { createCompany(input: $i) { id name websiteDomain lifecycle { text } } }`,
      { i: { name: 'Graph GmbH', website: 'www.graph.example', lifecycle: { lifecycleId: LEAD } } },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createCompany.id;
    expect(created.body.data.createCompany).toEqual({
      id,
      name: 'Graph GmbH',
      websiteDomain: 'graph.example',
      lifecycle: { text: 'Lead' },
    });

    const read = await client.graphql(
      a,
      `query($id: ID!) { company(id: $id) { name } companies(q: "graph") { totalResults } companyByDomain(domain: "graph.example") { id } }`,
      { id },
    );
    expect(read.body.data).toEqual({
      company: { name: 'Graph GmbH' },
      companies: { totalResults: 1 },
      companyByDomain: { id },
    });

    const ops: [string, Record<string, unknown>, (data: any) => void][] = [
      [
        `mutation($id: ID!) { updateCompany(id: $id, input: { nameAddition: "x" }) { nameAddition } }`,
        { id },
        (d) => expect(d.updateCompany.nameAddition).toBe('x'),
      ],
      [
        `mutation($id: ID!) { updateCompanyNote(id: $id, note: "n") { note } }`,
        { id },
        (d) => expect(d.updateCompanyNote.note).toBe('n'),
      ],
      [
        `mutation($id: ID!) { replaceCompanyTags(id: $id, tags: [{ text: "G" }]) { tags { text } } }`,
        { id },
        (d) => expect(d.replaceCompanyTags.tags).toEqual([{ text: 'G' }]),
      ],
      [
        `mutation($id: ID!) { updateCompanyLifecycle(id: $id, lifecycleId: "${CUSTOMER}") { lifecycle { text } } }`,
        { id },
        (d) => expect(d.updateCompanyLifecycle.lifecycle.text).toBe('Customer'),
      ],
      [
        `mutation { createCompanies(inputs: [{ name: "G1" }]) { name } }`,
        {},
        (d) => expect(d.createCompanies).toEqual([{ name: 'G1' }]),
      ],
      [
        `mutation($id: ID!) { updateCompanies(items: [{ id: $id, name: "Graph AG" }]) { name } }`,
        { id },
        (d) => expect(d.updateCompanies).toEqual([{ name: 'Graph AG' }]),
      ],
      [
        `mutation { validateCompany(input: { website: "bad url" }) { valid errors { field } } }`,
        {},
        (d) =>
          expect(d.validateCompany).toEqual({
            valid: false,
            errors: [{ field: 'name' }, { field: 'website' }],
          }),
      ],
    ];
    for (const [query, variables, check] of ops) {
      const res = await client.graphql(a, query, variables);
      expect({ query, errors: res.body.errors }).toEqual({ query, errors: undefined });
      check(res.body.data);
    }
    const tagId = (await client.rest(a, 'GET', `/companies/${id}`)).body.data.tags[0].id;
    const removed = await client.graphql(
      a,
      `mutation($c: [ID!]!, $t: [ID!]!) { removeCompanyTags(companyIds: $c, tagIds: $t) { tags { id } } }`,
      { c: [id], t: [tagId] },
    );
    expect(removed.body.data.removeCompanyTags).toEqual([{ tags: [] }]);
    const added = await client.graphql(
      a,
      `mutation($c: [ID!]!, $t: [ID!]!) { addCompanyTags(companyIds: $c, tagIds: $t) { tags { id } } }`,
      { c: [id], t: [tagId] },
    );
    expect(added.body.data.addCompanyTags).toEqual([{ tags: [{ id: tagId }] }]);

    const invalid = await client.graphql(
      a,
      `mutation { createCompany(input: { name: "" }) { id } }`,
    );
    expect(invalid.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');

    // another tenant sees nothing and changes nothing
    const other = await client.graphql(b, `query($id: ID!) { company(id: $id) { id } }`, { id });
    expect(other.body.data.company).toBeNull();
    for (const query of [
      `mutation($id: ID!) { updateCompany(id: $id, input: { name: "H" }) { id } }`,
      `mutation($id: ID!) { deleteCompany(id: $id) }`,
      `mutation($id: ID!) { deleteCompanies(ids: [$id]) { deletedIds } }`,
    ]) {
      const res = await client.graphql(b, query, { id });
      expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
    }
    const gone = await client.graphql(
      a,
      `mutation($id: ID!) { deleteCompanies(ids: [$id]) { deletedIds } }`,
      { id },
    );
    expect(gone.body.data.deleteCompanies.deletedIds).toEqual([id]);
  });
});
