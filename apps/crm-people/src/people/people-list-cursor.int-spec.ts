import { randomUUID } from 'node:crypto';
import { PrismaService } from '../database/prisma.service';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { inTenant, overAllTenants } from '../test/tenant-scope';
import { PERSON_INCLUDE } from './people.repository';
import { peopleTestClient } from './test/people-test-client';
import { loadPersonRecords } from './person-records.sql';

// P1, P2 keyset paging (after=, metaData.nextCursor) and the capped total, REST and GraphQL, on a
// real database. The exact total stops at 4 people here (PEOPLE_LIST_EXACT_TOTAL_MAX), so the
// estimate shows without seeding 10,000 rows.

const CAP = 4;
const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let t: ReturnType<typeof peopleTestClient>;
const ofA = new Set<string>();

// 13 people: four share a lastname, two have none (NULLs), one has no firstname, some no
// customer number; four share dateCreated and dateModified (ties the id breaks).
const PEOPLE: Record<string, unknown>[] = [
  { firstname: 'Anna', lastname: 'Schmidt', customerNumber: 'K-3', employeeStatus: 'active' },
  { firstname: 'Bert', lastname: 'Schmidt', customerNumber: 'K-1' },
  { firstname: 'Carl', lastname: 'Schmidt', employeeStatus: 'active' },
  { firstname: 'Dora', lastname: 'Schmidt', customerNumber: 'K-2', employeeStatus: 'active' },
  { firstname: 'Emil', lastname: null, customerNumber: 'K-9' },
  { firstname: 'Frau', lastname: null },
  { firstname: null, lastname: 'Adler', employeeStatus: 'active' },
  { firstname: 'Gero', lastname: 'Zander', customerNumber: 'K-4' },
  { firstname: 'Hugo', lastname: 'Meier', employeeStatus: 'active' },
  { firstname: 'Ines', lastname: 'Meier', customerNumber: 'K-5' },
  { firstname: 'Jana', lastname: 'Özdemir', employeeStatus: 'active' },
  { firstname: 'Kurt', lastname: 'Berg' },
  { firstname: 'Lena', lastname: 'Schmidt-Berg', customerNumber: 'K-6', employeeStatus: 'active' },
];

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_p_list_cursor', {
    PEOPLE_LIST_EXACT_TOTAL_MAX: String(CAP),
  });
  t = peopleTestClient(svc);
  const ids: string[] = [];
  for (const body of PEOPLE) ids.push(await t.person(A, body));
  ids.forEach((id) => ofA.add(id));
  await t.sql(
    `UPDATE "Person" SET "dateCreated" = '2026-01-01T10:00:00.123', "dateModified" = '2026-02-01T10:00:00.5'
     WHERE id = ANY($1::uuid[])`,
    [[ids[1], ids[4], ids[6], ids[9]]],
  );
  // Another tenant with the same names: never in A's pages, whatever the cursor.
  for (const body of PEOPLE.slice(0, 3)) await t.person(B, body);
  // statistics, as autovacuum keeps them: the estimated total of A is its count
  await t.sql('ANALYZE "Person"');
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

type Page = { ids: string[]; next: string | null; total: number; exact: boolean };

async function rest(tenant: string, path: string): Promise<Page> {
  const res = await t.rest(tenant, 'GET', path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    ids: res.body.data.map((p: { id: string }) => p.id),
    next: res.body.metaData.nextCursor,
    total: res.body.metaData.totalResults,
    exact: res.body.metaData.totalResultsExact,
  };
}

/** Every page by cursor from the first one, and every page by offset, of one list. */
async function walk(tenant: string, route: string, query: string, size = 3) {
  const base = `${route}?pageSize=${size}${query ? `&${query}` : ''}`;
  const byCursor: string[][] = [];
  let page = await rest(tenant, base);
  byCursor.push(page.ids);
  while (page.next) {
    page = await rest(tenant, `${base}&after=${page.next}`);
    byCursor.push(page.ids);
    if (byCursor.length > 50) throw new Error('no end');
  }
  const byOffset: string[][] = [];
  for (let n = 1; n <= byCursor.length + 1; n++)
    byOffset.push((await rest(tenant, `${base}&page=${n}`)).ids);
  return { byCursor, byOffset };
}

