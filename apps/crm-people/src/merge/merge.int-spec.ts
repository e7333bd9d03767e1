import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { runSql } from '@crm/testing';
import { RunningService, startCrmPeople } from '../test/service-harness';
import { inTenant } from '../test/tenant-scope';
import { CUSTOMER, mergeTestClient, PROSPECT } from './test/merge-fixtures';

// P20, P21 against the real service and database: every kind moves, repeats are dropped, the
// preview writes nothing, a failure leaves nothing half done, other tenants' ids are unknown.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let t: ReturnType<typeof mergeTestClient>;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_m_merge');
  t = mergeTestClient(svc);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

/** Target T, sources S1 and S2, bystanders X and Y, with data of every kind a merge moves. */
async function world(tenant = A) {
  const T = await t.person(tenant, {
    firstname: 'Anna',
    lastname: 'Schmidt',
    lifecycleId: PROSPECT,
    note: 'Target note',
    importantDates: [{ text: 'Joined', date: '2020-01-01T00:00:00.000Z' }],
    socialMedias: [{ type: 'xing', link: 'https://xing.example/anna' }],
  });
  const S1 = await t.person(tenant, {
    firstname: 'Anna',
    lastname: 'Schmitt',
    title: 'Dr.',
    lifecycleId: CUSTOMER,
    note: 'First source note',
    importantDates: [
      { text: 'Joined', date: '2020-01-01T00:00:00.000Z' },
      { text: 'Party', date: '2021-05-05T00:00:00.000Z' },
    ],
    socialMedias: [{ type: 'linkedin', link: 'https://linkedin.example/anna' }],
  });
  const S2 = await t.person(tenant, {
    firstname: 'A.',
    lastname: 'Schmidt',
    birthday: new Date('1980-05-06T00:00:00Z'),
    considerBirthYear: true,
  });
  const X = await t.person(tenant, { firstname: 'Xaver', lastname: 'X' });
  const Y = await t.person(tenant, { firstname: 'Yvonne', lastname: 'Y' });

  const [o1, o2, p1] = [
    await t.entry(tenant, 'ORGA_TAGS', `VIP ${randomUUID()}`),
    await t.entry(tenant, 'ORGA_TAGS', `Board ${randomUUID()}`),
    await t.entry(tenant, 'PERSONALITY_TAGS', `Driver ${randomUUID()}`),
  ];
  await t.tag(tenant, T, o1, 'ORGA', 0);
  await t.tag(tenant, S1, o1, 'ORGA', 0);
  await t.tag(tenant, S1, o2, 'ORGA', 1);
  await t.tag(tenant, S2, p1, 'PERSONALITY', 0);

  await t.history(tenant, T, PROSPECT, '2024-03-01T00:00:00Z');
  await t.history(tenant, S1, CUSTOMER, '2024-01-01T00:00:00Z');
  await t.history(tenant, S1, PROSPECT, '2024-03-01T00:00:00Z'); // the same as T's
  await t.history(tenant, S2, CUSTOMER, '2024-06-01T00:00:00Z');

  const cards = {
    t: await t.card(tenant, T, true, 'Berlin'),
    s1fav: await t.card(tenant, S1, true, 'Hamburg'),
    s1: await t.card(tenant, S1, false, 'Bremen'),
    s2: await t.card(tenant, S2, false, 'Köln'),
  };

  const rel = {
    tx: await t.relate(tenant, T, X, 'colleague', 'colleague', new Date('2024-01-01')),
    s1x: await t.relate(tenant, S1, X, 'colleague', 'colleague', new Date('2024-02-01')),
    s1y: await t.relate(tenant, S1, Y, 'manager', 'employee', new Date('2024-03-01')),
    s1s2: await t.relate(tenant, S1, S2, 'friend', 'friend', new Date('2024-04-01')),
    ts2: await t.relate(tenant, T, S2, 'spouse', 'spouse', new Date('2024-05-01')),
    xs2: await t.relate(tenant, X, S2, 'mentor', 'mentee', new Date('2024-06-01')),
  };

  const tp = {
    both: await t.touchpoint(tenant, [T, S1]),
    sources: await t.touchpoint(tenant, [S1, S2]),
    s2: await t.touchpoint(tenant, [S2]),
    x: await t.touchpoint(tenant, [X]),
  };
  const docs = [
    await t.document(tenant, T, 't.txt'),
    await t.document(tenant, S1, 's1.txt'),
    await t.document(tenant, S2, 's2.txt'),
  ];
  return { T, S1, S2, X, Y, o1, o2, p1, cards, rel, tp, docs };
}

