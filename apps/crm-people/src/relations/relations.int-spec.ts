import { randomUUID } from 'node:crypto';
import { ServiceTestClient, tenantHeaders } from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import { inTenant, overAllTenants } from '../test/tenant-scope';
import { startCrmPeople, RunningService } from '../test/service-harness';

// R1-R8 against the real service: the inverse is written, changed and removed with each relation
// in one transaction; batches are all or nothing; another tenant's ids are 404 and change nothing.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

// slow when the machine is busy (2 cores shared with other test runs)
jest.setTimeout(30000);

let svc: RunningService;
let db: PrismaService;

const { rest: call, graphql: gql } = new ServiceTestClient(() => svc.url, tenantHeaders(A));

async function person(firstname: string, lastname = 'Test', tenant = A): Promise<string> {
  const res = await call('POST', '/people', { firstname, lastname }, tenantHeaders(tenant));
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const relate = (from: string, to: string, typeIdentifier: string, isFavorite?: boolean) =>
  call('POST', `/people/${from}/relations`, { personId: to, type: { typeIdentifier, isFavorite } });

/** The relations of the people in any tenant. */
const rows = (ids: string[]) =>
  overAllTenants(() =>
    db.personRelation.findMany({
      where: { OR: [{ fromPersonId: { in: ids } }, { toPersonId: { in: ids } }] },
    }),
  );

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_r_relations');
  db = svc.app.get(PrismaService);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

describe('R2 POST /people/{id}/relations', () => {
  it('writes the relation and its inverse, linked by inverseId', async () => {
    const anna = await person('Anna', 'Berg');
    const ben = await person('Ben', 'Berg');
    const res = await relate(anna, ben, 'parent', true);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      personId: ben,
      type: { typeIdentifier: 'parent', isFavorite: true },
      category: 'private',
      typeName: 'Parent',
      name: 'Ben Berg',
    });
    const stored = await rows([anna, ben]);
    expect(stored).toHaveLength(2);
    const own = stored.find((r) => r.fromPersonId === anna)!;
    const inverse = stored.find((r) => r.fromPersonId === ben)!;
    expect(own).toMatchObject({
      id: res.body.data.id,
      toPersonId: ben,
      typeIdentifier: 'parent',
      inverseId: inverse.id,
    });
    expect(inverse).toMatchObject({
      toPersonId: anna,
      typeIdentifier: 'child',
      isFavorite: false,
      inverseId: own.id,
    });
    // the person resource shows the relation in the seed's shape
    const read = (await call('GET', `/people/${ben}`)).body.data;
    expect(read.relations).toEqual([
      { id: inverse.id, personId: anna, type: { typeIdentifier: 'child', isFavorite: false } },
    ]);
  });

  it('refuses oneself (400), an unknown type (400), a duplicate (409), unknown and foreign people (404)', async () => {
    const p = await person('Self');
    const q = await person('Other');
    const self = await relate(p, p, 'friend');
    expect(self.status).toBe(400);
    expect(self.body.errors).toEqual([
      {
        field: 'personId',
        rule: 'selfRelation',
        message: 'personId: a person cannot be related to itself',
      },
    ]);
    const type = await relate(p, q, 'enemy');
    expect(type.status).toBe(400);
    expect(type.body.errors[0]).toMatchObject({ field: 'type.typeIdentifier', rule: 'isIn' });
    const missing = await call('POST', `/people/${p}/relations`, { personId: q });
    expect(missing.body.errors[0]).toMatchObject({ field: 'type', rule: 'isDefined' });
    expect((await relate(p, q, 'friend')).status).toBe(201);
    const dup = await relate(p, q, 'friend');
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('The relation of type friend to this person already exists');
    // the inverse direction of a symmetric type is the same relation
    expect((await relate(q, p, 'friend')).status).toBe(409);
    // another type between the same people is fine
    expect((await relate(p, q, 'colleague')).status).toBe(201);
    const foreign = await person('Foreign', 'Person', B);
    const cross = await relate(p, foreign, 'friend');
    expect(cross.status).toBe(404);
    expect(cross.body.errors[0]).toMatchObject({ field: 'personId', rule: 'personNotFound' });
    expect((await relate(foreign, p, 'friend')).status).toBe(404);
    expect((await relate(randomUUID(), p, 'friend')).status).toBe(404);
    expect((await relate('not-a-uuid', p, 'friend')).status).toBe(404);
    expect(
      await overAllTenants(() =>
        db.personRelation.count({
          where: { OR: [{ fromPersonId: foreign }, { toPersonId: foreign }] },
        }),
      ),
    ).toBe(0);
  });

  it('answers in German', async () => {
    const p = await person('Deutsch');
    const res = await call(
      'POST',
      `/people/${p}/relations`,
      { personId: p, type: { typeIdentifier: 'friend' } },
      tenantHeaders(A, { 'Accept-Language': 'de' }),
    );
    expect(res.body.errors[0].message).toBe(
      'personId: Eine Person kann nicht mit sich selbst in Beziehung stehen',
    );
    const q = await person('Zweite');
    const ok = await call(
      'POST',
      `/people/${p}/relations`,
      { personId: q, type: { typeIdentifier: 'manager' } },
      tenantHeaders(A, { 'Accept-Language': 'de' }),
    );
    expect(ok.body.data).toMatchObject({ category: 'business', typeName: 'Vorgesetzte/r' });
  });
});

