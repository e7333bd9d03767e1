import { randomUUID } from 'node:crypto';
import { ServiceTestClient, tenantHeaders } from '@crm/testing';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { PeopleRepository } from './people.repository';

const PROSPECT = '00000000-0000-4000-a000-000000000102';
const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;

const { rest: call, graphql: gql } = new ServiceTestClient(() => svc.url, tenantHeaders(A));

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_people');
});
afterAll(async () => {
  await svc?.app.close();
});

describe('P3 POST /people', () => {
  it('creates a person with every seed field and answers 201 in the envelope', async () => {
    const callerId = randomUUID();
    const { status, body } = await call(
      'POST',
      '/people',
      {
        salutation: 'Frau',
        title: 'Dr.',
        firstname: 'Anna',
        lastname: 'Schmidt',
        birthday: { birthday: '1985-04-12', considerBirthYear: false },
        importantDates: [{ text: 'Anniversary', date: '2020-06-01T00:00:00Z' }],
        socialMedias: [{ type: 'linkedin', link: 'https://www.linkedin.com/in/anna' }],
        orgaTags: [{ text: 'VIP' }],
        personalities: [{ text: 'Analytical', category: 'DISC' }],
        customerNumber: 'C-1001',
        employeeStatus: 'active',
        employeeNumber: 'E-7',
        lifecycle: { lifecycleId: PROSPECT },
      },
      tenantHeaders(A, { 'X-Caller-Id': callerId }),
    );
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'metaData', 'statusCode']);
    expect(body.statusCode).toBe(201);
    expect(body.message).toBeNull();
    expect(body.metaData.totalResults).toBe(1);
    expect(new Date(body.metaData.responseTimeStamp).toISOString()).toBe(
      body.metaData.responseTimeStamp,
    );
    const p = body.data;
    expect(p).toMatchObject({
      salutation: 'Frau',
      title: 'Dr.',
      firstname: 'Anna',
      lastname: 'Schmidt',
      birthday: { birthday: '1985-04-12', considerBirthYear: false },
      importantDates: [{ text: 'Anniversary', date: '2020-06-01T00:00:00.000Z' }],
      socialMedias: [{ type: 'linkedin', link: 'https://www.linkedin.com/in/anna' }],
      orgaTags: [{ id: expect.any(String), text: 'VIP' }],
      personalities: [{ id: expect.any(String), text: 'Analytical', category: 'DISC' }],
      customerNumber: 'C-1001',
      employeeStatus: 'active',
      employeeNumber: 'E-7',
      lifecycle: { lifecycleId: PROSPECT, text: 'Prospect', color: '#2196F3' },
      lifecycleHistories: [{ lifecycleId: PROSPECT, text: 'Prospect' }],
      initials: 'AS',
      name: 'Anna Schmidt',
      createdBy: 'test-suite',
      createdByUserId: callerId,
      note: null,
      cards: [],
      relations: [],
      profileImage: null,
      detailImagePath: null,
    });
    expect(p.lifecycle.dateChanged).toMatch(/Z$/);
    expect(p.dateCreated).toMatch(/Z$/);
  });

  it('answers the create with exactly what a later read returns', async () => {
    const tag = (await call('POST', '/people', { orgaTags: [{ text: 'Existing' }] })).body.data
      .orgaTags[0];
    const created = await call('POST', '/people', {
      firstname: 'Same',
      lastname: 'Twice',
      orgaTags: [{ id: tag.id }, { text: 'Brand new' }],
      personalities: [{ text: 'Calm', category: 'Mood' }],
      lifecycle: { lifecycleId: PROSPECT },
      birthday: { birthday: '2001-02-03', considerBirthYear: true },
    });
    expect(created.status).toBe(201);
    const read = await call('GET', `/people/${created.body.data.id}`);
    expect(read.body.data).toEqual(created.body.data);
  });

  it('accepts 200 characters and refuses 201 in every limited field, naming field and rule', async () => {
    const ok = 'x'.repeat(200);
    const long = 'x'.repeat(201);
    const accepted = await call('POST', '/people', {
      title: ok,
      firstname: ok,
      lastname: ok,
      customerNumber: ok,
      orgaTags: [{ text: ok }],
    });
    expect(accepted.status).toBe(201);
    for (const field of ['title', 'firstname', 'lastname', 'customerNumber']) {
      const { status, body } = await call('POST', '/people', { [field]: long });
      expect(status).toBe(400);
      expect(body).toMatchObject({ data: null, statusCode: 400 });
      expect(body.errors).toEqual([
        { field, rule: 'maxLength', message: `${field} must be at most 200 characters long` },
      ]);
    }
    const tag = await call('POST', '/people', { orgaTags: [{ text: long }] });
    expect(tag.status).toBe(400);
    expect(tag.body.errors[0]).toMatchObject({ field: 'orgaTags[0].text', rule: 'maxLength' });
  });

  it('translates errors and system list texts by Accept-Language', async () => {
    const de = tenantHeaders(A, { 'Accept-Language': 'de-DE,de;q=0.9' });
    const bad = await call('POST', '/people', { firstname: 'x'.repeat(201) }, de);
    expect(bad.body.message).toBe('Die Anfrage ist ungültig: 1 Problem gefunden');
    expect(bad.body.errors[0].message).toBe('firstname darf höchstens 200 Zeichen lang sein');
    const good = await call('POST', '/people', { lifecycle: { lifecycleId: PROSPECT } }, de);
    expect(good.body.data.lifecycle.text).toBe('Interessent');
  });

  it('refuses a lifecycle that is not in the tenant list, and unknown fields', async () => {
    const { status, body } = await call('POST', '/people', {
      lifecycle: { lifecycleId: randomUUID() },
    });
    expect(status).toBe(400);
    expect(body.errors[0]).toMatchObject({ field: 'lifecycle.lifecycleId', rule: 'unknownEntry' });
    const unknown = await call('POST', '/people', { firstname: 'A', password: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({
      field: 'password',
      rule: 'whitelistValidation',
    });
    const types = await call('POST', '/people', {
      firstname: 42,
      birthday: { considerBirthYear: 'yes' },
    });
    expect(types.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'birthday.considerBirthYear',
      'firstname',
    ]);
  });

  it('accepts a tenant lifecycle entry and reuses tags by text, case-insensitively', async () => {
    const first = await call('POST', '/people', { orgaTags: [{ text: 'Partner' }] });
    const second = await call('POST', '/people', { orgaTags: [{ text: 'partner' }] });
    expect(second.body.data.orgaTags[0].id).toBe(first.body.data.orgaTags[0].id);
    const byId = await call('POST', '/people', {
      orgaTags: [{ id: first.body.data.orgaTags[0].id }],
    });
    expect(byId.body.data.orgaTags).toEqual([
      { id: first.body.data.orgaTags[0].id, text: 'Partner' },
    ]);
  });

  it('writes nothing when a later part of the input is refused', async () => {
    const text = `Atomic-${randomUUID()}`;
    const { status } = await call('POST', '/people', {
      lastname: 'Nobody',
      orgaTags: [{ text }],
      personalities: [{ id: randomUUID() }],
    });
    expect(status).toBe(400);
    const again = await call('POST', '/people', { orgaTags: [{ text }] });
    // Had the first request left its tag behind, this would reuse it; the count proves it did not.
    const { Client } = await import('pg');
    const db = new Client({ connectionString: svc.databaseUrl });
    await db.connect();
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM "SettingsEntry" WHERE text = $1`,
      [text],
    );
    const people = await db.query(
      `SELECT count(*)::int AS n FROM "Person" WHERE lastname = 'Nobody'`,
    );
    await db.end();
    expect(again.status).toBe(201);
    expect(rows[0].n).toBe(1);
    expect(people.rows[0].n).toBe(0);
  });

  it('answers 400 naming each missing or empty required header', async () => {
    for (const header of ['X-Integration-Name', 'X-Integration-Provider', 'X-Service-TenantId']) {
      const headers = tenantHeaders(A);
      delete headers[header];
      const missing = await call('POST', '/people', {}, headers);
      expect(missing.status).toBe(400);
      expect(missing.body.message).toContain(header);
      const empty = await call('POST', '/people', {}, { ...tenantHeaders(A), [header]: ' ' });
      expect(empty.status).toBe(400);
      expect(empty.body.message).toContain(header);
    }
  });
});

describe('P4 GET /people/{id} and P11 PUT /people/{id}/notes', () => {
  let id: string;
  beforeAll(async () => {
    id = (await call('POST', '/people', { firstname: 'Note', lastname: 'Holder' })).body.data.id;
  });

  it('reads a person of the tenant and hides it from others', async () => {
    expect((await call('GET', `/people/${id}`)).body.data.name).toBe('Note Holder');
    const foreign = await call('GET', `/people/${id}`, undefined, tenantHeaders(B));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ data: null, statusCode: 404 });
    expect((await call('GET', `/people/${randomUUID()}`)).status).toBe(404);
    expect((await call('GET', '/people/not-a-uuid')).status).toBe(404);
  });

  it('sets, limits and clears the note', async () => {
    const set = await call('PUT', `/people/${id}/notes`, { note: 'n'.repeat(10000) });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({
      note: 'n'.repeat(10000),
      createdBy: 'test-suite',
      modifiedBy: 'test-suite',
    });
    expect(Object.keys(set.body.data).sort()).toEqual([
      'createdBy',
      'createdByUserId',
      'dateCreated',
      'dateModified',
      'modifiedBy',
      'modifiedByUserId',
      'note',
    ]);
    const tooLong = await call('PUT', `/people/${id}/notes`, { note: 'n'.repeat(10001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0]).toMatchObject({ field: 'note', rule: 'maxLength' });
    expect((await call('PUT', `/people/${id}/notes`, {})).status).toBe(400);
    const cleared = await call('PUT', `/people/${id}/notes`, { note: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.note).toBeNull();
    expect((await call('GET', `/people/${id}`)).body.data.note.note).toBeNull();
  });

  it('does not let another tenant change the note', async () => {
    await call('PUT', `/people/${id}/notes`, { note: 'mine' });
    const foreign = await call('PUT', `/people/${id}/notes`, { note: 'theirs' }, tenantHeaders(B));
    expect(foreign.status).toBe(404);
    expect((await call('GET', `/people/${id}`)).body.data.note.note).toBe('mine');
  });
});

describe('GraphQL subgraph', () => {
  it('creates, reads and updates the note with the REST field names', async () => {
    const created = await gql(
      `mutation($input: CreatePersonInput!) { createPerson(input: $input) { id name initials lifecycle { text } } }`,
      { input: { firstname: 'Gra', lastname: 'Phql', lifecycle: { lifecycleId: PROSPECT } } },
    );
    expect(created.body.errors).toBeUndefined();
    const { id } = created.body.data.createPerson;
    expect(created.body.data.createPerson).toMatchObject({ name: 'Gra Phql', initials: 'GP' });
    const note = await gql(
      `mutation($id: ID!) { updatePersonNote(id: $id, note: "hello") { note createdBy } }`,
      { id },
    );
    expect(note.body.data.updatePersonNote).toEqual({ note: 'hello', createdBy: 'test-suite' });
    const read = await gql(`query($id: ID!) { person(id: $id) { firstname note { note } } }`, {
      id,
    });
    expect(read.body.data.person).toEqual({ firstname: 'Gra', note: { note: 'hello' } });
    const foreign = await gql(
      `query($id: ID!) { person(id: $id) { id } }`,
      { id },
      tenantHeaders(B),
    );
    expect(foreign.body.data.person).toBeNull();
  });

  it('reports validation and not-found errors with extensions.code and statusCode', async () => {
    const bad = await gql(
      `mutation { createPerson(input: { firstname: "${'x'.repeat(201)}" }) { id } }`,
    );
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
      errors: [{ field: 'firstname', rule: 'maxLength' }],
    });
    const missing = await gql(
      `mutation { updatePersonNote(id: "${randomUUID()}", note: "x") { note } }`,
    );
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const headers = tenantHeaders(A);
    delete headers['X-Service-TenantId'];
    const noTenant = await gql(`{ person(id: "${randomUUID()}") { id } }`, {}, headers);
    expect(noTenant.body.errors[0].extensions).toMatchObject({
      code: 'BAD_REQUEST',
      statusCode: 400,
    });
    expect(noTenant.body.errors[0].message).toContain('X-Service-TenantId');
  });

  it('resolves many Person references with one repository query', async () => {
    const ids: string[] = [];
    for (const n of ['One', 'Two', 'Three']) {
      ids.push((await call('POST', '/people', { firstname: n })).body.data.id);
    }
    const repo = svc.app.get(PeopleRepository);
    const spy = jest.spyOn(repo, 'findByIds');
    const reps = [...ids, randomUUID()].map((id) => ({ __typename: 'Person', id }));
    const res = await gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Person { id firstname } } }`,
      { r: reps },
    );
    expect(res.body.errors).toBeUndefined();
    expect(
      res.body.data._entities.map((e: { firstname: string } | null) => e?.firstname ?? null),
    ).toEqual(['One', 'Two', 'Three', null]);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});
