import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { peopleTestClient } from './test/people-test-client';
import { SettingsLookupService } from '../settings/settings-lookup.service';

// P1 filter, P2 list, P7 quicklook: REST and GraphQL on a real database.

const CUSTOMER = '00000000-0000-4000-a000-000000000103';
const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let t: ReturnType<typeof peopleTestClient>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_p_list');
  t = peopleTestClient(svc);
  // Created one after another, so dateCreated orders them as listed.
  const people: [string, Record<string, unknown>][] = [
    [
      'anna',
      { firstname: 'Anna', lastname: 'Schmidt', customerNumber: 'K-100', employeeStatus: 'active' },
    ],
    [
      'bert',
      { firstname: 'Bert', lastname: 'Meier', customerNumber: 'K-200', employeeStatus: 'retired' },
    ],
    [
      'carl',
      { firstname: 'Carl', lastname: 'Schmidt', customerNumber: 'X_1%', employeeStatus: 'active' },
    ],
    [
      'dora',
      {
        firstname: 'Dora',
        lastname: 'Adler',
        employeeStatus: 'active',
        lifecycle: { lifecycleId: CUSTOMER },
      },
    ],
    ['emil', { firstname: 'Emil', lastname: null }],
  ];
  for (const [key, body] of people) ids[key] = await t.person(A, body);
  await t.sql(`UPDATE "Person" SET "userMail" = 'Anna.Schmidt@Example.com' WHERE id = $1`, [
    ids.anna,
  ]);
  await t.card(A, ids.bert, {
    business: 'Globex Corporation',
    emails: [{ mail: 'bert@globex.example', isFavorite: true }],
  });
  await t.card(A, ids.carl, { emails: [{ mail: 'CARL@initech.example' }] });
  ids.foreign = await t.person(B, {
    firstname: 'Anna',
    lastname: 'Schmidt',
    employeeStatus: 'active',
  });
  await t.sql(`UPDATE "Person" SET "userMail" = 'anna.schmidt@example.com' WHERE id = $1`, [
    ids.foreign,
  ]);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const names = (body: { data: { firstname: string }[] }) => body.data.map((p) => p.firstname);

describe('P2 GET /people', () => {
  it('pages by lastname, firstname (nulls last) with the total of the tenant only', async () => {
    const all = await t.rest(A, 'GET', '/people');
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(['Dora', 'Bert', 'Anna', 'Carl', 'Emil']);
    expect(all.body.metaData.totalResults).toBe(5);
    const page2 = await t.rest(A, 'GET', '/people?page=2&pageSize=2');
    expect(names(page2.body)).toEqual(['Anna', 'Carl']);
    expect(page2.body.metaData.totalResults).toBe(5);
    // full resources, with their lifecycle text and cards
    expect(all.body.data[0].lifecycle).toMatchObject({ lifecycleId: CUSTOMER, text: 'Customer' });
    expect(all.body.data[1].cards[0].business).toBe('Globex Corporation');
    const beyond = await t.rest(A, 'GET', '/people?page=9');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.metaData.totalResults).toBe(5);
  });

  it('sorts by the allowed fields, descending with -, and refuses others', async () => {
    const created = await t.rest(A, 'GET', '/people?sort=-dateCreated');
    expect(names(created.body)).toEqual(['Emil', 'Dora', 'Carl', 'Bert', 'Anna']);
    const byNumber = await t.rest(A, 'GET', '/people?sort=customerNumber,firstname');
    expect(names(byNumber.body)).toEqual(['Anna', 'Bert', 'Carl', 'Dora', 'Emil']);
    const bad = await t.rest(A, 'GET', '/people?sort=password');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
    const big = await t.rest(A, 'GET', '/people?pageSize=501');
    expect(big.status).toBe(400);
    expect(big.body.errors[0]).toMatchObject({ field: 'pageSize', rule: 'max' });
  });

  it('searches names, customer number, userMail, card business and card e-mails with q', async () => {
    const q = async (text: string, tenant = A) =>
      names((await t.rest(tenant, 'GET', `/people?q=${encodeURIComponent(text)}`)).body);
    expect(await q('schmidt')).toEqual(['Anna', 'Carl']);
    expect(await q('anna schm')).toEqual(['Anna']);
    expect(await q('k-2')).toEqual(['Bert']);
    expect(await q('EXAMPLE.COM')).toEqual(['Anna']);
    expect(await q('globex corp')).toEqual(['Bert']);
    expect(await q('initech')).toEqual(['Carl']);
    // % and _ are literal characters, not wildcards
    expect(await q('X_1%')).toEqual(['Carl']);
    expect(await q('K%1')).toEqual([]);
    const counted = await t.rest(A, 'GET', '/people?q=schmidt&pageSize=1&sort=-firstname');
    expect(names(counted.body)).toEqual(['Carl']);
    expect(counted.body.metaData.totalResults).toBe(2);
    expect(await q('schmidt', B)).toEqual(['Anna']);
    expect(await q('globex', B)).toEqual([]);
  });

  it('reads a page with two queries whatever its size: ids with the total, then the people', async () => {
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    // Only statements on people count: other modules (an outbox relay) may poll meanwhile.
    const queries = {
      mockClear: () => spy.mockClear(),
      mockRestore: () => spy.mockRestore(),
      get count() {
        return spy.mock.calls.filter(([q]) =>
          /"Person"/.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
        ).length;
      },
    };
    const lookups = jest.spyOn(svc.app.get(SettingsLookupService), 'anyEntries');
    try {
      const res = await t.rest(A, 'GET', '/people?pageSize=5');
      expect(res.body.data).toHaveLength(5);
      // the lifecycle texts of all five come from one lookup (system entries need no SQL)
      expect(lookups).toHaveBeenCalledTimes(1);
      expect(queries.count).toBe(2);
      queries.mockClear();
      await t.rest(A, 'GET', '/people?q=schmidt');
      // filtered the same way
      expect(queries.count).toBe(2);
    } finally {
      queries.mockRestore();
      lookups.mockRestore();
    }
  });
});