describe('R1 GET /people/{id}/relations', () => {
  it('lists with category filter, paging, q and sort', async () => {
    const me = await person('Mia', 'Main');
    const others = await Promise.all(
      [
        ['Carl', 'Adler'],
        ['Dora', 'Zander'],
        ['Emil', 'Meier'],
      ].map(([f, l]) => person(f, l)),
    );
    expect((await relate(me, others[0], 'colleague')).status).toBe(201);
    expect((await relate(me, others[1], 'sibling', true)).status).toBe(201);
    expect((await relate(me, others[2], 'manager')).status).toBe(201);

    const all = await call('GET', `/people/${me}/relations`);
    expect(all.status).toBe(200);
    expect(all.body.metaData.totalResults).toBe(3);
    // favorites first, then oldest first
    expect(all.body.data.map((r: any) => r.name)).toEqual([
      'Dora Zander',
      'Carl Adler',
      'Emil Meier',
    ]);
    const business = await call('GET', `/people/${me}/relations?category=business`);
    expect(business.body.data.map((r: any) => r.type.typeIdentifier).sort()).toEqual([
      'colleague',
      'manager',
    ]);
    const priv = await call('GET', `/people/${me}/relations?category=private`);
    expect(priv.body.data).toEqual([
      expect.objectContaining({ personId: others[1], category: 'private' }),
    ]);
    const page = await call('GET', `/people/${me}/relations?sort=lastname&page=2&pageSize=2`);
    expect(page.body.metaData.totalResults).toBe(3);
    expect(page.body.data.map((r: any) => r.name)).toEqual(['Dora Zander']);
    const q = await call('GET', `/people/${me}/relations?q=meier`);
    expect(q.body.data.map((r: any) => r.name)).toEqual(['Emil Meier']);
    expect((await call('GET', `/people/${me}/relations?category=family`)).status).toBe(400);
    // the inverse shows on the other side
    const other = await call('GET', `/people/${others[2]}/relations`);
    expect(other.body.data).toEqual([
      expect.objectContaining({
        personId: me,
        type: { typeIdentifier: 'employee', isFavorite: false },
      }),
    ]);
  });

  it('404 for an unknown or foreign person', async () => {
    const mine = await person('Hidden');
    expect(
      (await call('GET', `/people/${mine}/relations`, undefined, tenantHeaders(B))).status,
    ).toBe(404);
    expect((await call('GET', `/people/${randomUUID()}/relations`)).status).toBe(404);
  });
});

