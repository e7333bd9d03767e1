import { randomUUID } from 'node:crypto';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { peopleTestClient } from './test/people-test-client';

// P5 update, P12/P13 tag lists, P14 lifecycle: REST and GraphQL on a real database.

const LEAD = '00000000-0000-4000-a000-000000000101';
const PROSPECT = '00000000-0000-4000-a000-000000000102';
const CUSTOMER = '00000000-0000-4000-a000-000000000103';
const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let t: ReturnType<typeof peopleTestClient>;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_p_update');
  t = peopleTestClient(svc);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const FULL = {
  salutation: 'Frau',
  title: 'Dr.',
  firstname: 'Ursula',
  lastname: 'Update',
  birthday: { birthday: '1980-02-29', considerBirthYear: true },
  importantDates: [{ text: 'Start', date: '2019-01-01T00:00:00Z' }],
  socialMedias: [{ type: 'x', link: 'https://x.com/u' }],
  orgaTags: [{ text: 'Keep' }],
  personalities: [{ text: 'Bold', category: 'DISC' }],
  customerNumber: 'U-1',
  employeeStatus: 'active',
  employeeNumber: '42',
  lifecycle: { lifecycleId: LEAD },
};

describe('P5 PUT /people/{id}', () => {
  it('changes given fields, keeps absent ones, clears nulls, records the caller', async () => {
    const id = await t.person(A, FULL);
    const before = (await t.rest(A, 'GET', `/people/${id}`)).body.data;
    const callerId = randomUUID();
    const res = await t.rest(
      A,
      'PUT',
      `/people/${id}`,
      {
        firstname: 'Ulla',
        title: null,
        birthday: { considerBirthYear: false },
        socialMedias: null,
      },
      { 'X-Caller-Id': callerId, 'X-Integration-Name': 'editor' },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      firstname: 'Ulla',
      lastname: 'Update',
      title: null,
      salutation: 'Frau',
      birthday: { birthday: '1980-02-29', considerBirthYear: false },
      socialMedias: [],
      importantDates: before.importantDates,
      orgaTags: before.orgaTags,
      personalities: before.personalities,
      lifecycleHistories: before.lifecycleHistories,
      name: 'Ulla Update',
      initials: 'UU',
      createdBy: 'test-suite',
      modifiedBy: 'editor',
      modifiedByUserId: callerId,
    });
    expect(new Date(res.body.data.dateModified) > new Date(before.dateModified)).toBe(true);
    expect((await t.rest(A, 'GET', `/people/${id}`)).body.data).toEqual(res.body.data);
  });

  it('appends a changed lifecycle to the history, not the same one again; null clears', async () => {
    const id = await t.person(A, { lastname: 'Cycle', lifecycle: { lifecycleId: LEAD } });
    const changed = await t.rest(A, 'PUT', `/people/${id}`, {
      lifecycle: { lifecycleId: CUSTOMER },
    });
    expect(changed.body.data.lifecycle.lifecycleId).toBe(CUSTOMER);
    expect(
      changed.body.data.lifecycleHistories.map((h: { lifecycleId: string }) => h.lifecycleId),
    ).toEqual([LEAD, CUSTOMER]);
    const same = await t.rest(A, 'PUT', `/people/${id}`, { lifecycle: { lifecycleId: CUSTOMER } });
    expect(same.body.data.lifecycleHistories).toHaveLength(2);
    const cleared = await t.rest(A, 'PUT', `/people/${id}`, { lifecycle: null });
    expect(cleared.body.data.lifecycle).toBeNull();
    expect(cleared.body.data.lifecycleHistories).toHaveLength(2);
  });

  it('refuses what create refuses, and writes nothing', async () => {
    const id = await t.person(A, { firstname: 'Stable' });
    const long = await t.rest(A, 'PUT', `/people/${id}`, {
      firstname: 'x'.repeat(201),
      lastname: 'L',
    });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([
      {
        field: 'firstname',
        rule: 'maxLength',
        message: 'firstname must be at most 200 characters long',
      },
    ]);
    const unknown = await t.rest(A, 'PUT', `/people/${id}`, {
      lastname: 'Changed',
      lifecycle: { lifecycleId: randomUUID() },
      orgaTags: [{ id: randomUUID() }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'lifecycle.lifecycleId',
      'orgaTags[0].id',
    ]);
    const extra = await t.rest(A, 'PUT', `/people/${id}`, { id: randomUUID() });
    expect(extra.body.errors[0]).toMatchObject({ field: 'id', rule: 'whitelistValidation' });
    const read = (await t.rest(A, 'GET', `/people/${id}`)).body.data;
    expect(read).toMatchObject({ firstname: 'Stable', lastname: null, lifecycle: null });
  });

  it('answers 404 for unknown and malformed ids and for another tenant, changing nothing', async () => {
    const id = await t.person(A, { firstname: 'Mine' });
    expect((await t.rest(A, 'PUT', `/people/${randomUUID()}`, { firstname: 'x' })).status).toBe(
      404,
    );
    expect((await t.rest(A, 'PUT', '/people/42', { firstname: 'x' })).status).toBe(404);
    const foreign = await t.rest(B, 'PUT', `/people/${id}`, { firstname: 'Theirs' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ data: null, statusCode: 404 });
    expect((await t.rest(A, 'GET', `/people/${id}`)).body.data.firstname).toBe('Mine');
  });
});