const EXPECTED_CHANGES = {
  cards: 3,
  relations: 2,
  relationDuplicatesDropped: 1,
  selfRelationsDropped: 4,
  touchpoints: 2,
  touchpointDuplicatesDropped: 2,
  documents: 2,
  orgaTags: 1,
  personalities: 1,
  lifecycleHistories: 2,
  importantDates: 1,
  socialMedias: 1,
  notes: 1,
};

/** What both the preview and the merge must show of the merged person. */
function expectMergedPerson(p: any, w: Awaited<ReturnType<typeof world>>) {
  expect(p).toMatchObject({
    id: w.T,
    firstname: 'Anna',
    lastname: 'Schmidt',
    title: 'Dr.',
    birthday: { birthday: '1980-05-06', considerBirthYear: true },
    lifecycle: { lifecycleId: PROSPECT },
    note: { note: 'Target note\n\n--- Anna Schmitt ---\nFirst source note' },
    orgaTags: [{ id: w.o1 }, { id: w.o2 }],
    personalities: [{ id: w.p1 }],
    importantDates: [
      { text: 'Joined', date: '2020-01-01T00:00:00.000Z' },
      { text: 'Party', date: '2021-05-05T00:00:00.000Z' },
    ],
    socialMedias: [
      { type: 'xing', link: 'https://xing.example/anna' },
      { type: 'linkedin', link: 'https://linkedin.example/anna' },
    ],
  });
  expect(p.lifecycleHistories.map((h: any) => [h.lifecycleId, h.dateChanged])).toEqual([
    [CUSTOMER, '2024-01-01T00:00:00.000Z'],
    [PROSPECT, '2024-03-01T00:00:00.000Z'],
    [CUSTOMER, '2024-06-01T00:00:00.000Z'],
  ]);
  expect(p.cards.map((c: any) => [c.id, c.isFavorite, c.addresses[0].city])).toEqual([
    [w.cards.t, true, 'Berlin'],
    [w.cards.s1fav, false, 'Hamburg'],
    [w.cards.s1, false, 'Bremen'],
    [w.cards.s2, false, 'Köln'],
  ]);
  expect(p.relations.map((r: any) => [r.id, r.personId, r.type.typeIdentifier])).toEqual([
    [w.rel.tx[0], w.X, 'colleague'],
    [w.rel.s1y[0], w.Y, 'manager'],
    [w.rel.xs2[1], w.X, 'mentee'],
  ]);
}

