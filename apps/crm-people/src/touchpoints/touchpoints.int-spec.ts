import { randomUUID } from 'node:crypto';
import { PeopleService } from '../people/people.service';
import { CompaniesStandIn } from '../test/companies-stand-in';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { apiOf } from './test/api';

// T1-T5 and T7 over REST and GraphQL against a real crm-people (PostgreSQL, NATS).

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
let svc: RunningService;
let companies: CompaniesStandIn;
/** A company crm-companies (its stand-in) knows for tenant A. */
const companyOfA = () => companies.add(A, randomUUID());
const { call, gql, person, touchpoint } = apiOf(() => svc);

let anna: string;
let ben: string;
let foreign: string;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_t_crud');
  companies = await CompaniesStandIn.connect();
  await companies.start();
  anna = await person(A, 'Adams');
  ben = await person(A, 'Baker');
  foreign = await person(B, 'Other');
}, 60000);
afterAll(async () => {
  await companies?.close();
  await svc?.app.close();
});

const fieldsOf = (body: { errors?: { field: string }[] }) =>
  (body.errors ?? []).map((e) => e.field);

describe('T3 POST /touchpoints', () => {
  it('creates a touchpoint with every field: 201, calculated fields, read answers the same', async () => {
    const callerId = randomUUID();
    const companyId = companyOfA();
    const res = await call(
      A,
      'POST',
      '/touchpoints',
      {
        type: 'meeting',
        subject: 'Quarterly review',
        description: 'Budget and roadmap',
        start: '2020-03-01T09:00:00Z',
        end: '2020-03-01T10:30:00+00:00',
        personIds: [ben, anna, anna],
        companyId,
        priority: 1,
        mood: { mood: 'good', comment: 'constructive' },
        tags: [{ text: 'Key account' }],
      },
      { 'X-Caller-Id': callerId },
    );
    expect(res.status).toBe(201);
    expect(res.body.statusCode).toBe(201);
    const t = res.body.data;
    expect(t).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'meeting',
      subject: 'Quarterly review',
      description: 'Budget and roadmap',
      start: '2020-03-01T09:00:00.000Z',
      end: '2020-03-01T10:30:00.000Z',
      // repeats dropped, ordered by last name
      personIds: [anna, ben],
      companyId,
      priority: 1,
      moods: [{ mood: 'good', comment: 'constructive', createdBy: 'test-suite' }],
      tags: [{ id: expect.any(String), text: 'Key account' }],
      durationMinutes: 90,
      isPast: true,
      isUpcoming: false,
      currentMood: 'good',
      participantCount: 2,
      createdBy: 'test-suite',
      createdByUserId: callerId,
    });
    const read = await call(A, 'GET', `/touchpoints/${t.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(t);
  });

  it('defaults priority to 3 and leaves optional fields empty', async () => {
    const t = await touchpoint(A, [anna], { start: '2099-01-01T00:00:00Z' });
    expect(t).toMatchObject({
      priority: 3,
      description: null,
      end: null,
      companyId: null,
      moods: [],
      tags: [],
      durationMinutes: null,
      isPast: false,
      isUpcoming: true,
      currentMood: null,
      participantCount: 1,
    });
  });

  it('accepts the limits and refuses one more, naming field and rule', async () => {
    const ok = await call(A, 'POST', '/touchpoints', {
      type: 'note',
      subject: 's'.repeat(200),
      description: 'd'.repeat(10000),
      start: '2026-01-01T00:00:00Z',
      personIds: [anna],
      priority: 5,
    });
    expect(ok.status).toBe(201);
    const bad = await call(A, 'POST', '/touchpoints', {
      type: 'fax',
      subject: 's'.repeat(201),
      description: 'd'.repeat(10001),
      start: 'yesterday',
      end: '2026-01-01',
      personIds: [],
      priority: 6,
      companyId: 'acme',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toBeNull();
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'type', rule: 'isIn' }),
        expect.objectContaining({ field: 'subject', rule: 'maxLength' }),
        expect.objectContaining({ field: 'description', rule: 'maxLength' }),
        expect.objectContaining({ field: 'start', rule: 'isIso8601' }),
        expect.objectContaining({ field: 'personIds', rule: 'arrayMinSize' }),
        expect.objectContaining({ field: 'priority', rule: 'max' }),
        expect.objectContaining({ field: 'companyId', rule: 'isUuid' }),
      ]),
    );
    expect(bad.body.errors.find((e: { field: string }) => e.field === 'subject').message).toBe(
      'subject must be at most 200 characters long',
    );
  });

  it('requires type, subject, start and people', async () => {
    const res = await call(A, 'POST', '/touchpoints', {});
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body).sort()).toEqual(['personIds', 'start', 'subject', 'type']);
    expect(res.body.errors[0].rule).toBe('isDefined');
  });

  it('refuses an end before the start and names every bad person by index, in German too', async () => {
    const before = (await call(A, 'GET', '/touchpoints?pageSize=1')).body.metaData.totalResults;
    const res = await call(
      A,
      'POST',
      '/touchpoints',
      {
        type: 'call',
        subject: 'x',
        start: '2026-01-02T10:00:00Z',
        end: '2026-01-02T09:59:59Z',
        personIds: [anna, 'nope', foreign, randomUUID()],
      },
      { 'Accept-Language': 'de' },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'end', rule: 'endBeforeStart', message: 'end darf nicht vor dem Beginn liegen' },
      { field: 'personIds[1]', rule: 'isUuid', message: 'personIds[1] muss eine UUID sein' },
      {
        field: 'personIds[2]',
        rule: 'unknownPerson',
        message: 'personIds[2] bezeichnet keine Person dieses Mandanten',
      },
      {
        field: 'personIds[3]',
        rule: 'unknownPerson',
        message: 'personIds[3] bezeichnet keine Person dieses Mandanten',
      },
    ]);
    expect((await call(A, 'GET', '/touchpoints?pageSize=1')).body.metaData.totalResults).toBe(
      before,
    );
  });

  it('refuses tags that are not orga tags of the tenant, and unknown fields', async () => {
    const res = await call(A, 'POST', '/touchpoints', {
      type: 'call',
      subject: 'x',
      start: '2026-01-02T10:00:00Z',
      personIds: [anna],
      tags: [{ id: randomUUID() }],
      color: 'red',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string; rule: string }) => [e.field, e.rule])).toEqual([
      ['color', 'whitelistValidation'],
    ]);
    const tag = await call(A, 'POST', '/touchpoints', {
      type: 'call',
      subject: 'x',
      start: '2026-01-02T10:00:00Z',
      personIds: [anna],
      tags: [{ id: randomUUID() }],
    });
    expect(tag.status).toBe(400);
    expect(tag.body.errors).toEqual([
      expect.objectContaining({ field: 'tags[0].id', rule: 'unknownEntry' }),
    ]);
  });
});

describe('T2 GET /touchpoints/{id}', () => {
  it('answers 404 for another tenant, an unknown and a malformed id', async () => {
    const t = await touchpoint(A, [anna]);
    for (const [tenant, id] of [
      [B, t.id],
      [A, randomUUID()],
      [A, 'not-a-uuid'],
    ]) {
      const res = await call(tenant, 'GET', `/touchpoints/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`Touchpoint ${id} was not found`);
    }
  });
});

