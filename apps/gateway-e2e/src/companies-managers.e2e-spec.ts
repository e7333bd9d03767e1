import { randomUUID } from 'node:crypto';
import { Client, startClient, TestTenant } from './client';

// M1-M7 through the gateway with the real crm-people answering over NATS: one success and the
// main failure per row, GraphQL with the Person of crm-people, and another tenant's ids 404
// with nothing changed.

jest.setTimeout(60000);

const ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000401';
const KEY_ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000402';

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('managers');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown(), 30000);

async function person(t: TestTenant, firstname = 'Anna'): Promise<string> {
  const res = await client.rest(t, 'POST', '/people', { firstname, lastname: 'Berger' });
  if (res.status !== 201) throw new Error(`create person: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

async function company(t: TestTenant, name = 'Acme'): Promise<string> {
  const res = await client.rest(t, 'POST', '/companies', { name });
  if (res.status !== 201) throw new Error(`create company: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

const path = (companyId: string) => `/companies/${companyId}/managed-by`;
const list = async (t: TestTenant, companyId: string) =>
  (await client.rest(t, 'GET', `${path(companyId)}?pageSize=500`)).body.data as any[];

describe('managed-by relations through the gateway (REST)', () => {
  let acme: string;
  let anna: string;
  let ben: string;
  let sponsor: string;
  let relation: string;
  beforeAll(async () => {
    acme = await company(a);
    anna = await person(a, 'Anna');
    ben = await person(a, 'Ben');
    const role = await client.rest(a, 'POST', '/people-settings/manager-roles', {
      text: 'Sponsor',
    });
    expect(role.status).toBe(201);
    sponsor = (Array.isArray(role.body.data) ? role.body.data[0] : role.body.data).id;
  });

  it('M2 creates with a person and role crm-people knows (201); unknown person 404, unknown role 400, repeat 409', async () => {
    const res = await client.rest(a, 'POST', path(acme), {
      personId: anna,
      managerRoleId: ACCOUNT_MANAGER,
      since: '2024-01-01T00:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      personId: anna,
      managerRole: { id: ACCOUNT_MANAGER },
      since: '2024-01-01T00:00:00.000Z',
      until: null,
    });
    relation = res.body.data.id;
    // the tenant's own role is known too
    const own = await client.rest(a, 'POST', path(acme), { personId: ben, managerRoleId: sponsor });
    expect(own.status).toBe(201);

    const nobody = randomUUID();
    const unknown = await client.rest(a, 'POST', path(acme), {
      personId: nobody,
      managerRoleId: ACCOUNT_MANAGER,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain(nobody);
    const role = await client.rest(
      a,
      'POST',
      path(acme),
      { personId: anna, managerRoleId: randomUUID() },
      { 'Accept-Language': 'de' },
    );
    expect(role.status).toBe(400);
    expect(role.body.errors[0]).toMatchObject({
      field: 'managerRoleId',
      rule: 'unknownManagerRole',
    });
    expect(role.body.errors[0].message).toContain('Personen-Einstellungsliste');
    const repeat = await client.rest(a, 'POST', path(acme), {
      personId: anna,
      managerRoleId: ACCOUNT_MANAGER,
    });
    expect(repeat.status).toBe(409);
    expect(await list(a, acme)).toHaveLength(2);
  });

  it('M2 tenant isolation: another tenant’s company 404; another tenant’s person 404; nothing written', async () => {
    const foreignPerson = await person(b);
    const res = await client.rest(a, 'POST', path(acme), {
      personId: foreignPerson,
      managerRoleId: ACCOUNT_MANAGER,
    });
    expect(res.status).toBe(404);
    const foreignCompany = await client.rest(b, 'POST', path(acme), {
      personId: foreignPerson,
      managerRoleId: ACCOUNT_MANAGER,
    });
    expect(foreignCompany.status).toBe(404);
    expect(await list(a, acme)).toHaveLength(2);
  });

  it('M1 lists paged with the total; another tenant 404', async () => {
    const res = await client.rest(a, 'GET', `${path(acme)}?pageSize=1`);
    expect(res.status).toBe(200);
    expect(res.body.metaData.totalResults).toBe(2);
    expect(res.body.data.map((m: any) => m.id)).toEqual([relation]);
    const bad = await client.rest(a, 'GET', `${path(acme)}?sort=name`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
    expect((await client.rest(b, 'GET', path(acme))).status).toBe(404);
  });

  it('M3 creates several, all or nothing (problems by index); another tenant 404', async () => {
    const other = await company(a, 'Beta');
    const res = await client.rest(a, 'POST', `${path(other)}/batch`, [
      { personId: anna, managerRoleId: ACCOUNT_MANAGER },
      { personId: ben, managerRoleId: KEY_ACCOUNT_MANAGER },
      { personId: ben, managerRoleId: sponsor },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(3);
    const third = await company(a, 'Gamma');
    const refused = await client.rest(a, 'POST', `${path(third)}/batch`, [
      { personId: anna, managerRoleId: ACCOUNT_MANAGER },
      { personId: randomUUID(), managerRoleId: ACCOUNT_MANAGER },
    ]);
    expect(refused.status).toBe(404);
    expect(refused.body.errors[0]).toMatchObject({ field: '[1].personId', rule: 'personNotFound' });
    const invalid = await client.rest(a, 'POST', `${path(third)}/batch`, [
      { personId: anna, managerRoleId: ACCOUNT_MANAGER },
      {
        personId: anna,
        managerRoleId: KEY_ACCOUNT_MANAGER,
        since: '2024-02-01',
        until: '2024-01-01',
      },
    ]);
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0]).toMatchObject({ field: '[1].until', rule: 'notBefore' });
    expect(await list(a, third)).toHaveLength(0);
    const foreign = await client.rest(b, 'POST', `${path(third)}/batch`, [
      { personId: anna, managerRoleId: ACCOUNT_MANAGER },
    ]);
    expect(foreign.status).toBe(404);
    expect(await list(a, third)).toHaveLength(0);
  });

  it('M5 updates one; until before since 400; another tenant 404 unchanged', async () => {
    const res = await client.rest(a, 'PUT', `${path(acme)}/${relation}`, {
      managerRoleId: KEY_ACCOUNT_MANAGER,
      until: '2026-12-31T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: relation,
      managerRole: { id: KEY_ACCOUNT_MANAGER },
      since: '2024-01-01T00:00:00.000Z',
      until: '2026-12-31T00:00:00.000Z',
    });
    const bad = await client.rest(a, 'PUT', `${path(acme)}/${relation}`, {
      until: '2023-01-01T00:00:00Z',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'until', rule: 'notBefore' });
    const foreign = await client.rest(b, 'PUT', `${path(acme)}/${relation}`, { until: null });
    expect(foreign.status).toBe(404);
    const row = (await list(a, acme)).find((m) => m.id === relation);
    expect(row.until).toBe('2026-12-31T00:00:00.000Z');
  });

  it('M4 updates several, all or nothing; an unknown id -> 404 naming it, nothing changed', async () => {
    const ids = (await list(a, acme)).map((m) => m.id);
    const res = await client.rest(
      a,
      'PUT',
      `${path(acme)}/batch`,
      ids.map((id) => ({ id, since: '2020-01-01T00:00:00Z' })),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => m.since)).toEqual(
      ids.map(() => '2020-01-01T00:00:00.000Z'),
    );
    const refused = await client.rest(a, 'PUT', `${path(acme)}/batch`, [
      { id: ids[0], since: null },
      { id: randomUUID(), since: null },
    ]);
    expect(refused.status).toBe(404);
    expect(refused.body.errors[0]).toMatchObject({ field: '[1].id', rule: 'managerNotFound' });
    const foreign = await client.rest(b, 'PUT', `${path(acme)}/batch`, [
      { id: ids[0], since: null },
    ]);
    expect(foreign.status).toBe(404);
    expect((await list(a, acme)).every((m) => m.since === '2020-01-01T00:00:00.000Z')).toBe(true);
  });

  it('M7 deletes one; another tenant 404 and it stays; again 404', async () => {
    expect((await client.rest(b, 'DELETE', `${path(acme)}/${relation}`)).status).toBe(404);
    const res = await client.rest(a, 'DELETE', `${path(acme)}/${relation}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(relation);
    expect((await client.rest(a, 'DELETE', `${path(acme)}/${relation}`)).status).toBe(404);
    expect((await list(a, acme)).map((m) => m.id)).not.toContain(relation);
  });

  it('M6 deletes several, all or nothing; a foreign id -> 404, nothing deleted', async () => {
    const ids = (await list(a, acme)).map((m) => m.id);
    const bCompany = await company(b);
    const bPerson = await person(b);
    const foreign = await client.rest(b, 'POST', path(bCompany), {
      personId: bPerson,
      managerRoleId: ACCOUNT_MANAGER,
    });
    expect(foreign.status).toBe(201);
    const refused = await client.rest(a, 'DELETE', `${path(acme)}/batch`, {
      ids: [...ids, foreign.body.data.id],
    });
    expect(refused.status).toBe(404);
    expect(await list(a, acme)).toHaveLength(ids.length);
    const res = await client.rest(a, 'DELETE', `${path(acme)}/batch`, { ids });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => m.id)).toEqual(ids);
    expect(await list(a, acme)).toHaveLength(0);
    expect(await list(b, bCompany)).toHaveLength(1);
  });
});

describe('managed-by relations through the gateway (GraphQL)', () => {
  it('serves M1-M7 and resolves CompanyManager.person from crm-people', async () => {
    const c = await company(a, 'Graph');
    const p = await person(a, 'Greta');
    const created = await client.graphql(
      a,
      `mutation($c: ID!, $p: ID!, $r: ID!) { createCompanyManager(companyId: $c, input: { personId: $p, managerRoleId: $r }) { id person { firstname lastname } } }`,
      { c, p, r: ACCOUNT_MANAGER },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createCompanyManager.person).toEqual({
      firstname: 'Greta',
      lastname: 'Berger',
    });
    const id = created.body.data.createCompanyManager.id;

    const many = await client.graphql(
      a,
      `mutation($c: ID!, $in: [CreateCompanyManagerInput!]!) { createCompanyManagers(companyId: $c, input: $in) { id } }`,
      { c, in: [{ personId: p, managerRoleId: KEY_ACCOUNT_MANAGER }] },
    );
    expect(many.body.data.createCompanyManagers).toHaveLength(1);
    const second = many.body.data.createCompanyManagers[0].id;

    const page = await client.graphql(
      a,
      `query($c: ID!) { companyManagers(companyId: $c) { totalResults items { id person { firstname } } } }`,
      { c },
    );
    expect(page.body.data.companyManagers.totalResults).toBe(2);
    expect(page.body.data.companyManagers.items[0].person).toEqual({ firstname: 'Greta' });

    const updated = await client.graphql(
      a,
      `mutation($c: ID!, $id: ID!) { updateCompanyManager(companyId: $c, relationId: $id, input: { since: "2021-01-01T00:00:00Z" }) { since } }`,
      { c, id },
    );
    expect(updated.body.data.updateCompanyManager.since).toBe('2021-01-01T00:00:00.000Z');
    const updatedMany = await client.graphql(
      a,
      `mutation($c: ID!, $in: [UpdateCompanyManagerItemInput!]!) { updateCompanyManagers(companyId: $c, input: $in) { until } }`,
      { c, in: [{ id: second, until: '2030-01-01T00:00:00Z' }] },
    );
    expect(updatedMany.body.data.updateCompanyManagers).toEqual([
      { until: '2030-01-01T00:00:00.000Z' },
    ]);

    const unknown = await client.graphql(
      a,
      `mutation($c: ID!, $p: ID!, $r: ID!) { createCompanyManager(companyId: $c, input: { personId: $p, managerRoleId: $r }) { id } }`,
      { c, p: randomUUID(), r: ACCOUNT_MANAGER },
    );
    expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const foreign = await client.graphql(
      b,
      `mutation($c: ID!, $id: ID!) { deleteCompanyManager(companyId: $c, relationId: $id) { id } }`,
      { c, id },
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });

    const one = await client.graphql(
      a,
      `mutation($c: ID!, $id: ID!) { deleteCompanyManager(companyId: $c, relationId: $id) { id } }`,
      { c, id },
    );
    expect(one.body.data.deleteCompanyManager).toEqual({ id });
    const rest = await client.graphql(
      a,
      `mutation($c: ID!, $ids: [ID!]!) { deleteCompanyManagers(companyId: $c, ids: $ids) { id } }`,
      { c, ids: [second] },
    );
    expect(rest.body.data.deleteCompanyManagers).toEqual([{ id: second }]);
    expect(await list(a, c)).toHaveLength(0);
  });

  it('Company.managedBy with the people; another tenant sees no company', async () => {
    const c = await company(a, 'Managed');
    const p = await person(a, 'Maria');
    await client.rest(a, 'POST', path(c), { personId: p, managerRoleId: ACCOUNT_MANAGER });
    const res = await client.graphql(
      a,
      `query($id: ID!) { company(id: $id) { name managedBy { managerRole { id } person { id firstname } } } }`,
      { id: c },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.company).toEqual({
      name: 'Managed',
      managedBy: [{ managerRole: { id: ACCOUNT_MANAGER }, person: { id: p, firstname: 'Maria' } }],
    });
    const foreign = await client.graphql(b, `query($id: ID!) { company(id: $id) { id } }`, {
      id: c,
    });
    expect(foreign.body.data.company).toBeNull();
  });
});
