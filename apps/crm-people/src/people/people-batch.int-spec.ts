import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { peopleTestClient } from './test/people-test-client';

// P6 delete, P8-P10 batches, P15 validate: REST and GraphQL on a real database.

const LEAD = '00000000-0000-4000-a000-000000000101';
const CUSTOMER = '00000000-0000-4000-a000-000000000103';
const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let t: ReturnType<typeof peopleTestClient>;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_p_batch');
  t = peopleTestClient(svc);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const count = async (sql: string, params: unknown[] = []) =>
  (await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;
/** The deletion events naming the person (its creation wrote a people.created event too). */
const events = (personId: string) =>
  t.sql<{ tenantId: string; subject: string; payload: { tenantId: string; personIds: string[] } }>(
    `SELECT "tenantId", subject, payload FROM "OutboxEvent"
     WHERE payload->'personIds' ? $1 AND subject <> 'crm-people.people.created'`,
    [personId],
  );
const fields = (body: { errors: { field: string; rule: string }[] }) =>
  body.errors.map((e) => `${e.field}:${e.rule}`);

describe('P6 DELETE /people/{id}', () => {
  it('deletes the person with what hangs on it and writes one PeopleDeletedEvent', async () => {
    const id = await t.person(A, {
      firstname: 'Gone',
      orgaTags: [{ text: 'T' }],
      lifecycle: { lifecycleId: LEAD },
    });
    const other = await t.person(A, { firstname: 'Stays' });
    await t.rest(A, 'PUT', `/people/${id}/notes`, { note: 'bye' });
    await t.card(A, id, { business: 'Card Corp' });
    // a relation in both directions and a touchpoint both take part in
    await t.sql(
      `INSERT INTO "PersonRelation" (id, "tenantId", "fromPersonId", "toPersonId", "typeIdentifier")
       VALUES (gen_random_uuid(), $1, $2, $3, 'colleague'), (gen_random_uuid(), $1, $3, $2, 'colleague')`,
      [A, id, other],
    );
    const [tp] = await t.sql<{ id: string }>(
      `INSERT INTO "Touchpoint" (id, "tenantId", type, subject, start, "dateModified")
       VALUES (gen_random_uuid(), $1, 'call', 'Hello', now(), now()) RETURNING id::text`,
      [A],
    );
    await t.sql(
      `INSERT INTO "TouchpointPerson" ("tenantId", "touchpointId", "personId") VALUES ($1, $2, $3), ($1, $2, $4)`,
      [A, tp.id, id, other],
    );

    const res = await t.rest(A, 'DELETE', `/people/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deletedIds: [id] });
    expect((await t.rest(A, 'GET', `/people/${id}`)).status).toBe(404);
    expect((await t.rest(A, 'GET', `/people/${other}`)).body.data.relations).toEqual([]);
    expect(await count(`"BusinessCard" WHERE "personId" = $1`, [id])).toBe(0);
    expect(await count(`"TouchpointPerson" WHERE "touchpointId" = $1`, [tp.id])).toBe(1);
    expect(await count(`"Touchpoint" WHERE id = $1`, [tp.id])).toBe(1);
    expect(await events(id)).toEqual([
      {
        tenantId: A,
        subject: 'crm-people.people.deleted',
        payload: { tenantId: A, personIds: [id] },
      },
    ]);
  });

  it('answers 404 for unknown, malformed and foreign ids and writes no event', async () => {
    const id = await t.person(A, { firstname: 'Kept' });
    expect((await t.rest(A, 'DELETE', `/people/${randomUUID()}`)).status).toBe(404);
    expect((await t.rest(A, 'DELETE', '/people/123')).status).toBe(404);
    const foreign = await t.rest(B, 'DELETE', `/people/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ data: null, statusCode: 404 });
    expect((await t.rest(A, 'GET', `/people/${id}`)).status).toBe(200);
    expect(await events(id)).toEqual([]);
  });
});