describe('the company of a touchpoint (crm-companies over NATS)', () => {
  const body = (companyId: string) => ({
    type: 'call',
    subject: 'Company check',
    start: '2025-01-01T09:00:00Z',
    personIds: [anna],
    companyId,
  });
  const count = async (tenant: string) =>
    (await call(tenant, 'GET', '/touchpoints?q=Company%20check')).body.metaData.totalResults;

  it('unknown or another tenant’s company -> 400 on companyId, nothing written', async () => {
    const before = await count(A);
    for (const companyId of [randomUUID(), companies.add(B, randomUUID())]) {
      const res = await call(A, 'POST', '/touchpoints', body(companyId));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ field: 'companyId', rule: 'unknownCompany' }),
      ]);
    }
    const de = await call(A, 'POST', '/touchpoints', body(randomUUID()), {
      'Accept-Language': 'de',
    });
    expect(de.body.errors[0].message).toBe('companyId bezeichnet keine Firma dieses Mandanten');
    const validated = await call(A, 'POST', '/touchpoints/validate', body(randomUUID()));
    expect(validated.body.data.valid).toBe(false);
    expect(fieldsOf(validated.body.data)).toEqual(['companyId']);
    expect(await count(A)).toBe(before);
  });

  it('crm-companies not answering -> 503 naming it, nothing written; an unchanged company is not asked again', async () => {
    const known = companyOfA();
    const created = await call(A, 'POST', '/touchpoints', body(known));
    expect(created.status).toBe(201);
    const before = await count(A);
    await companies.stop();
    try {
      const res = await call(A, 'POST', '/touchpoints', body(companyOfA()));
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('crm-companies');
      expect(await count(A)).toBe(before);
      // the touchpoint keeps the company it has: nothing to ask
      const kept = await call(A, 'PUT', `/touchpoints/${created.body.data.id}`, {
        ...body(known),
        subject: 'Company check (renamed)',
      });
      expect(kept.status).toBe(200);
      expect(kept.body.data.companyId).toBe(known);
    } finally {
      await companies.start();
    }
  });
});

