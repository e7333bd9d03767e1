import { randomUUID } from 'node:crypto';
import { Client, startClient, TestTenant } from './client';

// P1, P2, P5-P10, P12-P15 through the gateway: one success and the main failure per row, and
// another tenant's ids answered 404 (or refused by index in batches) with nothing changed.

const LEAD = '00000000-0000-4000-a000-000000000101';
const CUSTOMER = '00000000-0000-4000-a000-000000000103';
let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('peopleops');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown());

async function person(t: TestTenant, body: Record<string, unknown>): Promise<string> {
  const res = await client.rest(t, 'POST', '/people', body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data.id;
}

const read = async (t: TestTenant, id: string) =>
  (await client.rest(t, 'GET', `/people/${id}`)).body.data;

describe('lists', () => {
  let anna: string;
  beforeAll(async () => {
    anna = await person(a, { firstname: 'Anna', lastname: 'Zeta', employeeStatus: 'active' });
    await person(a, { firstname: 'Bob', lastname: 'Alpha', customerNumber: 'ZZ-9' });
    await person(b, { firstname: 'Other', lastname: 'Zeta', employeeStatus: 'active' });
  });

  it('P2 lists, sorts, pages and searches the tenant people; a bad sort is 400', async () => {
    const res = await client.rest(a, 'GET', '/people?sort=-lastname&pageSize=1');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { firstname: string }) => p.firstname)).toEqual(['Anna']);
    expect(res.body.metaData.totalResults).toBe(2);
    const q = await client.rest(a, 'GET', '/people?q=zz-');
    expect(q.body.data.map((p: { firstname: string }) => p.firstname)).toEqual(['Bob']);
    const bad = await client.rest(a, 'GET', '/people?sort=salary');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
  });

  it('P1 filters by employee status; without a filter it is 400 naming both', async () => {
    const res = await client.rest(a, 'GET', '/people/filter?employeeStatus=active');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([anna]);
    expect(res.body.metaData.totalResults).toBe(1);
    const none = await client.rest(a, 'GET', '/people/filter');
    expect(none.status).toBe(400);
    expect(none.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'email',
      'employeeStatus',
    ]);
  });

  it('GraphQL people and peopleByFilter through the supergraph', async () => {
    const res = await client.graphql(
      a,
      `{ people(sort: "lastname") { totalResults items { firstname } }
         peopleByFilter(employeeStatus: "active") { totalResults } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.people).toEqual({
      totalResults: 2,
      items: [{ firstname: 'Bob' }, { firstname: 'Anna' }],
    });
    expect(res.body.data.peopleByFilter.totalResults).toBe(1);
  });
});

describe('one person', () => {
  it('P5 updates given fields only; unknown lifecycle 400; another tenant 404', async () => {
    const id = await person(a, {
      firstname: 'Old',
      lastname: 'Name',
      lifecycle: { lifecycleId: LEAD },
    });
    const res = await client.rest(a, 'PUT', `/people/${id}`, {
      firstname: 'New',
      lifecycle: { lifecycleId: CUSTOMER },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      firstname: 'New',
      lastname: 'Name',
      modifiedByUserId: a.keyId,
    });
    expect(res.body.data.lifecycleHistories).toHaveLength(2);
    const bad = await client.rest(a, 'PUT', `/people/${id}`, {
      lifecycle: { lifecycleId: randomUUID() },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({
      field: 'lifecycle.lifecycleId',
      rule: 'unknownEntry',
    });
    expect((await client.rest(b, 'PUT', `/people/${id}`, { firstname: 'Hijack' })).status).toBe(
      404,
    );
    expect((await read(a, id)).firstname).toBe('New');
  });

  it('P6 deletes; another tenant and a second delete get 404', async () => {
    const id = await person(a, { firstname: 'Delete' });
    const foreign = await client.rest(b, 'DELETE', `/people/${id}`);
    expect(foreign.status).toBe(404);
    expect((await client.rest(a, 'GET', `/people/${id}`)).status).toBe(200);
    const res = await client.rest(a, 'DELETE', `/people/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deletedIds: [id] });
    expect((await client.rest(a, 'GET', `/people/${id}`)).status).toBe(404);
    expect((await client.rest(a, 'DELETE', `/people/${id}`)).status).toBe(404);
  });

  it('P7 quicklook; another tenant 404', async () => {
    const id = await person(a, {
      firstname: 'Quick',
      lastname: 'Look',
      orgaTags: [{ text: 'VIP' }],
    });
    const res = await client.rest(a, 'GET', `/people/${id}/quicklook`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      name: 'Quick Look',
      initials: 'QL',
      orgaTags: [{ text: 'VIP' }],
      cardId: null,
    });
    expect((await client.rest(b, 'GET', `/people/${id}/quicklook`)).status).toBe(404);
  });

  it('P12 replaces orga tags; a bad item is 400 by index; another tenant 404', async () => {
    const id = await person(a, { orgaTags: [{ text: 'First' }] });
    const res = await client.rest(a, 'PUT', `/people/${id}/orga-tags`, [{ text: 'Second' }]);
    expect(res.status).toBe(200);
    expect(res.body.data.orgaTags).toEqual([{ id: expect.any(String), text: 'Second' }]);
    const bad = await client.rest(a, 'PUT', `/people/${id}/orga-tags`, [{ id: randomUUID() }]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: '[0].id', rule: 'unknownEntry' });
    expect((await client.rest(b, 'PUT', `/people/${id}/orga-tags`, [])).status).toBe(404);
    expect((await read(a, id)).orgaTags[0].text).toBe('Second');
  });

  it('P13 replaces personalities; a too long text is 400; another tenant 404', async () => {
    const id = await person(a, { personalities: [{ text: 'Shy' }] });
    const res = await client.rest(a, 'PUT', `/people/${id}/personalities`, [
      { text: 'Bold', category: 'DISC' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.personalities).toEqual([
      { id: expect.any(String), text: 'Bold', category: 'DISC' },
    ]);
    const bad = await client.rest(a, 'PUT', `/people/${id}/personalities`, [
      { text: 'x'.repeat(201) },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: '[0].text', rule: 'maxLength' });
    expect((await client.rest(b, 'PUT', `/people/${id}/personalities`, [])).status).toBe(404);
    expect((await read(a, id)).personalities[0].text).toBe('Bold');
  });

  it('P14 changes the lifecycle once per change; unknown 400; another tenant 404', async () => {
    const id = await person(a, { lastname: 'Cycle' });
    const res = await client.rest(a, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: LEAD });
    expect(res.status).toBe(200);
    expect(res.body.data.lifecycle).toMatchObject({ lifecycleId: LEAD, text: 'Lead' });
    const again = await client.rest(a, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: LEAD });
    expect(again.body.data.lifecycleHistories).toHaveLength(1);
    const bad = await client.rest(a, 'PUT', `/people/${id}/lifecycle`, {
      lifecycleId: randomUUID(),
    });
    expect(bad.status).toBe(400);
    expect(
      (await client.rest(b, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: CUSTOMER })).status,
    ).toBe(404);
    expect((await read(a, id)).lifecycle.lifecycleId).toBe(LEAD);
  });

  it('P15 validates without writing: valid, and invalid with translated errors', async () => {
    const ok = await client.rest(a, 'POST', '/people/validate', {
      firstname: 'Val',
      lastname: 'Id',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: { name: 'Val Id', initials: 'VI' },
    });
    const bad = await client.rest(
      a,
      'POST',
      '/people/validate',
      { lastname: 'x'.repeat(201) },
      { 'Accept-Language': 'de' },
    );
    expect(bad.status).toBe(200);
    expect(bad.body.data.valid).toBe(false);
    expect(bad.body.data.errors).toEqual([
      {
        field: 'lastname',
        rule: 'maxLength',
        message: 'lastname darf höchstens 200 Zeichen lang sein',
      },
    ]);
  });
});