describe('P10 DELETE /people/batch', () => {
  it('deletes all given people with one event naming them all', async () => {
    const ids = [await t.person(A, { firstname: 'D1' }), await t.person(A, { firstname: 'D2' })];
    const keep = await t.person(A, { firstname: 'D3' });
    const res = await t.rest(A, 'DELETE', '/people/batch', { ids: [...ids, ids[0]] });
    expect(res.status).toBe(200);
    expect(res.body.data.deletedIds.sort()).toEqual([...ids].sort());
    const [event, ...more] = await events(ids[0]);
    expect(more).toEqual([]);
    expect(event.payload.personIds.sort()).toEqual([...ids].sort());
    expect((await t.rest(A, 'GET', `/people/${keep}`)).status).toBe(200);
  });

  it('refuses unknown, malformed and foreign ids by index and deletes none', async () => {
    const mine = await t.person(A, { firstname: 'Survivor' });
    const theirs = await t.person(B, { firstname: 'Foreign' });
    const res = await t.rest(A, 'DELETE', '/people/batch', {
      ids: [mine, randomUUID(), 'nope', theirs],
    });
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual([
      'ids[2]:isUuid',
      'ids[1]:unknownPerson',
      'ids[3]:unknownPerson',
    ]);
    expect(res.body.errors[1].message).toBe('ids[1] does not name a person of this tenant');
    expect((await t.rest(A, 'GET', `/people/${mine}`)).status).toBe(200);
    expect((await t.rest(B, 'GET', `/people/${theirs}`)).status).toBe(200);
    expect(await events(mine)).toEqual([]);
  });

  it('takes at most 1000 ids and at least one', async () => {
    const many = await t.rest(A, 'DELETE', '/people/batch', {
      ids: Array.from({ length: 1001 }, () => randomUUID()),
    });
    expect(many.status).toBe(400);
    expect(many.body.errors).toEqual([
      { field: 'ids', rule: 'arrayMaxSize', message: 'ids must hold at most 1000 elements' },
    ]);
    expect((await t.rest(A, 'DELETE', '/people/batch', { ids: [] })).status).toBe(400);
    expect((await t.rest(A, 'DELETE', '/people/batch', {})).status).toBe(400);
  });
});

describe('P9 POST /people/batch', () => {
  it('creates all people in order, sharing tags created by text', async () => {
    const tag = `Batch-${randomUUID()}`;
    const res = await t.rest(A, 'POST', '/people/batch', [
      { firstname: 'B1', orgaTags: [{ text: tag }], lifecycle: { lifecycleId: CUSTOMER } },
      {
        firstname: 'B2',
        orgaTags: [{ text: tag.toUpperCase() }],
        personalities: [{ text: 'Kind' }],
      },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.metaData.totalResults).toBe(2);
    const [b1, b2] = res.body.data;
    expect(b1).toMatchObject({
      firstname: 'B1',
      createdBy: 'test-suite',
      lifecycle: { lifecycleId: CUSTOMER, text: 'Customer' },
      lifecycleHistories: [{ lifecycleId: CUSTOMER }],
    });
    expect(b2.orgaTags).toEqual(b1.orgaTags);
    expect(b2.personalities[0].text).toBe('Kind');
    expect((await t.rest(A, 'GET', `/people/${b2.id}`)).body.data).toEqual(b2);
  });

  it('writes nothing when one item is bad, and lists every bad item by index', async () => {
    const marker = `Atomic-${randomUUID()}`;
    const res = await t.rest(A, 'POST', '/people/batch', [
      { lastname: marker, orgaTags: [{ text: marker }] },
      { lastname: marker, firstname: 'x'.repeat(201) },
      { lastname: marker, lifecycle: { lifecycleId: randomUUID() } },
      { lastname: marker, personalities: [{ text: 'ok' }, { id: randomUUID() }] },
      'not a person',
    ]);
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual([
      '[1].firstname:maxLength',
      '[4]:isObject',
      '[2].lifecycle.lifecycleId:unknownEntry',
      '[3].personalities[1].id:unknownEntry',
    ]);
    expect(await count(`"Person" WHERE lastname = $1`, [marker])).toBe(0);
    expect(await count(`"SettingsEntry" WHERE text = $1`, [marker])).toBe(0);
  });

  it('accepts 1000 people and refuses 1001', async () => {
    const marker = `Bulk-${randomUUID()}`;
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ lastname: marker, firstname: `P${i}` }));
    const tooMany = await t.rest(A, 'POST', '/people/batch', items(1001));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([
      { field: 'body', rule: 'arrayMaxSize', message: 'body must hold at most 1000 elements' },
    ]);
    expect(await count(`"Person" WHERE lastname = $1`, [marker])).toBe(0);
    const ok = await t.rest(A, 'POST', '/people/batch', items(1000));
    expect(ok.status).toBe(201);
    expect(ok.body.metaData.totalResults).toBe(1000);
    expect(ok.body.data[999].firstname).toBe('P999');
    expect(await count(`"Person" WHERE lastname = $1`, [marker])).toBe(1000);
    expect(
      (await t.rest(A, 'POST', '/people/batch', { firstname: 'x' })).body.errors[0],
    ).toMatchObject({
      field: 'body',
      rule: 'isArray',
    });
  }, 60000);
});