describe('P2 GET /people?after=', () => {
  it.each([
    ['', 'the default sort (lastname, firstname; NULL names last)'],
    ['sort=lastname', 'ties on lastname, NULLs last'],
    ['sort=-lastname', 'descending, NULLs first'],
    ['sort=-dateCreated', 'descending timestamps with ties'],
    ['sort=lastname,-dateCreated', 'mixed directions'],
    ['sort=customerNumber', 'a nullable field without an index'],
    ['sort=-firstname,dateModified', 'a nullable field descending, then timestamps with ties'],
    ['sort=dateModified,lastname', 'timestamps, then a nullable field'],
  ])('%s: walks the whole list without gaps or repeats, as offset pages (%s)', async (query) => {
    const { byCursor, byOffset } = await walk(A, '/people', query);
    const all = byCursor.flat();
    expect(all).toHaveLength(PEOPLE.length);
    expect(new Set(all).size).toBe(PEOPLE.length);
    expect(all.every((id) => ofA.has(id))).toBe(true);
    // page by page the same people as page=N, and page N+1 is empty
    expect([...byCursor, []]).toEqual(byOffset);
    expect(byCursor.at(-1)?.length).toBeGreaterThan(0);
  });

  it('answers nextCursor on offset pages too, null on the last page', async () => {
    const p4 = await rest(A, '/people?pageSize=3&page=4&sort=lastname');
    expect(p4.next).toEqual(expect.any(String));
    const p5 = await rest(A, `/people?pageSize=3&sort=lastname&after=${p4.next}`);
    expect(p5.ids).toEqual((await rest(A, '/people?pageSize=3&page=5&sort=lastname')).ids);
    expect(p5.ids).toHaveLength(1);
    expect(p5.next).toBeNull();
    // a page that ends exactly at the end: no cursor
    expect((await rest(A, `/people?pageSize=13`)).next).toBeNull();
    expect((await rest(A, `/people?pageSize=12`)).next).toEqual(expect.any(String));
  });

  it('keeps q: cursor pages of a search are its offset pages, counted exactly', async () => {
    const { byCursor, byOffset } = await walk(A, '/people', 'q=schmidt&sort=-firstname', 2);
    expect(byCursor.flat()).toHaveLength(5);
    expect([...byCursor, []]).toEqual(byOffset);
    const first = await rest(A, '/people?q=schmidt&pageSize=2');
    expect(first).toMatchObject({ total: 5, exact: true });
  });

  it('never shows another tenant: a cursor of B walks A from that place', async () => {
    const b = await rest(B, '/people?pageSize=1&sort=lastname');
    expect(b.next).toEqual(expect.any(String));
    const inA = await rest(A, `/people?pageSize=20&sort=lastname&after=${b.next}`);
    expect(inA.ids.length).toBeGreaterThan(0);
    expect(inA.ids.every((id) => ofA.has(id))).toBe(true);
    const bAll = await rest(B, '/people?pageSize=20');
    expect(bAll.ids.some((id) => ofA.has(id))).toBe(false);
  });

  it('refuses malformed cursors, cursors of another sort and page with after: 400 on after', async () => {
    const next = (await rest(A, '/people?pageSize=2&sort=-lastname')).next as string;
    const bad = async (query: string, rule: string) => {
      const res = await t.rest(A, 'GET', `/people?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ data: null, statusCode: 400 });
      expect(res.body.errors).toEqual([{ field: 'after', rule, message: expect.any(String) }]);
      return res.body.errors[0].message as string;
    };
    expect(await bad('after=garbage!', 'invalidCursor')).toMatch(/^after is not a cursor/);
    const json = Buffer.from('{"v":1,"s":"-lastname,id","k":["x","nope"]}').toString('base64url');
    await bad(`sort=-lastname&after=${json}`, 'invalidCursor');
    expect(await bad(`sort=lastname&after=${next}`, 'cursorSortMismatch')).toBe(
      'after is a cursor for sort -lastname,id, not for sort lastname,id: keep the sort of the page the cursor came from',
    );
    await bad(`after=${next}`, 'cursorSortMismatch');
    await bad(`sort=-lastname&page=2&after=${next}`, 'cursorWithPage');
    await bad(`sort=-lastname&page=1&after=${next}`, 'cursorWithPage');
    // translated like every other field error
    const de = await t.rest(A, 'GET', `/people?page=2&after=${next}`, undefined, {
      'Accept-Language': 'de',
    });
    expect(de.body.errors[0].message).toMatch(/^after und page lassen sich nicht kombinieren/);
  });
});

describe('totalResults', () => {
  it('is exact up to the cap, an estimate flagged totalResultsExact false above it', async () => {
    // B has 3 people: counted
    expect(await rest(B, '/people')).toMatchObject({ total: 3, exact: true });
    // A has 13: more than the cap, so PostgreSQL's estimate, flagged (from current statistics
    // it is the count)
    expect(await rest(A, '/people?pageSize=3')).toMatchObject({ total: 13, exact: false });
    expect(await rest(A, '/people?pageSize=3&page=3')).toMatchObject({ total: 13, exact: false });
    const after = (await rest(A, '/people?pageSize=3')).next;
    expect(await rest(A, `/people?pageSize=3&after=${after}`)).toMatchObject({
      total: 13,
      exact: false,
    });
    // the last offset page knows the total
    expect(await rest(A, '/people?pageSize=3&page=5')).toMatchObject({ total: 13, exact: true });
    // filtered lists are counted exactly, whatever their length
    expect(await rest(A, '/people/filter?employeeStatus=active&pageSize=2')).toMatchObject({
      total: 7,
      exact: true,
    });
  });
});

describe('P1 GET /people/filter?after=', () => {
  it('pages a filtered list by cursor as by offset', async () => {
    const { byCursor, byOffset } = await walk(
      A,
      '/people/filter',
      'employeeStatus=active&sort=lastname',
      2,
    );
    expect(byCursor.flat()).toHaveLength(7);
    expect([...byCursor, []]).toEqual(byOffset);
  });
});

describe('GraphQL', () => {
  it('people(after:) and peopleByFilter(after:) page with nextCursor', async () => {
    const q = `query($after: String, $sort: String) {
      people(pageSize: 5, sort: $sort, after: $after) {
        totalResults totalResultsExact nextCursor items { id } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const res: { body: any } = await t.gql(A, q, { after, sort: '-dateCreated' });
      expect(res.body.errors).toBeUndefined();
      const page: {
        totalResultsExact: boolean;
        nextCursor: string | null;
        items: { id: string }[];
      } = res.body.data.people;
      expect(page.totalResultsExact).toBe(false);
      seen.push(...page.items.map((p) => p.id));
      after = page.nextCursor;
    } while (after);
    const rest13 = await rest(A, '/people?pageSize=13&sort=-dateCreated');
    expect(seen).toEqual(rest13.ids);

    const filtered = await t.gql(
      A,
      `query($after: String) { peopleByFilter(employeeStatus: "active", pageSize: 4, after: $after) {
        totalResults totalResultsExact nextCursor items { id } } }`,
      { after: null },
    );
    const page1 = filtered.body.data.peopleByFilter;
    expect(page1).toMatchObject({ totalResults: 7, totalResultsExact: true });
    const page2 = await t.gql(
      A,
      `query($after: String) { peopleByFilter(employeeStatus: "active", pageSize: 4, after: $after) {
        nextCursor items { id } } }`,
      { after: page1.nextCursor },
    );
    expect(page2.body.data.peopleByFilter.items).toHaveLength(3);
    expect(page2.body.data.peopleByFilter.nextCursor).toBeNull();

    const bad = await t.gql(A, `query { people(after: "garbage!") { totalResults } }`);
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
  });
});

describe('loadPersonRecords', () => {
  it('loads people exactly as findMany with PERSON_INCLUDE does, in the order asked', async () => {
    const T = `tenant-l-${randomUUID().slice(0, 8)}`;
    const full = await t.person(T, {
      salutation: 'Frau',
      title: 'Dr.',
      firstname: 'Full',
      lastname: 'Record',
      birthday: { birthday: '1980-05-17', considerBirthYear: true },
      importantDates: [{ text: 'Joined', date: '2015-03-01T09:00:00Z' }],
      socialMedias: [{ type: 'xing', link: 'https://www.xing.com/profile/full' }],
      orgaTags: [{ text: 'VIP' }, { text: 'Board' }],
      personalities: [{ text: 'Calm', category: 'Mood' }],
      customerNumber: 'F-1',
      employeeStatus: 'active',
      employeeNumber: '0815',
      lifecycle: { lifecycleId: '00000000-0000-4000-a000-000000000102' },
    });
    const bare = await t.person(T, { firstname: 'Bare' });
    const other = await t.person(T, { lastname: 'Other' });
    await t.sql(
      `INSERT INTO "PersonNote" ("personId", "tenantId", note, "createdBy", "dateCreated", "dateModified")
       VALUES ($1, $2, 'A note', 'test', '2026-03-01T10:00:00.250', now())`,
      [full, T],
    );
    await t.sql(
      `INSERT INTO "LifecycleHistory" (id, "tenantId", "personId", "lifecycleId", "dateChanged")
       VALUES (gen_random_uuid(), $2, $1, '00000000-0000-4000-a000-000000000101', '2020-01-01T00:00:00')`,
      [full, T],
    );
    const card = await t.card(T, full, {
      business: 'Acme',
      companyId: randomUUID(),
      emails: [{ mail: 'full@acme.example', isFavorite: true }],
      phones: [{ number: '+49 1' }],
      businessPositions: [{ position: 'CTO' }],
      dateCreated: '2021-01-01T00:00:00Z',
    });
    await t.card(T, full, { business: 'Second', dateCreated: '2022-01-01T00:00:00Z' });
    await t.sql(
      `UPDATE "BusinessCard" SET "companyRelationTypeId" = '00000000-0000-4000-a000-000000000301',
         "validFrom" = '2021-02-03T04:05:06.789', "isPrivate" = true WHERE id = $1`,
      [card],
    );
    for (const [position, city, lon] of [
      [1, 'Köln', null],
      [0, 'Berlin', 13.4],
    ] as const) {
      await t.sql(
        `INSERT INTO "CardAddress" (id, "tenantId", "cardId", "addressTypeIds", city, longitude, latitude,
           "validationInfo", position)
         VALUES (gen_random_uuid(), $1, $2, $3::uuid[], $4, $5, $6, $7, $8)`,
        [
          T,
          card,
          ['00000000-0000-4000-a000-000000000201'],
          city,
          lon,
          lon === null ? null : 52.5,
          lon === null ? null : JSON.stringify({ source: 'test' }),
          position,
        ],
      );
    }
    await t.sql(
      `INSERT INTO "PersonRelation" (id, "tenantId", "fromPersonId", "toPersonId", "typeIdentifier", "isFavorite", "dateCreated")
       VALUES (gen_random_uuid(), $1, $2, $3, 'colleague', true, '2024-05-05T05:05:05.555')`,
      [T, full, other],
    );
    const prisma = svc.app.get(PrismaService);
    const ids = [other, full, randomUUID(), bare];
    const loaded = await inTenant(T, () => loadPersonRecords(prisma, T, ids));
    const found = await inTenant(T, () =>
      prisma.person.findMany({ where: { tenantId: T, id: { in: ids } }, include: PERSON_INCLUDE }),
    );
    const byId = new Map(found.map((r) => [r.id, r]));
    expect(loaded.map((r) => r.id)).toEqual([other, full, bare]);
    expect(loaded).toStrictEqual([other, full, bare].map((id) => byId.get(id)));
    expect(loaded[1].cards[0].addresses.map((a) => a.city)).toEqual(['Berlin', 'Köln']);
    // another tenant's ids are not loaded: by the query's own filter too (row-level security
    // would hide them from a request of A anyway)
    expect(await overAllTenants(() => loadPersonRecords(prisma, A, [full]))).toEqual([]);
  });
});