describe('R3 PUT / R4 DELETE /people/{id}/relations/{relationId}', () => {
  it('a new type changes the inverse; isFavorite stays on its own side', async () => {
    const a = await person('Up');
    const b = await person('Down');
    const rel = (await relate(a, b, 'parent')).body.data;
    const res = await call('PUT', `/people/${a}/relations/${rel.id}`, {
      type: { typeIdentifier: 'mentor', isFavorite: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: rel.id,
      type: { typeIdentifier: 'mentor', isFavorite: true },
      category: 'business',
    });
    const inverse = (await call('GET', `/people/${b}/relations`)).body.data;
    expect(inverse).toEqual([
      expect.objectContaining({
        personId: a,
        type: { typeIdentifier: 'mentee', isFavorite: false },
      }),
    ]);
    const fav = await call('PUT', `/people/${a}/relations/${rel.id}`, {
      type: { isFavorite: false },
    });
    expect(fav.body.data.type).toEqual({ typeIdentifier: 'mentor', isFavorite: false });
  });

  it("refuses a type that exists already (409), unknown, foreign and other people's relations (404)", async () => {
    const a = await person('Two');
    const b = await person('Ties');
    const friend = (await relate(a, b, 'friend')).body.data;
    await relate(a, b, 'colleague');
    const clash = await call('PUT', `/people/${a}/relations/${friend.id}`, {
      type: { typeIdentifier: 'colleague' },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.errors[0]).toMatchObject({ field: 'type.typeIdentifier', rule: 'duplicate' });
    // the relation seen from b's side is b's, not a's
    expect(
      (await call('PUT', `/people/${b}/relations/${friend.id}`, { type: { isFavorite: true } }))
        .status,
    ).toBe(404);
    expect(
      (await call('PUT', `/people/${a}/relations/${randomUUID()}`, { type: { isFavorite: true } }))
        .status,
    ).toBe(404);
    expect(
      (await call('PUT', `/people/${a}/relations/nope`, { type: { isFavorite: true } })).status,
    ).toBe(404);
    const foreign = await call(
      'PUT',
      `/people/${a}/relations/${friend.id}`,
      { type: { typeIdentifier: 'spouse' } },
      tenantHeaders(B),
    );
    expect(foreign.status).toBe(404);
    expect(
      (await inTenant(A, () => db.personRelation.findUnique({ where: { id: friend.id } })))!
        .typeIdentifier,
    ).toBe('friend');
    const bad = await call('PUT', `/people/${a}/relations/${friend.id}`, {
      type: { typeIdentifier: 'x' },
    });
    expect(bad.status).toBe(400);
    expect((await call('PUT', `/people/${a}/relations/${friend.id}`, { personId: b })).status).toBe(
      400,
    );
  });

  it('R4 removes both directions; another tenant gets 404 and nothing goes', async () => {
    const a = await person('Gone');
    const b = await person('Too');
    const rel = (await relate(a, b, 'assistant')).body.data;
    expect(
      (await call('DELETE', `/people/${a}/relations/${rel.id}`, undefined, tenantHeaders(B)))
        .status,
    ).toBe(404);
    expect(await rows([a, b])).toHaveLength(2);
    const res = await call('DELETE', `/people/${a}/relations/${rel.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: rel.id, type: { typeIdentifier: 'assistant' } });
    expect(await rows([a, b])).toHaveLength(0);
    expect((await call('DELETE', `/people/${a}/relations/${rel.id}`)).status).toBe(404);
  });

  it('heals a relation written without its inverse', async () => {
    const a = await person('Legacy');
    const b = await person('Data');
    const lone = await inTenant(A, () =>
      db.personRelation.create({
        data: { tenantId: A, fromPersonId: a, toPersonId: b, typeIdentifier: 'friend' },
      }),
    );
    const res = await call('PUT', `/people/${a}/relations/${lone.id}`, {
      type: { typeIdentifier: 'manager' },
    });
    expect(res.status).toBe(200);
    const stored = await rows([a, b]);
    expect(stored.map((r) => r.typeIdentifier).sort()).toEqual(['employee', 'manager']);
    expect((await call('DELETE', `/people/${a}/relations/${lone.id}`)).status).toBe(200);
    expect(await rows([a, b])).toHaveLength(0);
  });
});

describe('R5-R7 batches', () => {
  it('R5 creates several, all or nothing, naming invalid items by index', async () => {
    const me = await person('Batch');
    const [x, y] = [await person('X'), await person('Y')];
    const bad = await call('POST', `/people/${me}/relations/batch`, [
      { personId: x, type: { typeIdentifier: 'friend' } },
      { personId: 'nope', type: { typeIdentifier: 'friend' } },
      { personId: y, type: { typeIdentifier: 'alien' } },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual([
      '[1].personId',
      '[2].type.typeIdentifier',
    ]);
    const self = await call('POST', `/people/${me}/relations/batch`, [
      { personId: x, type: { typeIdentifier: 'friend' } },
      { personId: me, type: { typeIdentifier: 'friend' } },
    ]);
    expect(self.status).toBe(400);
    expect(self.body.errors[0]).toMatchObject({ field: '[1].personId', rule: 'selfRelation' });
    const unknown = randomUUID();
    const missing = await call('POST', `/people/${me}/relations/batch`, [
      { personId: x, type: { typeIdentifier: 'friend' } },
      { personId: unknown, type: { typeIdentifier: 'friend' } },
    ]);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0]).toMatchObject({ field: '[1].personId', rule: 'personNotFound' });
    const twice = await call('POST', `/people/${me}/relations/batch`, [
      { personId: x, type: { typeIdentifier: 'friend' } },
      { personId: x, type: { typeIdentifier: 'friend' } },
    ]);
    expect(twice.status).toBe(409);
    expect(await rows([me])).toHaveLength(0);

    const ok = await call('POST', `/people/${me}/relations/batch`, [
      { personId: x, type: { typeIdentifier: 'friend' } },
      { personId: y, type: { typeIdentifier: 'child', isFavorite: true } },
    ]);
    expect(ok.status).toBe(201);
    expect(ok.body.data.map((r: any) => [r.personId, r.type.typeIdentifier])).toEqual([
      [x, 'friend'],
      [y, 'child'],
    ]);
    expect(await rows([me])).toHaveLength(4);
    expect((await call('POST', `/people/${me}/relations/batch`, [])).status).toBe(400);
    const big = await call(
      'POST',
      `/people/${me}/relations/batch`,
      Array.from({ length: 1001 }, () => ({ personId: x, type: { typeIdentifier: 'friend' } })),
    );
    expect(big.body.errors[0]).toMatchObject({ field: 'body', rule: 'arrayMaxSize' });
  });

  it('R6 updates several; R7 removes several with their inverses', async () => {
    const me = await person('Many');
    const [x, y] = [await person('Xa'), await person('Ya')];
    const created = (
      await call('POST', `/people/${me}/relations/batch`, [
        { personId: x, type: { typeIdentifier: 'friend' } },
        { personId: y, type: { typeIdentifier: 'colleague' } },
      ])
    ).body.data;
    const dupIds = await call('PUT', `/people/${me}/relations/batch`, [
      { id: created[0].id, type: { isFavorite: true } },
      { id: created[0].id, type: { isFavorite: false } },
    ]);
    expect(dupIds.status).toBe(400);
    expect(dupIds.body.errors[0]).toMatchObject({ field: '[1].id', rule: 'duplicateItem' });
    const unknown = await call('PUT', `/people/${me}/relations/batch`, [
      { id: created[0].id, type: { typeIdentifier: 'sibling' } },
      { id: randomUUID(), type: { isFavorite: true } },
    ]);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ field: '[1].id', rule: 'relationNotFound' });
    expect(
      (await inTenant(A, () => db.personRelation.findUnique({ where: { id: created[0].id } })))!
        .typeIdentifier,
    ).toBe('friend');

    const res = await call('PUT', `/people/${me}/relations/batch`, [
      { id: created[0].id, type: { typeIdentifier: 'grandchild' } },
      { id: created[1].id, type: { isFavorite: true } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => r.type)).toEqual([
      { typeIdentifier: 'grandchild', isFavorite: false },
      { typeIdentifier: 'colleague', isFavorite: true },
    ]);
    expect((await call('GET', `/people/${x}/relations`)).body.data[0].type.typeIdentifier).toBe(
      'grandparent',
    );

    const foreign = await call(
      'DELETE',
      `/people/${me}/relations/batch`,
      { ids: [created[0].id] },
      tenantHeaders(B),
    );
    expect(foreign.status).toBe(404);
    const partly = await call('DELETE', `/people/${me}/relations/batch`, {
      ids: [created[0].id, randomUUID()],
    });
    expect(partly.status).toBe(404);
    expect(await rows([me])).toHaveLength(4);
    const del = await call('DELETE', `/people/${me}/relations/batch`, {
      ids: created.map((r: any) => r.id),
    });
    expect(del.status).toBe(200);
    expect(del.body.data).toHaveLength(2);
    expect(await rows([me])).toHaveLength(0);
    expect((await call('DELETE', `/people/${me}/relations/batch`, { ids: [] })).status).toBe(400);
  });
});

describe('R8 POST /people/{id}/relations/validate', () => {
  it('answers 200 { valid, errors } running every check of R2 without writing', async () => {
    const me = await person('Check');
    const x = await person('Target');
    const ok = await call('POST', `/people/${me}/relations/validate`, {
      personId: x,
      type: { typeIdentifier: 'friend' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ valid: true, errors: [] });
    expect(await rows([me])).toHaveLength(0);
    const bad = await call('POST', `/people/${me}/relations/validate`, {
      personId: 'x',
      type: { typeIdentifier: 'nope' },
      extra: 1,
    });
    expect(bad.status).toBe(200);
    expect(bad.body.data.valid).toBe(false);
    expect(bad.body.data.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['extra', 'whitelistValidation'],
      ['personId', 'isUuid'],
      ['type.typeIdentifier', 'isIn'],
    ]);
    const self = await call('POST', `/people/${me}/relations/validate`, {
      personId: me,
      type: { typeIdentifier: 'friend' },
    });
    expect(self.body.data.errors).toEqual([
      {
        field: 'personId',
        rule: 'selfRelation',
        message: 'personId: a person cannot be related to itself',
      },
    ]);
    const missing = await call('POST', `/people/${me}/relations/validate`, {
      personId: randomUUID(),
      type: { typeIdentifier: 'friend' },
    });
    expect(missing.body.data.errors[0]).toMatchObject({
      field: 'personId',
      rule: 'personNotFound',
    });
    await relate(me, x, 'friend');
    const dup = await call('POST', `/people/${me}/relations/validate`, {
      personId: x,
      type: { typeIdentifier: 'friend' },
    });
    expect(dup.body.data.errors[0]).toMatchObject({
      field: 'type.typeIdentifier',
      rule: 'duplicate',
    });
    expect((await call('POST', `/people/${randomUUID()}/relations/validate`, {})).status).toBe(404);
    expect(
      (await call('POST', `/people/${me}/relations/validate`, {}, tenantHeaders(B))).status,
    ).toBe(404);
  });
});

describe('GraphQL', () => {
  it('every relation operation, with the REST rules', async () => {
    const me = await person('Graph');
    const x = await person('Ql');
    const y = await person('Node');
    const FIELDS = 'id personId type { typeIdentifier isFavorite } category typeName name';
    const created = await gql(
      `mutation($p: ID!, $input: CreatePersonRelationInput!) { createPersonRelation(personId: $p, input: $input) { ${FIELDS} } }`,
      { p: me, input: { personId: x, type: { typeIdentifier: 'spouse' } } },
    );
    expect(created.body.errors).toBeUndefined();
    const rel = created.body.data.createPersonRelation;
    expect(rel).toMatchObject({
      personId: x,
      category: 'private',
      typeName: 'Spouse',
      name: 'Ql Test',
    });
    const many = await gql(
      `mutation($p: ID!, $input: [CreatePersonRelationInput!]!) { createPersonRelations(personId: $p, input: $input) { id } }`,
      { p: me, input: [{ personId: y, type: { typeIdentifier: 'friend' } }] },
    );
    expect(many.body.data.createPersonRelations).toHaveLength(1);
    const list = await gql(
      `query($p: ID!) { personRelations(personId: $p, category: "private", sort: "lastname") { totalResults items { personId type { typeIdentifier } } } }`,
      { p: me },
    );
    expect(list.body.data.personRelations.totalResults).toBe(2);
    const updated = await gql(
      `mutation($p: ID!, $r: ID!) { updatePersonRelation(personId: $p, relationId: $r, input: { type: { typeIdentifier: "partner" } }) { type { typeIdentifier } } }`,
      { p: me, r: rel.id },
    );
    expect(updated.body.data.updatePersonRelation.type.typeIdentifier).toBe('partner');
    const batch = await gql(
      `mutation($p: ID!, $input: [UpdatePersonRelationItemInput!]!) { updatePersonRelations(personId: $p, input: $input) { type { isFavorite } } }`,
      { p: me, input: [{ id: rel.id, type: { isFavorite: true } }] },
    );
    expect(batch.body.data.updatePersonRelations).toEqual([{ type: { isFavorite: true } }]);
    const valid = await gql(
      `mutation($p: ID!) { validatePersonRelation(personId: $p, input: { personId: $p, type: { typeIdentifier: "friend" } }) { valid errors { field rule message } } }`,
      { p: me },
    );
    expect(valid.body.data.validatePersonRelation).toEqual({
      valid: false,
      errors: [
        {
          field: 'personId',
          rule: 'selfRelation',
          message: 'personId: a person cannot be related to itself',
        },
      ],
    });
    const self = await gql(
      `mutation($p: ID!) { createPersonRelation(personId: $p, input: { personId: $p, type: { typeIdentifier: "friend" } }) { id } }`,
      { p: me },
    );
    expect(self.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    const foreign = await gql(
      `query($p: ID!) { personRelations(personId: $p) { totalResults } }`,
      { p: me },
      tenantHeaders(B),
    );
    expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
    const removed = await gql(
      `mutation($p: ID!, $r: ID!) { deletePersonRelation(personId: $p, relationId: $r) { id } }`,
      { p: me, r: rel.id },
    );
    expect(removed.body.data.deletePersonRelation.id).toBe(rel.id);
    const rest = many.body.data.createPersonRelations.map((r: any) => r.id);
    const removedMany = await gql(
      `mutation($p: ID!, $ids: [ID!]!) { deletePersonRelations(personId: $p, ids: $ids) { id } }`,
      {
        p: me,
        ids: rest,
      },
    );
    expect(removedMany.body.data.deletePersonRelations).toEqual([{ id: rest[0] }]);
    expect(await rows([me])).toHaveLength(0);
  });
});