describe('P9 and P8 with 1000 new tags', () => {
  it('create and update 1000 people naming 1000 new tags each in a fixed number of statements', async () => {
    const marker = `Tagged-${randomUUID()}`;
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    // statements on the settings entries (the outbox relay and others poll meanwhile)
    const entryStatements = () =>
      spy.mock.calls.filter(([q]) =>
        /"SettingsEntry"/.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
      ).length;
    let created: { id: string }[] = [];
    let createStatements = 0;
    let updateStatements = 0;
    try {
      const res = await t.rest(
        A,
        'POST',
        '/people/batch',
        Array.from({ length: 1000 }, (_, i) => ({
          lastname: marker,
          orgaTags: [{ text: `${marker} orga` }, { text: `${marker} orga ${i}` }],
          personalities: [{ text: `${marker} personality ${i}` }],
        })),
      );
      expect(res.status).toBe(201);
      created = res.body.data;
      expect(res.body.data[999].orgaTags.map((x: { text: string }) => x.text)).toEqual([
        `${marker} orga`,
        `${marker} orga 999`,
      ]);
      createStatements = entryStatements();
      spy.mockClear();
      const updated = await t.rest(
        A,
        'PUT',
        '/people/batch',
        created.map((p, i) => ({ id: p.id, personalities: [{ text: `${marker} new ${i}` }] })),
      );
      expect(updated.status).toBe(200);
      updateStatements = entryStatements();
    } finally {
      spy.mockRestore();
    }
    // per list one read of the texts and one insert, however many texts; then the read of the
    // answer (statements per text would be thousands here)
    expect(createStatements).toBeLessThanOrEqual(6);
    expect(updateStatements).toBeLessThanOrEqual(6);
    expect(
      await count(`"SettingsEntry" WHERE "tenantId" = $1 AND text LIKE $2`, [A, `${marker} %`]),
    ).toBe(1 + 1000 + 1000 + 1000);
    await t.sql(`DELETE FROM "Person" WHERE "tenantId" = $1 AND lastname = $2`, [A, marker]);
  }, 60000);
});

describe('P8 PUT /people/batch', () => {
  it('updates each person with its own fields', async () => {
    const [p1, p2] = [
      await t.person(A, { firstname: 'U1', lastname: 'Same' }),
      await t.person(A, { firstname: 'U2', lifecycle: { lifecycleId: LEAD } }),
    ];
    const res = await t.rest(A, 'PUT', '/people/batch', [
      { id: p1, firstname: 'U1b' },
      { id: p2, lifecycle: { lifecycleId: CUSTOMER }, orgaTags: [{ text: 'Upd' }] },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ id: p1, firstname: 'U1b', lastname: 'Same' });
    expect(res.body.data[1]).toMatchObject({
      id: p2,
      firstname: 'U2',
      orgaTags: [{ text: 'Upd' }],
    });
    expect(
      res.body.data[1].lifecycleHistories.map((h: { lifecycleId: string }) => h.lifecycleId),
    ).toEqual([LEAD, CUSTOMER]);
  });

  it('refuses unknown, foreign, duplicate and malformed ids by index, changing nothing', async () => {
    const mine = await t.person(A, { firstname: 'Unchanged' });
    const theirs = await t.person(B, { firstname: 'Theirs' });
    const res = await t.rest(A, 'PUT', '/people/batch', [
      { id: mine, firstname: 'Changed' },
      { id: randomUUID(), firstname: 'x' },
      { id: theirs, firstname: 'Hijack' },
      { id: mine, lastname: 'Twice' },
      { id: 'bad', firstname: 'x' },
      { firstname: 'no id' },
    ]);
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual([
      '[4].id:isUuid',
      '[5].id:isUuid',
      '[3].id:duplicateId',
      '[1].id:unknownPerson',
      '[2].id:unknownPerson',
    ]);
    expect((await t.rest(A, 'GET', `/people/${mine}`)).body.data.firstname).toBe('Unchanged');
    expect((await t.rest(B, 'GET', `/people/${theirs}`)).body.data.firstname).toBe('Theirs');
    const many = await t.rest(
      A,
      'PUT',
      '/people/batch',
      Array.from({ length: 1001 }, () => ({ id: mine })),
    );
    expect(many.status).toBe(400);
    expect(fields(many.body)).toEqual(['body:arrayMaxSize']);
  });
});

describe('batches of 1000', () => {
  it('updates and deletes 1000 people in one call each', async () => {
    const marker = `Thousand-${randomUUID()}`;
    const created = await t.rest(
      A,
      'POST',
      '/people/batch',
      Array.from({ length: 1000 }, (_, i) => ({ lastname: marker, firstname: `T${i}` })),
    );
    const ids: string[] = created.body.data.map((p: { id: string }) => p.id);
    const updated = await t.rest(
      A,
      'PUT',
      '/people/batch',
      ids.map((id, i) => ({ id, employeeNumber: `E${i}`, lifecycle: { lifecycleId: LEAD } })),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data[999]).toMatchObject({ firstname: 'T999', employeeNumber: 'E999' });
    expect(await count(`"LifecycleHistory" WHERE "personId" = ANY($1::uuid[])`, [ids])).toBe(1000);
    const deleted = await t.rest(A, 'DELETE', '/people/batch', { ids });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.deletedIds).toHaveLength(1000);
    expect(await count(`"Person" WHERE lastname = $1`, [marker])).toBe(0);
    const [event] = await events(ids[500]);
    expect(event.payload.personIds).toHaveLength(1000);
  }, 60000);
});

