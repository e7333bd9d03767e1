import { randomUUID } from 'node:crypto';
import { Client, startClient, TestTenant } from './client';

// R1-R9 and S1-S5 through the gateway, REST and GraphQL: one success and the main failure per
// row, and another tenant's ids answer 404 without changing anything.

const LEAD = '00000000-0000-4000-a000-000000000101';
jest.setTimeout(30000);

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('relsettings');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown());

function expectEnvelope(body: any, statusCode: number) {
  expect(Object.keys(body).sort()).toEqual(
    body.errors
      ? ['data', 'errors', 'message', 'metaData', 'statusCode']
      : ['data', 'message', 'metaData', 'statusCode'],
  );
  expect(body.statusCode).toBe(statusCode);
  expect(body.metaData.responseTimeStamp).toMatch(/Z$/);
  if (statusCode >= 400) expect(body.data).toBeNull();
}

async function person(t: TestTenant, firstname: string): Promise<string> {
  const res = await client.rest(t, 'POST', '/people', { firstname, lastname: 'E2e' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('People settings S1-S5', () => {
  it('S1 lists system and tenant entries, translated; unknown list 404', async () => {
    const res = await client.rest(a, 'GET', '/people-settings/lifecycles', undefined, {
      'Accept-Language': 'de',
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data.map((e: any) => e.text)).toEqual([
      'Lead',
      'Interessent',
      'Kunde',
      'Ehemaliger Kunde',
    ]);
    expect(res.body.metaData.totalResults).toBe(4);
    const unknown = await client.rest(a, 'GET', '/people-settings/nonsense');
    expect(unknown.status).toBe(404);
    expectEnvelope(unknown.body, 404);
  });

  it('S2 creates one or several entries; 409 for a text taken ignoring case; 400 for bad input', async () => {
    const one = await client.rest(a, 'POST', '/people-settings/orga-tags', { text: 'Partner' });
    expect(one.status).toBe(201);
    expectEnvelope(one.body, 201);
    expect(one.body.data).toMatchObject({ text: 'Partner', isSystem: false });
    const many = await client.rest(a, 'POST', '/people-settings/lifecycles', [
      { text: 'Evangelist', color: '#00AA00' },
      { text: 'Dormant', color: '#777777' },
    ]);
    expect(many.status).toBe(201);
    expect(many.body.data).toHaveLength(2);
    const taken = await client.rest(a, 'POST', '/people-settings/orga-tags', { text: 'PARTNER' });
    expect(taken.status).toBe(409);
    expectEnvelope(taken.body, 409);
    const bad = await client.rest(a, 'POST', '/people-settings/lifecycles', {
      text: 'x'.repeat(201),
      color: 'green',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['text', 'maxLength'],
      ['color', 'colorFormat'],
    ]);
    // tenant b does not see a's entries and may use the same text
    const seen = await client.rest(b, 'GET', '/people-settings/orga-tags');
    expect(seen.body.data).toEqual([]);
    expect(
      (await client.rest(b, 'POST', '/people-settings/orga-tags', { text: 'Partner' })).status,
    ).toBe(201);
  });

  it('S3 updates an entry; system entries 409; another tenant 404 unchanged', async () => {
    const e = (await client.rest(a, 'POST', '/people-settings/address-types', { text: 'Lab' })).body
      .data;
    const res = await client.rest(a, 'PUT', `/people-settings/address-types/${e.id}`, {
      text: 'Laboratory',
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data.text).toBe('Laboratory');
    const sys = await client.rest(a, 'PUT', `/people-settings/lifecycles/${LEAD}`, {
      text: 'Lead!',
    });
    expect(sys.status).toBe(409);
    const foreign = await client.rest(b, 'PUT', `/people-settings/address-types/${e.id}`, {
      text: 'Hijacked',
    });
    expect(foreign.status).toBe(404);
    const list = await client.rest(a, 'GET', '/people-settings/address-types?q=lab');
    expect(list.body.data.map((x: any) => x.text)).toEqual(['Laboratory']);
  });

  it('S4 deletes several by ids; an entry in use is 409 "used by N people" unless force', async () => {
    const p = await client.rest(a, 'POST', '/people', {
      firstname: 'Tagged',
      orgaTags: [{ text: 'Golfer' }],
    });
    const golfer = p.body.data.orgaTags[0].id;
    const free = (await client.rest(a, 'POST', '/people-settings/orga-tags', { text: 'Unused' }))
      .body.data.id;
    const foreign = await client.rest(b, 'DELETE', '/people-settings/orga-tags/batch', {
      ids: [free],
    });
    expect(foreign.status).toBe(404);
    const refused = await client.rest(a, 'DELETE', '/people-settings/orga-tags/batch', {
      ids: [free, golfer],
    });
    expect(refused.status).toBe(409);
    expectEnvelope(refused.body, 409);
    expect(refused.body.message).toContain('"Golfer" is used by 1 people');
    expect(refused.body.errors[0]).toMatchObject({ field: 'ids[1]', rule: 'entryInUse' });
    const forced = await client.rest(a, 'DELETE', '/people-settings/orga-tags/batch?force=true', {
      ids: [free, golfer],
    });
    expect(forced.status).toBe(200);
    expect(forced.body.data).toHaveLength(2);
    const read = await client.rest(a, 'GET', `/people/${p.body.data.id}`);
    expect(read.body.data.orgaTags).toEqual([]);
  });

  it('S5 deletes one entry; system entry 409; another tenant 404 unchanged', async () => {
    const e = (await client.rest(a, 'POST', '/people-settings/manager-roles', { text: 'Sponsor' }))
      .body.data;
    expect((await client.rest(b, 'DELETE', `/people-settings/manager-roles/${e.id}`)).status).toBe(
      404,
    );
    const res = await client.rest(a, 'DELETE', `/people-settings/manager-roles/${e.id}`);
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data).toMatchObject({ id: e.id, text: 'Sponsor' });
    const sys = await client.rest(a, 'DELETE', `/people-settings/lifecycles/${LEAD}`);
    expect(sys.status).toBe(409);
    expectEnvelope(sys.body, 409);
  });
});

describe('Relations R1-R9', () => {
  let anna: string;
  let ben: string;
  let cleo: string;

  beforeAll(async () => {
    anna = await person(a, 'Anna');
    ben = await person(a, 'Ben');
    cleo = await person(a, 'Cleo');
  });

  it('R9 lists the relation types with category and inverse; bad category 400', async () => {
    const res = await client.rest(a, 'GET', '/people-settings/relation-types');
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data).toContainEqual(
      expect.objectContaining({
        identifier: 'manager',
        category: 'business',
        inverseIdentifier: 'employee',
      }),
    );
    const bad = await client.rest(a, 'GET', '/people-settings/relation-types?category=x');
    expect(bad.status).toBe(400);
  });

  it('R2 relates two people and writes the inverse; self 400, duplicate 409, other tenant 404', async () => {
    const res = await client.rest(a, 'POST', `/people/${anna}/relations`, {
      personId: ben,
      type: { typeIdentifier: 'parent', isFavorite: true },
    });
    expect(res.status).toBe(201);
    expectEnvelope(res.body, 201);
    expect(res.body.data).toMatchObject({
      personId: ben,
      type: { typeIdentifier: 'parent', isFavorite: true },
      category: 'private',
      name: 'Ben E2e',
    });
    const inverse = await client.rest(a, 'GET', `/people/${ben}/relations`);
    expect(inverse.body.data).toEqual([
      expect.objectContaining({
        personId: anna,
        type: { typeIdentifier: 'child', isFavorite: false },
      }),
    ]);
    const self = await client.rest(a, 'POST', `/people/${anna}/relations`, {
      personId: anna,
      type: { typeIdentifier: 'friend' },
    });
    expect(self.status).toBe(400);
    expect(self.body.errors[0]).toMatchObject({ field: 'personId', rule: 'selfRelation' });
    const dup = await client.rest(a, 'POST', `/people/${anna}/relations`, {
      personId: ben,
      type: { typeIdentifier: 'parent' },
    });
    expect(dup.status).toBe(409);
    const outsider = await person(b, 'Outsider');
    const cross = await client.rest(a, 'POST', `/people/${anna}/relations`, {
      personId: outsider,
      type: { typeIdentifier: 'friend' },
    });
    expect(cross.status).toBe(404);
    const asB = await client.rest(b, 'POST', `/people/${anna}/relations`, {
      personId: outsider,
      type: { typeIdentifier: 'friend' },
    });
    expect(asB.status).toBe(404);
  });

  it('R1 lists the relations of a person by category; another tenant 404', async () => {
    await client.rest(a, 'POST', `/people/${anna}/relations`, {
      personId: cleo,
      type: { typeIdentifier: 'colleague' },
    });
    const all = await client.rest(a, 'GET', `/people/${anna}/relations`);
    expect(all.status).toBe(200);
    expect(all.body.metaData.totalResults).toBe(2);
    const business = await client.rest(a, 'GET', `/people/${anna}/relations?category=business`);
    expect(business.body.data.map((r: any) => r.personId)).toEqual([cleo]);
    expect((await client.rest(b, 'GET', `/people/${anna}/relations`)).status).toBe(404);
  });

  it('R3 updates a relation and its inverse; another tenant 404 unchanged', async () => {
    const rel = (await client.rest(a, 'GET', `/people/${anna}/relations?category=business`)).body
      .data[0];
    const foreign = await client.rest(b, 'PUT', `/people/${anna}/relations/${rel.id}`, {
      type: { typeIdentifier: 'manager' },
    });
    expect(foreign.status).toBe(404);
    const res = await client.rest(a, 'PUT', `/people/${anna}/relations/${rel.id}`, {
      type: { typeIdentifier: 'manager' },
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data.type.typeIdentifier).toBe('manager');
    const other = await client.rest(a, 'GET', `/people/${cleo}/relations`);
    expect(other.body.data[0].type.typeIdentifier).toBe('employee');
    const unknown = await client.rest(a, 'PUT', `/people/${anna}/relations/${randomUUID()}`, {
      type: { isFavorite: true },
    });
    expect(unknown.status).toBe(404);
  });

  it('R4 removes a relation in both directions; another tenant 404', async () => {
    const rel = (await client.rest(a, 'GET', `/people/${anna}/relations?category=business`)).body
      .data[0];
    expect((await client.rest(b, 'DELETE', `/people/${anna}/relations/${rel.id}`)).status).toBe(
      404,
    );
    const res = await client.rest(a, 'DELETE', `/people/${anna}/relations/${rel.id}`);
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect((await client.rest(a, 'GET', `/people/${cleo}/relations`)).body.data).toEqual([]);
    expect((await client.rest(a, 'DELETE', `/people/${anna}/relations/${rel.id}`)).status).toBe(
      404,
    );
  });

  it('R5 creates several relations, all or nothing; invalid items named by index', async () => {
    const d = await person(a, 'Dan');
    const bad = await client.rest(a, 'POST', `/people/${d}/relations/batch`, [
      { personId: ben, type: { typeIdentifier: 'friend' } },
      { personId: cleo, type: { typeIdentifier: 'frenemy' } },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: '[1].type.typeIdentifier', rule: 'isIn' });
    expect((await client.rest(a, 'GET', `/people/${d}/relations`)).body.data).toEqual([]);
    const res = await client.rest(a, 'POST', `/people/${d}/relations/batch`, [
      { personId: ben, type: { typeIdentifier: 'friend' } },
      { personId: cleo, type: { typeIdentifier: 'sibling' } },
    ]);
    expect(res.status).toBe(201);
    expectEnvelope(res.body, 201);
    expect(res.body.data).toHaveLength(2);
    expect(
      (
        await client.rest(b, 'POST', `/people/${d}/relations/batch`, [
          { personId: ben, type: { typeIdentifier: 'colleague' } },
        ])
      ).status,
    ).toBe(404);
  });

  it('R6 updates relations of a person; unknown id 404 and nothing changed', async () => {
    const d = await person(a, 'Eve');
    const created = (
      await client.rest(a, 'POST', `/people/${d}/relations/batch`, [
        { personId: ben, type: { typeIdentifier: 'friend' } },
        { personId: cleo, type: { typeIdentifier: 'friend' } },
      ])
    ).body.data;
    const missing = await client.rest(a, 'PUT', `/people/${d}/relations/batch`, [
      { id: created[0].id, type: { isFavorite: true } },
      { id: randomUUID(), type: { isFavorite: true } },
    ]);
    expect(missing.status).toBe(404);
    const foreign = await client.rest(b, 'PUT', `/people/${d}/relations/batch`, [
      { id: created[0].id, type: { isFavorite: true } },
    ]);
    expect(foreign.status).toBe(404);
    expect(
      (await client.rest(a, 'GET', `/people/${d}/relations`)).body.data.every(
        (r: any) => !r.type.isFavorite,
      ),
    ).toBe(true);
    const res = await client.rest(a, 'PUT', `/people/${d}/relations/batch`, [
      { id: created[0].id, type: { isFavorite: true } },
      { id: created[1].id, type: { typeIdentifier: 'spouse' } },
    ]);
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data.map((r: any) => r.type)).toEqual([
      { typeIdentifier: 'friend', isFavorite: true },
      { typeIdentifier: 'spouse', isFavorite: false },
    ]);
  });

  it('R7 removes several relations; malformed ids 400; another tenant 404', async () => {
    const d = await person(a, 'Finn');
    const created = (
      await client.rest(a, 'POST', `/people/${d}/relations/batch`, [
        { personId: ben, type: { typeIdentifier: 'mentor' } },
        { personId: cleo, type: { typeIdentifier: 'mentee' } },
      ])
    ).body.data;
    const ids = created.map((r: any) => r.id);
    const bad = await client.rest(a, 'DELETE', `/people/${d}/relations/batch`, { ids: ['x'] });
    expect(bad.status).toBe(400);
    expect((await client.rest(b, 'DELETE', `/people/${d}/relations/batch`, { ids })).status).toBe(
      404,
    );
    const res = await client.rest(a, 'DELETE', `/people/${d}/relations/batch`, { ids });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data).toHaveLength(2);
    expect(
      (await client.rest(a, 'GET', `/people/${ben}/relations?category=business`)).body.data,
    ).toEqual([]);
  });

  it('R8 validates a relation without writing; unknown person 404', async () => {
    const g = await person(a, 'Gil');
    const ok = await client.rest(a, 'POST', `/people/${g}/relations/validate`, {
      personId: ben,
      type: { typeIdentifier: 'friend' },
    });
    expect(ok.status).toBe(200);
    expectEnvelope(ok.body, 200);
    expect(ok.body.data).toEqual({ valid: true, errors: [] });
    const invalid = await client.rest(a, 'POST', `/people/${g}/relations/validate`, {
      personId: g,
      type: { typeIdentifier: 'friend' },
    });
    expect(invalid.body.data).toEqual({
      valid: false,
      errors: [expect.objectContaining({ field: 'personId', rule: 'selfRelation' })],
    });
    expect((await client.rest(a, 'GET', `/people/${g}/relations`)).body.data).toEqual([]);
    expect((await client.rest(b, 'POST', `/people/${g}/relations/validate`, {})).status).toBe(404);
  });
});

describe('GraphQL through the gateway', () => {
  it('peopleSettings, relationTypes, relation mutations and personRelations', async () => {
    const created = await client.graphql(
      a,
      `mutation { createPeopleSettingsEntries(list: "personality-tags", input: [{ text: "Curious", category: "Big Five" }]) { id text category } }`,
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createPeopleSettingsEntries[0]).toMatchObject({
      text: 'Curious',
      category: 'Big Five',
    });
    const page = await client.graphql(
      a,
      `{ peopleSettings(list: "personality-tags") { totalResults items { text } } }`,
    );
    expect(page.body.data.peopleSettings.totalResults).toBe(1);
    const types = await client.graphql(
      a,
      `{ relationTypes(category: "business") { identifier inverseIdentifier } }`,
    );
    expect(types.body.data.relationTypes).toContainEqual({
      identifier: 'assistant',
      inverseIdentifier: 'assisted-person',
    });

    const p = await person(a, 'Graph');
    const q = await person(a, 'Friend');
    const rel = await client.graphql(
      a,
      `mutation($p: ID!, $q: ID!) { createPersonRelation(personId: $p, input: { personId: $q, type: { typeIdentifier: "friend" } }) { id personId category } }`,
      { p, q },
    );
    expect(rel.body.data.createPersonRelation).toMatchObject({ personId: q, category: 'private' });
    const list = await client.graphql(
      a,
      `query($q: ID!) { personRelations(personId: $q) { totalResults items { personId type { typeIdentifier } } } }`,
      { q },
    );
    expect(list.body.data.personRelations).toEqual({
      totalResults: 1,
      items: [{ personId: p, type: { typeIdentifier: 'friend' } }],
    });
    const foreign = await client.graphql(
      b,
      `query($q: ID!) { personRelations(personId: $q) { totalResults } }`,
      { q },
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const dup = await client.graphql(
      a,
      `mutation($p: ID!, $q: ID!) { createPersonRelation(personId: $p, input: { personId: $q, type: { typeIdentifier: "friend" } }) { id } }`,
      { p, q },
    );
    expect(dup.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
  });
});