describe('P12 PUT /people/{id}/orga-tags and P13 PUT /people/{id}/personalities', () => {
  it('replaces the whole list by ids and texts, in order, and [] clears it', async () => {
    const id = await t.person(A, { orgaTags: [{ text: 'Old' }], personalities: [{ text: 'Shy' }] });
    const ref = (await t.rest(A, 'POST', '/people', { orgaTags: [{ text: 'Existing' }] })).body.data
      .orgaTags[0];
    const res = await t.rest(A, 'PUT', `/people/${id}/orga-tags`, [
      { text: 'New one' },
      { id: ref.id },
      { text: 'existing' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.orgaTags).toEqual([
      { id: expect.any(String), text: 'New one' },
      { id: ref.id, text: 'Existing' },
    ]);
    expect(res.body.data.personalities.map((p: { text: string }) => p.text)).toEqual(['Shy']);
    const pers = await t.rest(A, 'PUT', `/people/${id}/personalities`, [
      { text: 'Curious', category: 'Big5' },
    ]);
    expect(pers.body.data.personalities).toEqual([
      { id: expect.any(String), text: 'Curious', category: 'Big5' },
    ]);
    expect(pers.body.data.orgaTags).toHaveLength(2);
    const cleared = await t.rest(A, 'PUT', `/people/${id}/orga-tags`, []);
    expect(cleared.body.data.orgaTags).toEqual([]);
  });

  it('refuses bad items by index, writing nothing', async () => {
    const id = await t.person(A, { orgaTags: [{ text: 'Stays' }] });
    const text = `Never-${randomUUID()}`;
    const res = await t.rest(A, 'PUT', `/people/${id}/orga-tags`, [
      { text },
      { id: randomUUID() },
      { text: 'x'.repeat(201) },
      { colour: 'red' },
    ]);
    expect(res.status).toBe(400);
    expect(
      res.body.errors.map((e: { field: string; rule: string }) => `${e.field}:${e.rule}`),
    ).toEqual([
      '[2].text:maxLength',
      '[3].colour:whitelistValidation',
      '[3].text:isNotEmpty',
      '[1].id:unknownEntry',
    ]);
    expect(
      (await t.rest(A, 'PUT', `/people/${id}/orga-tags`, { text: 'x' })).body.errors[0],
    ).toMatchObject({ field: 'body', rule: 'isArray' });
    expect((await t.rest(A, 'GET', `/people/${id}`)).body.data.orgaTags[0].text).toBe('Stays');
    const [row] = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "SettingsEntry" WHERE text = $1`,
      [text],
    );
    expect(row.n).toBe(0);
  });

  it('answers 404 for another tenant, changing nothing', async () => {
    const id = await t.person(A, { orgaTags: [{ text: 'Owned' }] });
    expect((await t.rest(B, 'PUT', `/people/${id}/orga-tags`, [{ text: 'Hijack' }])).status).toBe(
      404,
    );
    expect((await t.rest(B, 'PUT', `/people/${id}/personalities`, [])).status).toBe(404);
    expect((await t.rest(A, 'PUT', `/people/${randomUUID()}/personalities`, [])).status).toBe(404);
    expect((await t.rest(A, 'GET', `/people/${id}`)).body.data.orgaTags[0].text).toBe('Owned');
  });
});

describe('P14 PUT /people/{id}/lifecycle', () => {
  it('appends a new lifecycle, adds nothing for the same one, and null clears', async () => {
    const id = await t.person(A, { lastname: 'Life' });
    const first = await t.rest(A, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: PROSPECT });
    expect(first.status).toBe(200);
    expect(first.body.data.lifecycle).toMatchObject({ lifecycleId: PROSPECT, text: 'Prospect' });
    expect(first.body.data.lifecycleHistories).toHaveLength(1);
    const again = await t.rest(A, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: PROSPECT });
    expect(again.body.data.lifecycleHistories).toHaveLength(1);
    expect(again.body.data.dateModified).toBe(first.body.data.dateModified);
    const next = await t.rest(A, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: CUSTOMER });
    expect(next.body.data.lifecycleHistories.map((h: { text: string }) => h.text)).toEqual([
      'Prospect',
      'Customer',
    ]);
    const cleared = await t.rest(A, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: null });
    expect(cleared.body.data.lifecycle).toBeNull();
  });

  it('refuses unknown and malformed lifecycles and other tenants', async () => {
    const id = await t.person(A, { lifecycle: { lifecycleId: LEAD } });
    const unknown = await t.rest(A, 'PUT', `/people/${id}/lifecycle`, {
      lifecycleId: randomUUID(),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ field: 'lifecycleId', rule: 'unknownEntry' });
    expect((await t.rest(A, 'PUT', `/people/${id}/lifecycle`, {})).status).toBe(400);
    expect((await t.rest(A, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: 'x' })).status).toBe(
      400,
    );
    const foreign = await t.rest(B, 'PUT', `/people/${id}/lifecycle`, { lifecycleId: CUSTOMER });
    expect(foreign.status).toBe(404);
    const read = (await t.rest(A, 'GET', `/people/${id}`)).body.data;
    expect(read.lifecycle.lifecycleId).toBe(LEAD);
    expect(read.lifecycleHistories).toHaveLength(1);
  });
});

describe('GraphQL', () => {
  it('updatePerson, replacePersonOrgaTags, replacePersonPersonalities, updatePersonLifecycle', async () => {
    const id = await t.person(A, { firstname: 'Gina', lastname: 'Graph' });
    const upd = await t.gql(
      A,
      `mutation($id: ID!) { updatePerson(id: $id, input: { lastname: "Ql", title: null }) { name title } }`,
      { id },
    );
    expect(upd.body.data.updatePerson).toEqual({ name: 'Gina Ql', title: null });
    const tags = await t.gql(
      A,
      `mutation($id: ID!) { replacePersonOrgaTags(id: $id, tags: [{ text: "G1" }, { text: "G2" }]) { orgaTags { text } } }`,
      { id },
    );
    expect(tags.body.data.replacePersonOrgaTags.orgaTags).toEqual([{ text: 'G1' }, { text: 'G2' }]);
    const pers = await t.gql(
      A,
      `mutation($id: ID!) { replacePersonPersonalities(id: $id, personalities: [{ text: "Warm", category: "C" }]) { personalities { text category } } }`,
      { id },
    );
    expect(pers.body.data.replacePersonPersonalities.personalities).toEqual([
      { text: 'Warm', category: 'C' },
    ]);
    const life = await t.gql(
      A,
      `mutation($id: ID!, $l: ID) { updatePersonLifecycle(id: $id, lifecycleId: $l) { lifecycle { text } lifecycleHistories { text } } }`,
      { id, l: LEAD },
      { 'Accept-Language': 'de' },
    );
    expect(life.body.data.updatePersonLifecycle).toEqual({
      lifecycle: { text: 'Lead' },
      lifecycleHistories: [{ text: 'Lead' }],
    });
    const bad = await t.gql(
      A,
      `mutation($id: ID!) { replacePersonOrgaTags(id: $id, tags: [{ text: "${'y'.repeat(201)}" }]) { id } }`,
      { id },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: '[0].text', rule: 'maxLength' }],
    });
    const foreign = await t.gql(
      B,
      `mutation($id: ID!) { updatePerson(id: $id, input: { lastname: "B" }) { id } }`,
      { id },
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });
});