describe('P15 POST /people/validate', () => {
  it('answers valid with the calculated fields and writes nothing', async () => {
    const before = await count(`"Person" WHERE "tenantId" = $1`, [A]);
    const tag = `Unsaved-${randomUUID()}`;
    const res = await t.rest(A, 'POST', '/people/validate', {
      firstname: 'val',
      lastname: 'idate',
      orgaTags: [{ text: tag }],
      lifecycle: { lifecycleId: LEAD },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: { name: 'val idate', initials: 'VI' },
    });
    expect(await count(`"Person" WHERE "tenantId" = $1`, [A])).toBe(before);
    expect(await count(`"SettingsEntry" WHERE text = $1`, [tag])).toBe(0);
  });

  it('lists every problem a create would refuse, translated, still with 200', async () => {
    const res = await t.rest(
      A,
      'POST',
      '/people/validate',
      {
        firstname: 'x'.repeat(201),
        lastname: 'Z',
        lifecycle: { lifecycleId: randomUUID() },
        pin: 1,
      },
      { 'Accept-Language': 'de' },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.errors).toEqual([
      { field: 'pin', rule: 'whitelistValidation', message: expect.any(String) },
      {
        field: 'firstname',
        rule: 'maxLength',
        message: 'firstname darf höchstens 200 Zeichen lang sein',
      },
      {
        field: 'lifecycle.lifecycleId',
        rule: 'unknownEntry',
        message: expect.stringContaining('Lebenszyklen'),
      },
    ]);
    expect(res.body.data.calculated.initials).toBe('XZ');
    const notObject = await t.rest(A, 'POST', '/people/validate', [1]);
    expect(notObject.body.data).toMatchObject({
      valid: false,
      errors: [{ field: 'body', rule: 'isObject' }],
    });
  });
});

describe('GraphQL', () => {
  it('createPeople, updatePeople, deletePeople, deletePerson and validatePerson', async () => {
    const created = await t.gql(
      A,
      `mutation { createPeople(inputs: [{ firstname: "G1" }, { firstname: "G2" }]) { id firstname } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const [g1, g2] = created.body.data.createPeople;
    const updated = await t.gql(
      A,
      `mutation($i: [UpdatePersonItemInput!]!) { updatePeople(inputs: $i) { firstname lastname } }`,
      {
        i: [
          { id: g1.id, lastname: 'One' },
          { id: g2.id, lastname: 'Two' },
        ],
      },
    );
    expect(updated.body.data.updatePeople).toEqual([
      { firstname: 'G1', lastname: 'One' },
      { firstname: 'G2', lastname: 'Two' },
    ]);
    const badBatch = await t.gql(
      A,
      `mutation($i: [UpdatePersonItemInput!]!) { updatePeople(inputs: $i) { id } }`,
      { i: [{ id: g1.id, lastname: 'x'.repeat(201) }] },
    );
    expect(badBatch.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: '[0].lastname', rule: 'maxLength' }],
    });
    const valid = await t.gql(
      A,
      `mutation { validatePerson(input: { firstname: "${'v'.repeat(201)}" }) { valid errors { field rule } calculated { initials } } }`,
    );
    expect(valid.body.data.validatePerson).toEqual({
      valid: false,
      errors: [{ field: 'firstname', rule: 'maxLength' }],
      calculated: { initials: 'V' },
    });
    const foreign = await t.gql(B, `mutation($id: ID!) { deletePerson(id: $id) }`, { id: g1.id });
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    const one = await t.gql(A, `mutation($id: ID!) { deletePerson(id: $id) }`, { id: g1.id });
    expect(one.body.data.deletePerson).toBe(true);
    const rest = await t.gql(
      A,
      `mutation($ids: [ID!]!) { deletePeople(ids: $ids) { deletedIds } }`,
      {
        ids: [g2.id],
      },
    );
    expect(rest.body.data.deletePeople).toEqual({ deletedIds: [g2.id] });
    const again = await t.gql(
      A,
      `mutation($ids: [ID!]!) { deletePeople(ids: $ids) { deletedIds } }`,
      {
        ids: [g2.id],
      },
    );
    expect(again.body.errors[0].extensions.errors[0]).toMatchObject({
      field: 'ids[0]',
      rule: 'unknownPerson',
    });
  });
});