describe('batches', () => {
  it('P9 creates several; one bad item refuses all, by index', async () => {
    const res = await client.rest(a, 'POST', '/people/batch', [
      { firstname: 'B1' },
      { firstname: 'B2' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.metaData.totalResults).toBe(2);
    const marker = `Atomic-${randomUUID()}`;
    const bad = await client.rest(a, 'POST', '/people/batch', [
      { lastname: marker },
      { lastname: marker, title: 't'.repeat(201) },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      {
        field: '[1].title',
        rule: 'maxLength',
        message: '[1].title must be at most 200 characters long',
      },
    ]);
    expect((await client.rest(a, 'GET', `/people?q=${marker}`)).body.metaData.totalResults).toBe(0);
  });

  it('P8 updates several; another tenant id is an error of its item and nothing changes', async () => {
    const [x, y] = [await person(a, { firstname: 'X' }), await person(a, { firstname: 'Y' })];
    const theirs = await person(b, { firstname: 'Theirs' });
    const res = await client.rest(a, 'PUT', '/people/batch', [
      { id: x, lastname: 'One' },
      { id: y, lastname: 'Two' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(['X One', 'Y Two']);
    const bad = await client.rest(a, 'PUT', '/people/batch', [
      { id: x, lastname: 'Changed' },
      { id: theirs, lastname: 'Hijack' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: '[1].id', rule: 'unknownPerson' });
    expect((await read(a, x)).lastname).toBe('One');
    expect((await read(b, theirs)).lastname).toBeNull();
  });

  it('P10 deletes several; another tenant id or more than 1000 refuse all', async () => {
    const [x, y] = [await person(a, { firstname: 'X' }), await person(a, { firstname: 'Y' })];
    const theirs = await person(b, { firstname: 'Theirs' });
    const bad = await client.rest(a, 'DELETE', '/people/batch', { ids: [x, theirs] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      {
        field: 'ids[1]',
        rule: 'unknownPerson',
        message: 'ids[1] does not name a person of this tenant',
      },
    ]);
    expect((await client.rest(a, 'GET', `/people/${x}`)).status).toBe(200);
    expect((await client.rest(b, 'GET', `/people/${theirs}`)).status).toBe(200);
    const many = await client.rest(a, 'DELETE', '/people/batch', {
      ids: Array.from({ length: 1001 }, () => randomUUID()),
    });
    expect(many.status).toBe(400);
    const res = await client.rest(a, 'DELETE', '/people/batch', { ids: [x, y] });
    expect(res.status).toBe(200);
    expect(res.body.data.deletedIds.sort()).toEqual([x, y].sort());
    expect((await client.rest(a, 'GET', `/people/${y}`)).status).toBe(404);
  });

  it('GraphQL mutations through the supergraph, with errors carrying the status', async () => {
    const created = await client.graphql(
      a,
      `mutation { createPeople(inputs: [{ firstname: "Gq" }]) { id } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const [{ id }] = created.body.data.createPeople;
    const updated = await client.graphql(
      a,
      `mutation($id: ID!) { updatePerson(id: $id, input: { lastname: "L" }) { name }
        updatePersonLifecycle(id: $id, lifecycleId: "${LEAD}") { lifecycle { text } }
        replacePersonOrgaTags(id: $id, tags: [{ text: "G" }]) { orgaTags { text } } }`,
      { id },
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updatePerson.name).toBe('Gq L');
    const look = await client.graphql(b, `query($id: ID!) { personQuicklook(id: $id) { id } }`, {
      id,
    });
    expect(look.body.data.personQuicklook).toBeNull();
    const foreign = await client.graphql(b, `mutation($id: ID!) { deletePerson(id: $id) }`, { id });
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const removed = await client.graphql(a, `mutation($id: ID!) { deletePerson(id: $id) }`, { id });
    expect(removed.body.data.deletePerson).toBe(true);
  });
});