describe('P1 GET /people/filter', () => {
  it('matches userMail and card e-mails as whole addresses in any case', async () => {
    const by = async (query: string, tenant = A) =>
      (await t.rest(tenant, 'GET', `/people/filter?${query}`)).body;
    expect(names(await by('email=anna.schmidt@example.COM'))).toEqual(['Anna']);
    expect(names(await by('email=Bert@Globex.example'))).toEqual(['Bert']);
    expect(names(await by('email=carl@initech.example'))).toEqual(['Carl']);
    expect(names(await by('email=globex.example'))).toEqual([]);
    expect(names(await by('email=anna.schmidt@example.com', B))).toEqual(['Anna']);
    expect((await by('email=anna.schmidt@example.com', B)).data[0].id).toBe(ids.foreign);
  });

  it('filters by employee status, both filters narrow, and pages', async () => {
    const active = await t.rest(A, 'GET', '/people/filter?employeeStatus=active&pageSize=2');
    expect(names(active.body)).toEqual(['Dora', 'Anna']);
    expect(active.body.metaData.totalResults).toBe(3);
    const both = await t.rest(
      A,
      'GET',
      '/people/filter?employeeStatus=active&email=bert@globex.example',
    );
    expect(both.body.data).toEqual([]);
    const match = await t.rest(
      A,
      'GET',
      '/people/filter?employeeStatus=retired&email=bert@globex.example',
    );
    expect(names(match.body)).toEqual(['Bert']);
  });

  it('answers 400 naming both filters when neither is given, translated', async () => {
    for (const query of ['', '?email=%20&employeeStatus=', '?page=1']) {
      const res = await t.rest(A, 'GET', `/people/filter${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Give email, employeeStatus or both to filter people');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
        'email',
        'employeeStatus',
      ]);
    }
    const de = await t.rest(A, 'GET', '/people/filter', undefined, { 'Accept-Language': 'de' });
    expect(de.body.message).toBe('Zum Filtern email, employeeStatus oder beides angeben');
    expect(de.body.errors[0].message).toBe('email: email, employeeStatus oder beides angeben');
  });
});

describe('P7 GET /people/{id}/quicklook', () => {
  it('shows the favorite card with its favorite position, e-mail and phone', async () => {
    const id = await t.person(A, {
      firstname: 'Quinn',
      lastname: 'Look',
      orgaTags: [{ text: 'VIP' }],
      personalities: [{ text: 'Calm', category: 'Mood' }],
      lifecycle: { lifecycleId: CUSTOMER },
    });
    const companyId = randomUUID();
    await t.card(A, id, { business: 'Old Corp', dateCreated: '2020-01-01T00:00:00Z' });
    await t.card(A, id, {
      business: 'Fav Corp',
      companyId,
      isFavorite: true,
      businessPositions: [
        { position: 'Engineer', department: 'R&D' },
        { position: 'CTO', department: 'Board', isFavorite: true },
      ],
      emails: [{ mail: 'q@old.example' }, { mail: 'q@fav.example', isFavorite: true }],
      phones: [{ number: '+49 1' }, { number: '+49 2', isFavorite: true }],
    });
    const res = await t.rest(A, 'GET', `/people/${id}/quicklook`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id,
      name: 'Quinn Look',
      initials: 'QL',
      profileImage: null,
      detailImagePath: null,
      lifecycle: expect.objectContaining({ lifecycleId: CUSTOMER, text: 'Customer' }),
      orgaTags: [{ id: expect.any(String), text: 'VIP' }],
      personalities: [{ id: expect.any(String), text: 'Calm', category: 'Mood' }],
      cardId: expect.any(String),
      companyId,
      business: 'Fav Corp',
      position: 'CTO',
      department: 'Board',
      email: 'q@fav.example',
      phone: '+49 2',
    });
  });

  it('falls back to the oldest card and its first entries; no card gives nulls', async () => {
    const id = await t.person(A, { firstname: 'Nof', lastname: 'Avorite' });
    const none = await t.rest(A, 'GET', `/people/${id}/quicklook`);
    expect(none.body.data).toMatchObject({ cardId: null, business: null, email: null });
    await t.card(A, id, { business: 'Second', dateCreated: '2021-01-01T00:00:00Z' });
    await t.card(A, id, {
      business: 'First',
      dateCreated: '2020-01-01T00:00:00Z',
      emails: [{ mail: 'a@first.example' }, { mail: 'b@first.example' }],
    });
    const res = await t.rest(A, 'GET', `/people/${id}/quicklook`);
    expect(res.body.data).toMatchObject({ business: 'First', email: 'a@first.example' });
  });

  it('answers 404 for unknown, malformed and other tenants ids', async () => {
    expect((await t.rest(A, 'GET', `/people/${randomUUID()}/quicklook`)).status).toBe(404);
    expect((await t.rest(A, 'GET', '/people/nope/quicklook')).status).toBe(404);
    const foreign = await t.rest(B, 'GET', `/people/${ids.anna}/quicklook`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ data: null, statusCode: 404 });
  });
});

describe('GraphQL', () => {
  it('people, peopleByFilter and personQuicklook answer like REST', async () => {
    const list = await t.gql(
      A,
      `query { people(q: "schmidt", pageSize: 1, sort: "firstname") { totalResults items { firstname lifecycle { text } } } }`,
    );
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data.people).toEqual({
      totalResults: 2,
      items: [{ firstname: 'Anna', lifecycle: null }],
    });
    const filtered = await t.gql(
      A,
      `query($e: String) { peopleByFilter(email: $e) { totalResults items { id } } }`,
      { e: 'BERT@globex.example' },
    );
    expect(filtered.body.data.peopleByFilter).toEqual({
      totalResults: 1,
      items: [{ id: ids.bert }],
    });
    const missing = await t.gql(A, `query { peopleByFilter { totalResults } }`);
    expect(missing.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    const look = await t.gql(A, `query($id: ID!) { personQuicklook(id: $id) { name business } }`, {
      id: ids.bert,
    });
    expect(look.body.data.personQuicklook).toEqual({
      name: 'Bert Meier',
      business: 'Globex Corporation',
    });
    const foreign = await t.gql(B, `query($id: ID!) { personQuicklook(id: $id) { name } }`, {
      id: ids.bert,
    });
    expect(foreign.body.data.personQuicklook).toBeNull();
  });
});