describe('P21 POST /people/merge/preview', () => {
  it('reports every kind and the resulting person, and writes nothing', async () => {
    const w = await world();
    const before = await t.snapshot(A);
    const res = await t.rest(A, 'POST', '/people/merge/preview', {
      targetId: w.T,
      sourceIds: [w.S1, w.S2],
    });
    expect(res.status).toBe(200);
    expect(res.body.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({
      targetId: w.T,
      sourceIds: [w.S1, w.S2],
      changes: EXPECTED_CHANGES,
      filledFields: ['title', 'birthday'],
      noteTooLong: false,
      noteLength: 'Target note\n\n--- Anna Schmitt ---\nFirst source note'.length,
    });
    expectMergedPerson(res.body.data.person, w);
    expect(await t.snapshot(A)).toBe(before);
    expect((await t.rest(A, 'GET', `/people/${w.S1}`)).status).toBe(200);
  });
});

describe('P20 POST /people/merge', () => {
  it('moves every kind to the target, drops repeats, deletes the sources, writes the event', async () => {
    const w = await world();
    const preview = await t.rest(A, 'POST', '/people/merge/preview', {
      targetId: w.T,
      sourceIds: [w.S1, w.S2],
    });
    const res = await t.rest(A, 'POST', '/people/merge', {
      targetId: w.T,
      sourceIds: [w.S1, w.S2, w.S1.toUpperCase()],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      targetId: w.T,
      deletedIds: [w.S1, w.S2],
      changes: EXPECTED_CHANGES,
      filledFields: ['title', 'birthday'],
    });
    expectMergedPerson(res.body.data.person, w);
    // The preview described exactly this result.
    const strip = (p: any) => ({ ...p, dateModified: null, modifiedBy: null, note: p.note?.note });
    expect(strip(res.body.data.person)).toEqual(strip(preview.body.data.person));
    expect((await t.rest(A, 'GET', `/people/${w.T}`)).body.data).toEqual(res.body.data.person);

    for (const id of [w.S1, w.S2]) {
      expect((await t.rest(A, 'GET', `/people/${id}`)).status).toBe(404);
    }
    const { db } = t;
    await inTenant(A, async () => {
      // Relations: X and Y see the target; every inverse link names its mirror row.
      const everyone = [w.T, w.S1, w.S2, w.X, w.Y];
      const rows = await db.personRelation.findMany({
        where: {
          tenantId: A,
          OR: [{ fromPersonId: { in: everyone } }, { toPersonId: { in: everyone } }],
        },
      });
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(rows.filter((r) => r.fromPersonId === w.X || r.fromPersonId === w.Y)).toHaveLength(3);
      expect(rows.every((r) => [w.T, w.X, w.Y].includes(r.toPersonId))).toBe(true);
      for (const r of rows.filter((x) => [w.T, w.X, w.Y].includes(x.fromPersonId))) {
        const mirror = byId.get(r.inverseId!);
        expect(mirror).toMatchObject({ fromPersonId: r.toPersonId, toPersonId: r.fromPersonId });
      }
      // Touchpoints: the target once in each touchpoint of the merged people.
      const parts = await db.touchpointPerson.findMany({ where: { tenantId: A, personId: w.T } });
      expect(parts.map((p) => p.touchpointId).sort()).toEqual(
        [w.tp.both, w.tp.sources, w.tp.s2].sort(),
      );
      expect(await db.touchpointPerson.count({ where: { touchpointId: w.tp.sources } })).toBe(1);
      // Documents and card addresses went along.
      expect(
        (await db.personDocument.findMany({ where: { tenantId: A, personId: w.T } }))
          .map((d) => d.fileName)
          .sort(),
      ).toEqual(['s1.txt', 's2.txt', 't.txt']);
      expect(await db.cardAddress.count({ where: { tenantId: A, cardId: w.cards.s2 } })).toBe(1);
      // The event for the other services, in the same transaction.
      const events = await db.outboxEvent.findMany({
        where: { tenantId: A, subject: Subjects.crmPeople.peopleMerged },
      });
      expect(events.map((e) => e.payload)).toEqual([
        { tenantId: A, targetId: w.T, sourceIds: [w.S1, w.S2] },
      ]);
    });
  });

  it('keeps the target note when no source has one, and merges a single source', async () => {
    const T = await t.person(A, { firstname: 'Only', note: 'kept' });
    const S = await t.person(A, { firstname: 'Empty', lastname: 'Source' });
    const res = await t.rest(A, 'POST', '/people/merge', { targetId: T, sourceIds: [S] });
    expect(res.status).toBe(200);
    expect(res.body.data.person).toMatchObject({ lastname: 'Source', note: { note: 'kept' } });
    expect(res.body.data.filledFields).toEqual(['lastname']);
    expect(res.body.data.changes.notes).toBe(0);
  });
});

describe('all or nothing', () => {
  it('a failure in the middle of the merge leaves every row as it was', async () => {
    const w = await world();
    const locked = await t.person(A, { firstname: 'Cannot', lastname: 'Delete' });
    await t.card(A, locked);
    // The merge's last step (deleting the sources) fails for this person, after all moves (the
    // owner of the tables makes the trigger: the app's role owns nothing).
    await runSql(
      svc.databaseUrl,
      `
      CREATE OR REPLACE FUNCTION merge_test_refuse() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'refused by test'; END $$ LANGUAGE plpgsql;
      `,
    );
    await runSql(
      svc.databaseUrl,
      `
      CREATE TRIGGER merge_test_refuse BEFORE DELETE ON "Person"
      FOR EACH ROW WHEN (OLD.id = '${locked}') EXECUTE FUNCTION merge_test_refuse()`,
    );
    try {
      const before = await t.snapshot(A);
      const res = await t.rest(A, 'POST', '/people/merge', {
        targetId: w.T,
        sourceIds: [w.S1, w.S2, locked],
      });
      expect(res.status).toBe(500);
      expect(await t.snapshot(A)).toBe(before);
    } finally {
      await runSql(svc.databaseUrl, `DROP TRIGGER merge_test_refuse ON "Person"`);
    }
  });

  it('409 when the joined note would exceed 10000 characters; the preview says so', async () => {
    const T = await t.person(A, { firstname: 'Long', note: 'a'.repeat(6000) });
    const S = await t.person(A, { firstname: 'Longer', note: 'b'.repeat(3990) });
    const body = { targetId: T, sourceIds: [S] };
    const preview = await t.rest(A, 'POST', '/people/merge/preview', body);
    expect(preview.status).toBe(200);
    // 6000 + '\n\n--- Longer ---\n' (17) + 3990
    expect(preview.body.data).toMatchObject({ noteTooLong: true, noteLength: 10007 });
    const before = await t.snapshot(A);
    const res = await t.rest(A, 'POST', '/people/merge', body);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'The joined notes would have 10007 characters, more than 10000: shorten the notes first; nothing was merged',
    );
    // like every 409: errors names the field and the rule
    expect(res.body.errors).toEqual([
      { field: 'sourceIds', rule: 'mergedNoteTooLong', message: res.body.message },
    ]);
    const de = await t.rest(A, 'POST', '/people/merge', body, { 'Accept-Language': 'de' });
    expect(de.body.message).toMatch(/^Die zusammengeführten Notizen hätten 10007 Zeichen/);
    expect(await t.snapshot(A)).toBe(before);
  });

  it('two merges racing for one source: one wins, the other finds it gone (404), no deadlock', async () => {
    const [T1, T2, S] = [
      await t.person(A, { firstname: 'T1' }),
      await t.person(A, { firstname: 'T2' }),
      await t.person(A, { firstname: 'S' }),
    ];
    await t.card(A, S);
    const results = await Promise.all([
      t.rest(A, 'POST', '/people/merge', { targetId: T1, sourceIds: [S] }),
      t.rest(A, 'POST', '/people/merge', { targetId: T2, sourceIds: [S] }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(
      await inTenant(A, () =>
        t.db.businessCard.count({ where: { tenantId: A, personId: { in: [T1, T2] } } }),
      ),
    ).toBe(1);
  });
});

describe('tenant isolation and bad input', () => {
  it("another tenant's ids are unknown (404) in merge and preview, and nothing changes", async () => {
    const w = await world();
    const own = await t.person(B, { firstname: 'B' });
    const beforeA = await t.snapshot(A);
    const beforeB = await t.snapshot(B);
    for (const path of ['/people/merge', '/people/merge/preview']) {
      const foreign = await t.rest(B, 'POST', path, { targetId: w.T, sourceIds: [w.S1] });
      expect(foreign.status).toBe(404);
      expect(foreign.body.data).toBeNull();
      const mixed = await t.rest(B, 'POST', path, { targetId: own, sourceIds: [w.S1] });
      expect(mixed.status).toBe(404);
      expect(mixed.body.message).toBe(`Person ${w.S1} was not found`);
      const unknown = randomUUID();
      const missing = await t.rest(A, 'POST', path, { targetId: w.T, sourceIds: [unknown] });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(`Person ${unknown} was not found`);
    }
    expect(await t.snapshot(A)).toBe(beforeA);
    expect(await t.snapshot(B)).toBe(beforeB);
  });

  it('400 names the field and rule: empty, too many, malformed, the target as source', async () => {
    const T = randomUUID();
    const call = (body: unknown, lang?: string) =>
      t.rest(A, 'POST', '/people/merge', body, lang ? { 'Accept-Language': lang } : {});
    const empty = await call({ targetId: T, sourceIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([
      {
        field: 'sourceIds',
        rule: 'arrayMinSize',
        message: 'sourceIds must hold at least 1 element',
      },
    ]);
    const many = await call({ targetId: T, sourceIds: Array.from({ length: 51 }, randomUUID) });
    expect(many.body.errors[0]).toMatchObject({ field: 'sourceIds', rule: 'arrayMaxSize' });
    expect(
      (await call({ targetId: T, sourceIds: Array.from({ length: 50 }, randomUUID) })).status,
    ).toBe(404);
    const bad = await call({ targetId: T, sourceIds: [randomUUID(), 'nope', T.toUpperCase()] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'sourceIds[1]', rule: 'isUuid', message: 'sourceIds[1] must be a UUID' },
      {
        field: 'sourceIds[2]',
        rule: 'sourceIsTarget',
        message: 'sourceIds[2]: the target cannot be merged into itself',
      },
    ]);
    const de = await call({ targetId: T, sourceIds: [T] }, 'de');
    expect(de.body.errors[0].message).toBe(
      'sourceIds[0]: das Ziel kann nicht mit sich selbst zusammengeführt werden',
    );
    const target = await call({ targetId: 'x', sourceIds: [randomUUID()] });
    expect(target.body.errors).toEqual([
      { field: 'targetId', rule: 'isUuid', message: 'targetId must be a UUID' },
    ]);
    const missing = await call({ sourceIds: [randomUUID()] });
    expect(missing.body.errors[0]).toMatchObject({ field: 'targetId' });
  });
});

describe('GraphQL', () => {
  it('mergePeoplePreview writes nothing; mergePeople merges; errors carry the code', async () => {
    const T = await t.person(A, { firstname: 'Graph' });
    const S = await t.person(A, { firstname: 'QL', lastname: 'Source', note: 'n' });
    await t.card(A, S);
    const before = await t.snapshot(A);
    const preview = await t.gql(
      A,
      `query($t: ID!, $s: [ID!]!) { mergePeoplePreview(targetId: $t, sourceIds: $s) {
        targetId sourceIds filledFields noteTooLong changes { cards notes } person { id lastname cards { id } }
      } }`,
      { t: T, s: [S] },
    );
    expect(preview.body.errors).toBeUndefined();
    expect(preview.body.data.mergePeoplePreview).toMatchObject({
      targetId: T,
      sourceIds: [S],
      filledFields: ['lastname'],
      noteTooLong: false,
      changes: { cards: 1, notes: 1 },
      person: { id: T, lastname: 'Source', cards: [{ id: expect.any(String) }] },
    });
    expect(await t.snapshot(A)).toBe(before);
    const merged = await t.gql(
      A,
      `mutation($t: ID!, $s: [ID!]!) { mergePeople(targetId: $t, sourceIds: $s) {
        targetId deletedIds changes { cards } person { id lastname note { note } }
      } }`,
      { t: T, s: [S] },
    );
    expect(merged.body.errors).toBeUndefined();
    expect(merged.body.data.mergePeople).toMatchObject({
      deletedIds: [S],
      changes: { cards: 1 },
      person: { lastname: 'Source', note: { note: '--- QL Source ---\nn' } },
    });
    const again = await t.gql(
      B,
      `mutation($t: ID!, $s: [ID!]!) { mergePeople(targetId: $t, sourceIds: $s) { targetId } }`,
      { t: T, s: [randomUUID()] },
    );
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });
});