describe('T4 PUT /touchpoints/{id}', () => {
  it('replaces fields, people and tags and keeps the mood history', async () => {
    const t = await touchpoint(A, [anna], {
      priority: 1,
      companyId: companyOfA(),
      mood: { mood: 'bad' },
      tags: [{ text: 'Old tag' }],
    });
    const res = await call(A, 'PUT', `/touchpoints/${t.id}`, {
      type: 'visit',
      subject: 'On site',
      start: '2026-02-01T08:00:00Z',
      end: '2026-02-01T08:45:00Z',
      personIds: [ben],
      tags: [{ text: 'New tag' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: t.id,
      type: 'visit',
      subject: 'On site',
      personIds: [ben],
      companyId: null,
      priority: 3,
      tags: [{ text: 'New tag' }],
      moods: [{ mood: 'bad' }],
      currentMood: 'bad',
      durationMinutes: 45,
      dateCreated: t.dateCreated,
    });
    expect(res.body.data.dateModified >= t.dateModified).toBe(true);
  });

  it('validates like create and refuses a mood (moods are added with T13)', async () => {
    const t = await touchpoint(A, [anna]);
    const res = await call(A, 'PUT', `/touchpoints/${t.id}`, {
      type: 'call',
      subject: 'x',
      start: '2026-02-01T08:00:00Z',
      personIds: [foreign],
      mood: { mood: 'good' },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['mood']);
    const people = await call(A, 'PUT', `/touchpoints/${t.id}`, {
      type: 'call',
      subject: 'x',
      start: '2026-02-01T08:00:00Z',
      personIds: [foreign],
    });
    expect(people.status).toBe(400);
    expect(fieldsOf(people.body)).toEqual(['personIds[0]']);
    expect((await call(A, 'GET', `/touchpoints/${t.id}`)).body.data).toEqual(t);
  });

  it("answers 404 for another tenant's touchpoint and changes nothing", async () => {
    const t = await touchpoint(A, [anna]);
    const res = await call(B, 'PUT', `/touchpoints/${t.id}`, {
      type: 'call',
      subject: 'hijack',
      start: '2026-02-01T08:00:00Z',
      personIds: [foreign],
    });
    expect(res.status).toBe(404);
    expect((await call(A, 'GET', `/touchpoints/${t.id}`)).body.data).toEqual(t);
  });
});

describe('T5 DELETE /touchpoints/{id}', () => {
  it('deletes and answers with what was deleted; then 404', async () => {
    const t = await touchpoint(A, [anna]);
    const res = await call(A, 'DELETE', `/touchpoints/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(t);
    expect((await call(A, 'GET', `/touchpoints/${t.id}`)).status).toBe(404);
    expect((await call(A, 'DELETE', `/touchpoints/${t.id}`)).status).toBe(404);
  });

  it("answers 404 for another tenant's touchpoint and keeps it", async () => {
    const t = await touchpoint(A, [anna]);
    expect((await call(B, 'DELETE', `/touchpoints/${t.id}`)).status).toBe(404);
    expect((await call(A, 'GET', `/touchpoints/${t.id}`)).status).toBe(200);
  });
});

describe('T1 GET /touchpoints', () => {
  let ids: Record<string, string>;
  let vip: string;
  let companyId: string;

  beforeAll(async () => {
    companyId = companyOfA();
    const listed = await person(A, 'Listed');
    const other = await person(A, 'Unlisted');
    const first = await touchpoint(A, [listed], {
      subject: 'Kick-off',
      start: '2025-05-01T08:00:00Z',
      priority: 2,
      tags: [{ text: 'List VIP' }],
    });
    vip = first.tags[0].id;
    const second = await touchpoint(A, [listed, other], {
      type: 'email',
      subject: 'Follow-up',
      description: 'about the PRICING',
      start: '2025-05-03T08:00:00Z',
      priority: 5,
      companyId,
    });
    const third = await touchpoint(A, [listed], {
      subject: 'Wrap-up',
      start: '2025-05-05T08:00:00Z',
      priority: 1,
      tags: [{ id: vip }],
    });
    await touchpoint(A, [other], { subject: 'Elsewhere', start: '2025-05-04T08:00:00Z' });
    ids = { listed, first: first.id, second: second.id, third: third.id };
  });

  const subjects = (body: { data: { subject: string }[] }) => body.data.map((t) => t.subject);

  it('filters by person, newest first by default, with the total across pages', async () => {
    const page1 = await call(A, 'GET', `/touchpoints?personId=${ids.listed}&pageSize=2`);
    expect(page1.status).toBe(200);
    expect(subjects(page1.body)).toEqual(['Wrap-up', 'Follow-up']);
    expect(page1.body.metaData.totalResults).toBe(3);
    const page2 = await call(A, 'GET', `/touchpoints?personId=${ids.listed}&pageSize=2&page=2`);
    expect(subjects(page2.body)).toEqual(['Kick-off']);
  });

  it('filters by company, tag, type, time range and text', async () => {
    const q = async (query: string) =>
      subjects((await call(A, 'GET', `/touchpoints?personId=${ids.listed}&${query}`)).body);
    expect(await q(`companyId=${companyId}`)).toEqual(['Follow-up']);
    expect(await q(`tagId=${vip}`)).toEqual(['Wrap-up', 'Kick-off']);
    expect(await q('type=email')).toEqual(['Follow-up']);
    expect(await q('from=2025-05-03T08:00:00Z&to=2025-05-05T07:59:59Z')).toEqual(['Follow-up']);
    expect(await q('q=pricing')).toEqual(['Follow-up']);
  });

  it('sorts by start, priority and dateCreated', async () => {
    const q = async (sort: string) =>
      subjects((await call(A, 'GET', `/touchpoints?personId=${ids.listed}&sort=${sort}`)).body);
    expect(await q('start')).toEqual(['Kick-off', 'Follow-up', 'Wrap-up']);
    expect(await q('-start')).toEqual(['Wrap-up', 'Follow-up', 'Kick-off']);
    expect(await q('priority')).toEqual(['Wrap-up', 'Kick-off', 'Follow-up']);
    expect(await q('dateCreated')).toEqual(['Kick-off', 'Follow-up', 'Wrap-up']);
  });

  it('refuses unknown sort fields, malformed filters and a range ending before it starts', async () => {
    const sort = await call(A, 'GET', '/touchpoints?sort=password');
    expect(sort.status).toBe(400);
    expect(sort.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
    const bad = await call(A, 'GET', '/touchpoints?personId=x&from=soon&pageSize=501');
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(['from', 'pageSize', 'personId']);
    const range = await call(
      A,
      'GET',
      '/touchpoints?from=2025-05-05T00:00:00Z&to=2025-05-01T00:00:00Z',
    );
    expect(range.status).toBe(400);
    expect(range.body.errors[0]).toMatchObject({ field: 'to', rule: 'toBeforeFrom' });
  });

  it("never lists another tenant's touchpoints", async () => {
    const res = await call(B, 'GET', `/touchpoints?personId=${ids.listed}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.metaData.totalResults).toBe(0);
  });
});

describe('T7 POST /touchpoints/validate', () => {
  it('answers valid with the calculated fields and writes nothing', async () => {
    const before = (await call(A, 'GET', '/touchpoints?pageSize=1')).body.metaData.totalResults;
    const res = await call(A, 'POST', '/touchpoints/validate', {
      type: 'call',
      subject: 'Planned',
      start: '2099-01-01T10:00:00Z',
      end: '2099-01-01T10:20:00Z',
      personIds: [anna, ben],
      mood: { mood: 'neutral' },
      tags: [{ text: 'Never created' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: {
        durationMinutes: 20,
        isPast: false,
        isUpcoming: true,
        currentMood: 'neutral',
        participantCount: 2,
      },
    });
    expect((await call(A, 'GET', '/touchpoints?pageSize=1')).body.metaData.totalResults).toBe(
      before,
    );
  });

  it('answers 200 with every problem of class-validator and the domain checks', async () => {
    const res = await call(A, 'POST', '/touchpoints/validate', {
      type: 'call',
      subject: '',
      start: '2026-01-01T10:00:00Z',
      end: '2026-01-01T09:00:00Z',
      personIds: [anna, foreign],
      extra: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.errors).toEqual([
      { field: 'extra', rule: 'whitelistValidation', message: 'extra is not a known field' },
      { field: 'subject', rule: 'isNotEmpty', message: 'subject must not be empty' },
      { field: 'end', rule: 'endBeforeStart', message: 'end must not be before start' },
      {
        field: 'personIds[1]',
        rule: 'unknownPerson',
        message: 'personIds[1] does not name a person of this tenant',
      },
    ]);
    expect(res.body.data.calculated).toMatchObject({ durationMinutes: -60, participantCount: 2 });
  });

  it('has no calculated fields without a usable start', async () => {
    const res = await call(A, 'POST', '/touchpoints/validate', {});
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.calculated).toBeNull();
    expect(fieldsOf(res.body.data).sort()).toEqual(['personIds', 'start', 'subject', 'type']);
  });
});

describe('GraphQL', () => {
  const FIELDS = `id subject personIds priority currentMood durationMinutes participantCount
    people { id lastname } tags { id text } moods { mood }`;

  it('creates, reads (with people), lists, updates, validates and deletes', async () => {
    const created = await gql(
      A,
      `mutation($input: CreateTouchpointInput!) { createTouchpoint(input: $input) { ${FIELDS} } }`,
      {
        input: {
          type: 'chat',
          subject: 'Via GraphQL',
          start: '2024-07-01T12:00:00Z',
          end: '2024-07-01T12:05:00Z',
          personIds: [ben, anna],
          mood: { mood: 'very-good' },
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const t = created.body.data.createTouchpoint;
    expect(t).toMatchObject({
      subject: 'Via GraphQL',
      personIds: [anna, ben],
      people: [
        { id: anna, lastname: 'Adams' },
        { id: ben, lastname: 'Baker' },
      ],
      currentMood: 'very-good',
      durationMinutes: 5,
      participantCount: 2,
    });

    const read = await gql(A, `query($id: ID!) { touchpoint(id: $id) { ${FIELDS} } }`, {
      id: t.id,
    });
    expect(read.body.data.touchpoint).toEqual(t);
    const foreignRead = await gql(B, `query($id: ID!) { touchpoint(id: $id) { id } }`, {
      id: t.id,
    });
    expect(foreignRead.body.data.touchpoint).toBeNull();

    const list = await gql(
      A,
      `query($p: ID) { touchpoints(personId: $p, type: "chat", sort: "-start", pageSize: 10) {
        totalResults items { id people { lastname } } } }`,
      { p: anna },
    );
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data.touchpoints.totalResults).toBe(1);
    expect(
      list.body.data.touchpoints.items[0].people.map((p: { lastname: string }) => p.lastname),
    ).toEqual(['Adams', 'Baker']);

    const updated = await gql(
      A,
      `mutation($id: ID!, $input: TouchpointInput!) { updateTouchpoint(id: $id, input: $input) { ${FIELDS} } }`,
      {
        id: t.id,
        input: {
          type: 'chat',
          subject: 'Renamed',
          start: '2024-07-01T12:00:00Z',
          personIds: [ben],
          priority: 4,
        },
      },
    );
    expect(updated.body.data.updateTouchpoint).toMatchObject({
      subject: 'Renamed',
      priority: 4,
      personIds: [ben],
      moods: [{ mood: 'very-good' }],
    });

    const validation = await gql(
      A,
      `mutation($input: CreateTouchpointInput!) { validateTouchpoint(input: $input) {
        valid errors { field rule message } calculated { durationMinutes participantCount } } }`,
      {
        input: {
          type: 'chat',
          subject: 's'.repeat(201),
          start: '2024-07-01T12:00:00Z',
          personIds: [anna],
        },
      },
    );
    expect(validation.body.data.validateTouchpoint).toEqual({
      valid: false,
      errors: [
        {
          field: 'subject',
          rule: 'maxLength',
          message: 'subject must be at most 200 characters long',
        },
      ],
      calculated: { durationMinutes: null, participantCount: 1 },
    });

    const foreignDelete = await gql(B, `mutation($id: ID!) { deleteTouchpoint(id: $id) { id } }`, {
      id: t.id,
    });
    expect(foreignDelete.body.errors[0].extensions).toMatchObject({
      code: 'NOT_FOUND',
      statusCode: 404,
    });
    const deleted = await gql(A, `mutation($id: ID!) { deleteTouchpoint(id: $id) { id } }`, {
      id: t.id,
    });
    expect(deleted.body.data.deleteTouchpoint.id).toBe(t.id);
  });

  it('loads the people of a whole list in one batch, not one query per touchpoint', async () => {
    const carl = await person(A, 'Clark');
    for (const start of ['2023-01-01T00:00:00Z', '2023-01-02T00:00:00Z', '2023-01-03T00:00:00Z'])
      await touchpoint(A, [carl, anna], { start, type: 'letter' });
    const spy = jest.spyOn(svc.app.get(PeopleService), 'getMany');
    try {
      const res = await gql(
        A,
        `query($p: ID) { touchpoints(personId: $p, type: "letter") { items { people { lastname } } } }`,
        { p: carl },
      );
      expect(res.body.data.touchpoints.items).toHaveLength(3);
      for (const item of res.body.data.touchpoints.items)
        expect(item.people.map((p: { lastname: string }) => p.lastname)).toEqual([
          'Adams',
          'Clark',
        ]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect([...spy.mock.calls[0][1]].sort()).toEqual([anna, carl].sort());
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses bad input with extensions naming field and rule', async () => {
    const res = await gql(
      A,
      `mutation($input: CreateTouchpointInput!) { createTouchpoint(input: $input) { id } }`,
      {
        input: { type: 'call', subject: 'x', start: '2024-07-01T12:00:00Z', personIds: [foreign] },
      },
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
      errors: [expect.objectContaining({ field: 'personIds[0]', rule: 'unknownPerson' })],
    });
  });
});
