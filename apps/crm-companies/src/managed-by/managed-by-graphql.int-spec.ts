import { randomUUID } from 'node:crypto';
import { ManagedByRepository } from './managed-by.repository';
import { ACCOUNT_MANAGER, KEY_ACCOUNT_MANAGER, ManagedByKit } from './test/managed-by-test-kit';

// M1-M7 over GraphQL (same service methods as REST) and Company.managedBy: the managers of all
// companies of one response come from one SQL query; CompanyManager.person is a federation
// reference to crm-people's Person.

jest.setTimeout(60000);

let kit: ManagedByKit;

beforeAll(async () => {
  kit = await ManagedByKit.start('crm_companies_it_managed_by_gql');
}, 60000);
afterAll(async () => {
  await kit?.close();
}, 30000);

const FIELDS = 'id personId managerRole { id } since until createdBy';

describe('GraphQL M1-M7', () => {
  let company: string;
  let p1: string;
  let p2: string;
  beforeAll(async () => {
    company = await kit.company();
    p1 = kit.people.person(kit.A);
    p2 = kit.people.person(kit.A);
  });

  it('createCompanyManager creates; problems carry code, status and fields', async () => {
    const res = await kit.gql(
      `mutation($c: ID!, $p: ID!, $r: ID!) { createCompanyManager(companyId: $c, input: { personId: $p, managerRoleId: $r, since: "2024-01-01T00:00:00Z" }) { ${FIELDS} person { id } } }`,
      { c: company, p: p1, r: ACCOUNT_MANAGER },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createCompanyManager).toEqual({
      id: expect.any(String),
      personId: p1,
      managerRole: { id: ACCOUNT_MANAGER },
      since: '2024-01-01T00:00:00.000Z',
      until: null,
      createdBy: 'test-suite',
      person: { id: p1 },
    });
    const bad = await kit.gql(
      `mutation($c: ID!, $p: ID!) { createCompanyManager(companyId: $c, input: { personId: $p, managerRoleId: "x" }) { id } }`,
      { c: company, p: p1 },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
      errors: [{ field: 'managerRoleId', rule: 'isUuid' }],
    });
    const unknown = await kit.gql(
      `mutation($c: ID!, $p: ID!, $r: ID!) { createCompanyManager(companyId: $c, input: { personId: $p, managerRoleId: $r }) { id } }`,
      { c: company, p: randomUUID(), r: ACCOUNT_MANAGER },
    );
    expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const dup = await kit.gql(
      `mutation($c: ID!, $p: ID!, $r: ID!) { createCompanyManager(companyId: $c, input: { personId: $p, managerRoleId: $r }) { id } }`,
      { c: company, p: p1, r: ACCOUNT_MANAGER },
    );
    expect(dup.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
  });

  it('createCompanyManagers creates several; a bad item is named by index', async () => {
    const res = await kit.gql(
      `mutation($c: ID!, $in: [CreateCompanyManagerInput!]!) { createCompanyManagers(companyId: $c, input: $in) { personId managerRole { id } } }`,
      {
        c: company,
        in: [
          { personId: p2, managerRoleId: ACCOUNT_MANAGER },
          { personId: p2, managerRoleId: KEY_ACCOUNT_MANAGER },
        ],
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createCompanyManagers).toHaveLength(2);
    const bad = await kit.gql(
      `mutation($c: ID!, $in: [CreateCompanyManagerInput!]!) { createCompanyManagers(companyId: $c, input: $in) { id } }`,
      {
        c: company,
        in: [
          { personId: p1, managerRoleId: KEY_ACCOUNT_MANAGER },
          {
            personId: p1,
            managerRoleId: ACCOUNT_MANAGER,
            since: '2024-02-01',
            until: '2024-01-01',
          },
        ],
      },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({
      statusCode: 400,
      errors: [{ field: '[1].until', rule: 'notBefore' }],
    });
    expect(await kit.rows(company)).toHaveLength(3);
  });

  it('companyManagers pages; another tenant gets 404', async () => {
    const res = await kit.gql(
      `query($c: ID!) { companyManagers(companyId: $c, pageSize: 2, sort: "-dateCreated") { totalResults items { personId } } }`,
      { c: company },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.companyManagers.totalResults).toBe(3);
    expect(res.body.data.companyManagers.items).toHaveLength(2);
    const foreign = await kit.gql(
      `query($c: ID!) { companyManagers(companyId: $c) { totalResults } }`,
      { c: company },
      kit.B,
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });

  it('updateCompanyManager(s) change given fields; unknown ids -> 404', async () => {
    const [first, second, third] = await kit.rows(company);
    const one = await kit.gql(
      `mutation($c: ID!, $id: ID!) { updateCompanyManager(companyId: $c, relationId: $id, input: { until: "2030-01-01T00:00:00Z" }) { id since until } }`,
      { c: company, id: first.id },
    );
    expect(one.body.data.updateCompanyManager).toEqual({
      id: first.id,
      since: '2024-01-01T00:00:00.000Z',
      until: '2030-01-01T00:00:00.000Z',
    });
    const many = await kit.gql(
      `mutation($c: ID!, $in: [UpdateCompanyManagerItemInput!]!) { updateCompanyManagers(companyId: $c, input: $in) { id since } }`,
      {
        c: company,
        in: [
          { id: second.id, since: '2021-01-01T00:00:00Z' },
          { id: third.id, since: '2022-01-01T00:00:00Z' },
        ],
      },
    );
    expect(many.body.errors).toBeUndefined();
    expect(many.body.data.updateCompanyManagers.map((m: any) => m.since)).toEqual([
      '2021-01-01T00:00:00.000Z',
      '2022-01-01T00:00:00.000Z',
    ]);
    const unknown = await kit.gql(
      `mutation($c: ID!, $in: [UpdateCompanyManagerItemInput!]!) { updateCompanyManagers(companyId: $c, input: $in) { id } }`,
      { c: company, in: [{ id: second.id }, { id: randomUUID() }] },
    );
    expect(unknown.body.errors[0].extensions).toMatchObject({
      statusCode: 404,
      errors: [{ field: '[1].id', rule: 'managerNotFound' }],
    });
  });

  it('deleteCompanyManager(s) remove and answer them; bad or foreign ids change nothing', async () => {
    const [first, second, third] = await kit.rows(company);
    const bad = await kit.gql(
      `mutation($c: ID!) { deleteCompanyManagers(companyId: $c, ids: ["nope"]) { id } }`,
      { c: company },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ statusCode: 400 });
    const foreign = await kit.gql(
      `mutation($c: ID!, $id: ID!) { deleteCompanyManager(companyId: $c, relationId: $id) { id } }`,
      { c: company, id: first.id },
      kit.B,
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ statusCode: 404 });
    const one = await kit.gql(
      `mutation($c: ID!, $id: ID!) { deleteCompanyManager(companyId: $c, relationId: $id) { id } }`,
      { c: company, id: first.id },
    );
    expect(one.body.data.deleteCompanyManager).toEqual({ id: first.id });
    const many = await kit.gql(
      `mutation($c: ID!, $ids: [ID!]!) { deleteCompanyManagers(companyId: $c, ids: $ids) { id } }`,
      { c: company, ids: [second.id, third.id] },
    );
    expect(many.body.data.deleteCompanyManagers.map((m: any) => m.id)).toEqual([
      second.id,
      third.id,
    ]);
    expect(await kit.rows(company)).toHaveLength(0);
  });
});

describe('Company.managedBy', () => {
  it('loads the managers of every company of a response with one repository query', async () => {
    const companies = [await kit.company(kit.A, 'One'), await kit.company(kit.A, 'Two')];
    const empty = await kit.company(kit.A, 'Three');
    const person = kit.people.person(kit.A);
    for (const c of companies) {
      const res = await kit.call('POST', `/companies/${c}/managed-by/batch`, [
        { personId: person, managerRoleId: ACCOUNT_MANAGER },
        { personId: person, managerRoleId: KEY_ACCOUNT_MANAGER },
      ]);
      expect(res.status).toBe(201);
    }
    const foreign = await kit.company(kit.B, 'Foreign');
    const spy = jest.spyOn(kit.svc.app.get(ManagedByRepository), 'ofCompanies');
    const reps = [...companies, empty, foreign].map((id) => ({ __typename: 'Company', id }));
    const res = await kit.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { name managedBy { managerRole { id } person { __typename id } } } } }`,
      { r: reps },
    );
    expect(res.body.errors).toBeUndefined();
    const entities = res.body.data._entities;
    expect(entities.map((e: any) => e?.name ?? null)).toEqual(['One', 'Two', 'Three', null]);
    for (const e of entities.slice(0, 2)) {
      expect(e.managedBy).toEqual([
        expect.objectContaining({ person: { __typename: 'Person', id: person } }),
        expect.objectContaining({ person: { __typename: 'Person', id: person } }),
      ]);
    }
    expect(entities[2].managedBy).toEqual([]);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it('is served on the companies list too, batched the same way', async () => {
    const spy = jest.spyOn(kit.svc.app.get(ManagedByRepository), 'ofCompanies');
    const res = await kit.gql(`{ companies(pageSize: 500) { items { name managedBy { id } } } }`);
    expect(res.body.errors).toBeUndefined();
    const items = res.body.data.companies.items;
    expect(items.length).toBeGreaterThan(3);
    expect(items.find((c: any) => c.name === 'One').managedBy).toHaveLength(2);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});
