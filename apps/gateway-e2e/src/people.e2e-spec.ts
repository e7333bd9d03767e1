import { randomUUID } from 'node:crypto';
import { tenantHeaders } from '@crm/testing';
import { Client, startClient, TestTenant } from './client';

// P3, P4, P11 through the gateway, REST and GraphQL, with the seed's limits and tenant isolation.

const PROSPECT = '00000000-0000-4000-a000-000000000102';
let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('people');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown());

function expectEnvelope(body: any, statusCode: number) {
  expect(Object.keys(body).sort()).toEqual(
    statusCode < 400 || !body.errors
      ? ['data', 'message', 'metaData', 'statusCode']
      : ['data', 'errors', 'message', 'metaData', 'statusCode'],
  );
  expect(Object.keys(body.metaData).sort()).toEqual(['responseTimeStamp', 'totalResults']);
  expect(body.metaData.responseTimeStamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(body.statusCode).toBe(statusCode);
}

describe('REST', () => {
  it('P3 creates a person: 201, envelope, computed and caller fields', async () => {
    const res = await client.rest(a, 'POST', '/people', {
      salutation: 'Herr',
      title: 'Prof.',
      firstname: 'Max',
      lastname: 'Mustermann',
      birthday: { birthday: '1970-01-31', considerBirthYear: true },
      importantDates: [{ text: 'Joined', date: '2015-03-01T09:00:00Z' }],
      socialMedias: [{ type: 'xing', link: 'https://www.xing.com/profile/max' }],
      orgaTags: [{ text: 'Board' }],
      personalities: [{ text: 'Driver', category: 'DISC' }],
      customerNumber: 'K-1',
      employeeStatus: 'employed',
      employeeNumber: '0815',
      lifecycle: { lifecycleId: PROSPECT },
    });
    expect(res.status).toBe(201);
    expectEnvelope(res.body, 201);
    expect(res.body.message).toBeNull();
    expect(res.body.metaData.totalResults).toBe(1);
    expect(res.body.data).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      firstname: 'Max',
      lastname: 'Mustermann',
      birthday: { birthday: '1970-01-31', considerBirthYear: true },
      orgaTags: [{ text: 'Board' }],
      personalities: [{ text: 'Driver', category: 'DISC' }],
      lifecycle: {
        lifecycleId: PROSPECT,
        text: 'Prospect',
        color: '#2196F3',
        dateChanged: expect.any(String),
      },
      lifecycleHistories: [{ lifecycleId: PROSPECT }],
      initials: 'MM',
      name: 'Max Mustermann',
      createdBy: 'test-suite',
      // the gateway tells the service which API key called
      createdByUserId: a.keyId,
      cards: [],
      relations: [],
    });
  });

  it('P3 with an Idempotency-Key: ten concurrent repeats and a late one create one person', async () => {
    const key = randomUUID();
    const lastname = `Idem-${key.slice(0, 8)}`;
    const send = () =>
      client.rest(
        a,
        'POST',
        '/people',
        { firstname: 'Once', lastname },
        { 'Idempotency-Key': key },
      );
    const answers = await Promise.all(Array.from({ length: 10 }, send));
    expect(answers.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const created = answers.filter((r) => r.status === 201);
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
    const late = await send();
    expect(late.status).toBe(201);
    expect(late.headers.get('idempotent-replayed')).toBe('true');
    expect(late.body.data.id).toBe(created[0].body.data.id);
    const found = await client.rest(a, 'GET', `/people?q=${lastname}`);
    expect(found.body.data.map((p: { lastname: string }) => p.lastname)).toEqual([lastname]);
  });

  it('P3 limits: 200 characters pass, 201 are refused naming field and rule', async () => {
    const ok = 'ä'.repeat(200);
    const fields = ['title', 'firstname', 'lastname', 'customerNumber'];
    const accepted = await client.rest(a, 'POST', '/people', {
      ...Object.fromEntries(fields.map((f) => [f, ok])),
      orgaTags: [{ text: ok }],
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.firstname).toBe(ok);
    for (const field of fields) {
      const res = await client.rest(a, 'POST', '/people', { [field]: 'ä'.repeat(201) });
      expect(res.status).toBe(400);
      expectEnvelope(res.body, 400);
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toEqual([
        { field, rule: 'maxLength', message: `${field} must be at most 200 characters long` },
      ]);
    }
    const tag = await client.rest(a, 'POST', '/people', { orgaTags: [{ text: 'ä'.repeat(201) }] });
    expect(tag.status).toBe(400);
    expect(tag.body.errors).toEqual([
      {
        field: 'orgaTags[0].text',
        rule: 'maxLength',
        message: 'orgaTags[0].text must be at most 200 characters long',
      },
    ]);
  });

  it('P3 answers in German with Accept-Language: de', async () => {
    const res = await client.rest(
      a,
      'POST',
      '/people',
      { lastname: 'x'.repeat(201) },
      { 'Accept-Language': 'de' },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Die Anfrage ist ungültig: 1 Problem gefunden');
    expect(res.body.errors[0].message).toBe('lastname darf höchstens 200 Zeichen lang sein');
    const ok = await client.rest(
      a,
      'POST',
      '/people',
      { lifecycle: { lifecycleId: PROSPECT } },
      { 'Accept-Language': 'de' },
    );
    expect(ok.body.data.lifecycle.text).toBe('Interessent');
  });

  it('P3 refuses an unknown lifecycle and malformed JSON', async () => {
    const res = await client.rest(a, 'POST', '/people', {
      lifecycle: { lifecycleId: randomUUID() },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      field: 'lifecycle.lifecycleId',
      rule: 'unknownEntry',
    });
    const broken = await client.raw('/v1/crm/people', {
      method: 'POST',
      headers: { ...tenantHeaders(a.id), Authorization: `Bearer ${a.key}` },
      body: '{"firstname": ',
    });
    expect(broken.status).toBe(400);
    expectEnvelope(broken.body, 400);
    expect(broken.body.message).toBe('The request body is not valid JSON');
  });

  it('P4 reads a person; another tenant and unknown ids get 404', async () => {
    const id = (await client.rest(a, 'POST', '/people', { firstname: 'Read', lastname: 'Me' })).body
      .data.id;
    const res = await client.rest(a, 'GET', `/people/${id}`);
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data).toMatchObject({ id, name: 'Read Me' });
    const foreign = await client.rest(b, 'GET', `/people/${id}`);
    expect(foreign.status).toBe(404);
    expectEnvelope(foreign.body, 404);
    expect(foreign.body.data).toBeNull();
    expect((await client.rest(a, 'GET', `/people/${randomUUID()}`)).status).toBe(404);
  });

  it('P11 updates the note: 10000 pass, 10001 refused, null clears, other tenants cannot', async () => {
    const id = (await client.rest(a, 'POST', '/people', { firstname: 'Noted' })).body.data.id;
    const set = await client.rest(a, 'PUT', `/people/${id}/notes`, { note: 'ü'.repeat(10000) });
    expect(set.status).toBe(200);
    expectEnvelope(set.body, 200);
    expect(set.body.data).toMatchObject({
      note: 'ü'.repeat(10000),
      createdBy: 'test-suite',
      modifiedBy: 'test-suite',
      createdByUserId: a.keyId,
      dateCreated: expect.stringMatching(/Z$/),
      dateModified: expect.stringMatching(/Z$/),
    });
    const tooLong = await client.rest(a, 'PUT', `/people/${id}/notes`, { note: 'ü'.repeat(10001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([
      { field: 'note', rule: 'maxLength', message: 'note must be at most 10000 characters long' },
    ]);
    const foreign = await client.rest(b, 'PUT', `/people/${id}/notes`, { note: 'hijack' });
    expect(foreign.status).toBe(404);
    expect((await client.rest(a, 'GET', `/people/${id}`)).body.data.note.note).toBe(
      'ü'.repeat(10000),
    );
    const cleared = await client.rest(a, 'PUT', `/people/${id}/notes`, { note: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.note).toBeNull();
    expect(
      (await client.rest(a, 'PUT', `/people/${randomUUID()}/notes`, { note: 'x' })).status,
    ).toBe(404);
  });
});

describe('GraphQL through the gateway', () => {
  it('createPerson, person and updatePersonNote use the REST field names', async () => {
    const created = await client.graphql(
      a,
      `mutation($input: CreatePersonInput!) {
        createPerson(input: $input) { id firstname lastname initials name createdByUserId lifecycle { lifecycleId text } }
      }`,
      { input: { firstname: 'Ada', lastname: 'Lovelace', lifecycle: { lifecycleId: PROSPECT } } },
    );
    expect(created.status).toBe(200);
    expect(created.body.errors).toBeUndefined();
    const p = created.body.data.createPerson;
    expect(p).toMatchObject({ initials: 'AL', name: 'Ada Lovelace', createdByUserId: a.keyId });
    expect(p.lifecycle).toEqual({ lifecycleId: PROSPECT, text: 'Prospect' });

    const note = await client.graphql(
      a,
      `mutation($id: ID!, $note: String) { updatePersonNote(id: $id, note: $note) { note modifiedBy } }`,
      {
        id: p.id,
        note: 'Analytical engine',
      },
    );
    expect(note.body.data.updatePersonNote).toEqual({
      note: 'Analytical engine',
      modifiedBy: 'test-suite',
    });

    const read = await client.graphql(
      a,
      `query($id: ID!) { person(id: $id) { id note { note } } }`,
      { id: p.id },
    );
    expect(read.body.data.person).toEqual({ id: p.id, note: { note: 'Analytical engine' } });
    const foreign = await client.graphql(b, `query($id: ID!) { person(id: $id) { id } }`, {
      id: p.id,
    });
    expect(foreign.body.data.person).toBeNull();

    const cleared = await client.graphql(
      a,
      `mutation($id: ID!) { updatePersonNote(id: $id, note: null) { note } }`,
      { id: p.id },
    );
    expect(cleared.body.data.updatePersonNote.note).toBeNull();
  });

  it('limits and errors carry extensions.code and statusCode, translated', async () => {
    const long = await client.graphql(
      a,
      `mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }`,
      { input: { customerNumber: 'c'.repeat(201) } },
      { 'Accept-Language': 'de' },
    );
    expect(long.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    expect(long.body.errors[0].extensions.errors[0]).toEqual({
      field: 'customerNumber',
      rule: 'maxLength',
      message: 'customerNumber darf höchstens 200 Zeichen lang sein',
    });
    const ok = await client.graphql(
      a,
      `mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }`,
      {
        input: { customerNumber: 'c'.repeat(200) },
      },
    );
    expect(ok.body.errors).toBeUndefined();
    const note = await client.graphql(
      a,
      `mutation($id: ID!, $n: String) { updatePersonNote(id: $id, note: $n) { note } }`,
      {
        id: ok.body.data.createPerson.id,
        n: 'n'.repeat(10001),
      },
    );
    expect(note.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    const missing = await client.graphql(
      b,
      `mutation($id: ID!) { updatePersonNote(id: $id, note: "x") { note } }`,
      {
        id: ok.body.data.createPerson.id,
      },
    );
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });
});
