import { randomUUID } from 'node:crypto';
import { Client, startClient, TestTenant } from './client';

// T1-T14 through the gateway (REST and GraphQL): one success and the main failure per row, and
// tenant isolation on every route (another tenant's ids -> 404, nothing changed).

let client: Client;
let a: TestTenant;
let b: TestTenant;
let anna: string;
let ben: string;
let foreignPerson: string;
let foreign: Touchpoint;

type Touchpoint = { id: string; [field: string]: any };

beforeAll(async () => {
  client = await startClient('touchpoints');
  a = await client.tenant();
  b = await client.tenant();
  anna = await person(a, 'Adams');
  ben = await person(a, 'Baker');
  foreignPerson = await person(b, 'Other');
  foreign = await touchpoint(b, [foreignPerson], { tags: [{ text: 'Theirs' }] });
}, 120000);
afterAll(async () => client?.stack.shutdown());

async function person(t: TestTenant, lastname: string): Promise<string> {
  const res = await client.rest(t, 'POST', '/people', { firstname: 'E', lastname });
  if (res.status !== 201) throw new Error(`person: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

async function touchpoint(
  t: TestTenant,
  personIds: string[],
  fields: Record<string, unknown> = {},
): Promise<Touchpoint> {
  const res = await client.rest(t, 'POST', '/touchpoints', {
    type: 'call',
    subject: 'Call',
    start: '2026-01-10T09:00:00Z',
    personIds,
    ...fields,
  });
  if (res.status !== 201) throw new Error(`touchpoint: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const read = async (t: TestTenant, id: string) =>
  (await client.rest(t, 'GET', `/touchpoints/${id}`)).body.data;
const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);

/** The foreign touchpoint is as it was. */
async function foreignUnchanged() {
  expect(await read(b, foreign.id)).toEqual(foreign);
}

describe('REST', () => {
  it('T3 creates a touchpoint: 201, envelope, calculated fields; bad people named by index', async () => {
    const res = await client.rest(a, 'POST', '/touchpoints', {
      type: 'meeting',
      subject: 'Kick-off',
      start: '2026-02-01T09:00:00Z',
      end: '2026-02-01T10:00:00Z',
      personIds: [ben, anna],
      priority: 2,
      mood: { mood: 'good' },
      tags: [{ text: 'Project' }],
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'metaData', 'statusCode']);
    expect(res.body.data).toMatchObject({
      subject: 'Kick-off',
      personIds: [anna, ben],
      priority: 2,
      durationMinutes: 60,
      currentMood: 'good',
      participantCount: 2,
      tags: [{ text: 'Project' }],
      createdBy: 'test-suite',
      createdByUserId: a.keyId,
    });
    const bad = await client.rest(a, 'POST', '/touchpoints', {
      type: 'call',
      subject: 'x',
      start: '2026-02-01T09:00:00Z',
      personIds: [anna, foreignPerson],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toBeNull();
    expect(errorsOf(bad.body)).toEqual([['personIds[1]', 'unknownPerson']]);
  });

  it('T2 reads a touchpoint; another tenant gets 404', async () => {
    const t = await touchpoint(a, [anna]);
    const res = await client.rest(a, 'GET', `/touchpoints/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(t);
    const other = await client.rest(b, 'GET', `/touchpoints/${t.id}`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(`Touchpoint ${t.id} was not found`);
  });

  it('T1 lists with filters and paging; another tenant sees nothing', async () => {
    const p = await person(a, 'Listed');
    await touchpoint(a, [p], { subject: 'First', start: '2025-01-01T00:00:00Z' });
    await touchpoint(a, [p], { subject: 'Second', start: '2025-01-02T00:00:00Z', type: 'email' });
    const res = await client.rest(a, 'GET', `/touchpoints?personId=${p}&sort=start&pageSize=1`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: Touchpoint) => t.subject)).toEqual(['First']);
    expect(res.body.metaData.totalResults).toBe(2);
    const typed = await client.rest(a, 'GET', `/touchpoints?personId=${p}&type=email`);
    expect(typed.body.data.map((t: Touchpoint) => t.subject)).toEqual(['Second']);
    const bad = await client.rest(a, 'GET', '/touchpoints?sort=secret');
    expect(bad.status).toBe(400);
    const other = await client.rest(b, 'GET', `/touchpoints?personId=${p}`);
    expect(other.body.metaData.totalResults).toBe(0);
  });

  it('T4 updates a touchpoint; invalid end is 400; another tenant gets 404', async () => {
    const t = await touchpoint(a, [anna]);
    const body = {
      type: 'visit',
      subject: 'Visit',
      start: '2026-03-01T10:00:00Z',
      end: '2026-03-01T11:00:00Z',
      personIds: [ben],
    };
    const res = await client.rest(a, 'PUT', `/touchpoints/${t.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'visit', personIds: [ben], durationMinutes: 60 });
    const bad = await client.rest(a, 'PUT', `/touchpoints/${t.id}`, {
      ...body,
      end: '2026-03-01T09:00:00Z',
    });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['end', 'endBeforeStart']]);
    const before = await read(a, t.id);
    const other = await client.rest(b, 'PUT', `/touchpoints/${t.id}`, {
      ...body,
      personIds: [foreignPerson],
    });
    expect(other.status).toBe(404);
    expect(await read(a, t.id)).toEqual(before);
    // nor can a tenant involve another tenant's people in its own touchpoint
    const borrowed = await client.rest(b, 'PUT', `/touchpoints/${foreign.id}`, {
      ...body,
      personIds: [anna],
    });
    expect(borrowed.status).toBe(400);
    expect(errorsOf(borrowed.body)).toEqual([['personIds[0]', 'unknownPerson']]);
    const cross = await client.rest(a, 'PUT', `/touchpoints/${foreign.id}`, body);
    expect(cross.status).toBe(404);
    await foreignUnchanged();
  });

  it('T5 deletes a touchpoint; another tenant gets 404 and it stays', async () => {
    const t = await touchpoint(a, [anna]);
    expect((await client.rest(b, 'DELETE', `/touchpoints/${t.id}`)).status).toBe(404);
    const res = await client.rest(a, 'DELETE', `/touchpoints/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(t.id);
    expect((await client.rest(a, 'GET', `/touchpoints/${t.id}`)).status).toBe(404);
  });

  it('T6 deletes several; a foreign id is 404 by index and nothing is deleted', async () => {
    const [t1, t2] = [await touchpoint(a, [anna]), await touchpoint(a, [anna])];
    const refused = await client.rest(a, 'DELETE', '/touchpoints/batch', {
      ids: [t1.id, foreign.id],
    });
    expect(refused.status).toBe(404);
    expect(errorsOf(refused.body)).toEqual([['ids[1]', 'notFound']]);
    expect((await client.rest(a, 'GET', `/touchpoints/${t1.id}`)).status).toBe(200);
    await foreignUnchanged();
    const res = await client.rest(a, 'DELETE', '/touchpoints/batch', { ids: [t1.id, t2.id] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: 2 });
  });

  it('T7 validates without writing: calculated fields, problems as 200', async () => {
    const ok = await client.rest(a, 'POST', '/touchpoints/validate', {
      type: 'call',
      subject: 'Planned',
      start: '2099-05-01T10:00:00Z',
      end: '2099-05-01T10:45:00Z',
      personIds: [anna],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: {
        durationMinutes: 45,
        isPast: false,
        isUpcoming: true,
        currentMood: null,
        participantCount: 1,
      },
    });
    const bad = await client.rest(
      a,
      'POST',
      '/touchpoints/validate',
      { type: 'call', subject: 'x', start: '2099-05-01T10:00:00Z', personIds: [foreignPerson] },
      { 'Accept-Language': 'de' },
    );
    expect(bad.status).toBe(200);
    expect(bad.body.data.valid).toBe(false);
    expect(bad.body.data.errors).toEqual([
      {
        field: 'personIds[0]',
        rule: 'unknownPerson',
        message: 'personIds[0] bezeichnet keine Person dieses Mandanten',
      },
    ]);
  });

  it('T8 adds tags; unknown tag is 400; a foreign touchpoint is 404 and unchanged', async () => {
    const tagged = await touchpoint(a, [anna], { tags: [{ text: 'Gold' }] });
    const gold = tagged.tags[0].id;
    const t = await touchpoint(a, [anna]);
    const res = await client.rest(a, 'POST', '/touchpoints/tags', {
      touchpointIds: [t.id],
      tagIds: [gold],
    });
    expect(res.status).toBe(200);
    expect(res.body.data[0].tags).toEqual([{ id: gold, text: 'Gold' }]);
    const unknown = await client.rest(a, 'POST', '/touchpoints/tags', {
      touchpointIds: [t.id],
      tagIds: [foreign.tags[0].id],
    });
    expect(unknown.status).toBe(400);
    expect(errorsOf(unknown.body)).toEqual([['tagIds[0]', 'unknownEntry']]);
    const cross = await client.rest(a, 'POST', '/touchpoints/tags', {
      touchpointIds: [foreign.id],
      tagIds: [gold],
    });
    expect(cross.status).toBe(404);
    await foreignUnchanged();
  });

  it('T9 removes tags; a foreign touchpoint is 404 and keeps its tags', async () => {
    const t = await touchpoint(a, [anna], { tags: [{ text: 'Silver' }] });
    const silver = t.tags[0].id;
    const cross = await client.rest(b, 'DELETE', '/touchpoints/tags', {
      touchpointIds: [t.id],
      tagIds: [foreign.tags[0].id],
    });
    expect(cross.status).toBe(404);
    expect((await read(a, t.id)).tags).toEqual([{ id: silver, text: 'Silver' }]);
    const res = await client.rest(a, 'DELETE', '/touchpoints/tags', {
      touchpointIds: [t.id],
      tagIds: [silver],
    });
    expect(res.status).toBe(200);
    expect(res.body.data[0].tags).toEqual([]);
  });

  it('T10 removes a person; the last one is 409; another tenant gets 404', async () => {
    const t = await touchpoint(a, [anna, ben]);
    expect((await client.rest(b, 'DELETE', `/touchpoints/${t.id}/people/${anna}`)).status).toBe(
      404,
    );
    const res = await client.rest(a, 'DELETE', `/touchpoints/${t.id}/people/${anna}`);
    expect(res.status).toBe(200);
    expect(res.body.data.personIds).toEqual([ben]);
    const last = await client.rest(a, 'DELETE', `/touchpoints/${t.id}/people/${ben}`);
    expect(last.status).toBe(409);
    expect(last.body.data).toBeNull();
    expect((await read(a, t.id)).personIds).toEqual([ben]);
  });

  it('T11 updates priorities of several; an invalid item is named by index; foreign ids 404', async () => {
    const [t1, t2] = [await touchpoint(a, [anna]), await touchpoint(a, [anna])];
    const res = await client.rest(a, 'PUT', '/touchpoints/priority', [
      { id: t1.id, priority: 1 },
      { id: t2.id, priority: 5 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: Touchpoint) => t.priority)).toEqual([1, 5]);
    const bad = await client.rest(a, 'PUT', '/touchpoints/priority', [
      { id: t1.id, priority: 2 },
      { id: t2.id, priority: 7 },
    ]);
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['[1].priority', 'max']]);
    const cross = await client.rest(a, 'PUT', '/touchpoints/priority', [
      { id: foreign.id, priority: 1 },
    ]);
    expect(cross.status).toBe(404);
    await foreignUnchanged();
    expect((await read(a, t1.id)).priority).toBe(1);
  });

  it('T12 updates one priority; 0 is 400; another tenant gets 404', async () => {
    const t = await touchpoint(a, [anna]);
    const res = await client.rest(a, 'PUT', `/touchpoints/${t.id}/priority`, { priority: 4 });
    expect(res.status).toBe(200);
    expect(res.body.data.priority).toBe(4);
    const bad = await client.rest(a, 'PUT', `/touchpoints/${t.id}/priority`, { priority: 0 });
    expect(errorsOf(bad.body)).toEqual([['priority', 'min']]);
    expect(
      (await client.rest(a, 'PUT', `/touchpoints/${foreign.id}/priority`, { priority: 1 })).status,
    ).toBe(404);
    await foreignUnchanged();
  });

  it('T13 adds a mood (newest last); an unknown mood is 400; another tenant gets 404', async () => {
    const t = await touchpoint(a, [anna], { mood: { mood: 'neutral' } });
    const res = await client.rest(a, 'POST', `/touchpoints/${t.id}/moods`, {
      mood: 'very-bad',
      comment: 'Escalated',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.moods.map((m: { mood: string }) => m.mood)).toEqual([
      'neutral',
      'very-bad',
    ]);
    expect(res.body.data.currentMood).toBe('very-bad');
    const bad = await client.rest(a, 'POST', `/touchpoints/${t.id}/moods`, { mood: 'meh' });
    expect(errorsOf(bad.body)).toEqual([['mood', 'isIn']]);
    const cross = await client.rest(a, 'POST', `/touchpoints/${foreign.id}/moods`, {
      mood: 'good',
    });
    expect(cross.status).toBe(404);
    await foreignUnchanged();
  });

  it("T14 moves a person's touchpoints; the same person is 400; foreign people 404", async () => {
    const from = await person(a, 'From');
    const to = await person(a, 'To');
    const t = await touchpoint(a, [from]);
    const res = await client.rest(a, 'POST', '/touchpoints/move', {
      fromPersonId: from,
      toPersonId: to,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ moved: 1 });
    expect((await read(a, t.id)).personIds).toEqual([to]);
    const same = await client.rest(a, 'POST', '/touchpoints/move', {
      fromPersonId: to,
      toPersonId: to,
    });
    expect(same.status).toBe(400);
    const cross = await client.rest(a, 'POST', '/touchpoints/move', {
      fromPersonId: foreignPerson,
      toPersonId: to,
    });
    expect(cross.status).toBe(404);
    await foreignUnchanged();
  });

  it('answers 404 for unknown and malformed ids on the id routes', async () => {
    for (const id of [randomUUID(), 'nope']) {
      expect((await client.rest(a, 'GET', `/touchpoints/${id}`)).status).toBe(404);
      expect((await client.rest(a, 'DELETE', `/touchpoints/${id}`)).status).toBe(404);
    }
  });
});

describe('GraphQL', () => {
  it('creates, lists with people, validates and reports errors with extensions', async () => {
    const created = await client.graphql(
      a,
      `mutation($i: CreateTouchpointInput!) { createTouchpoint(input: $i) {
        id personIds people { id lastname } participantCount } }`,
      {
        i: {
          type: 'chat',
          subject: 'GraphQL chat',
          start: '2024-04-04T04:04:00Z',
          personIds: [anna, ben],
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createTouchpoint).toMatchObject({
      personIds: [anna, ben],
      people: [
        { id: anna, lastname: 'Adams' },
        { id: ben, lastname: 'Baker' },
      ],
      participantCount: 2,
    });
    const id = created.body.data.createTouchpoint.id;

    const list = await client.graphql(
      a,
      `{ touchpoints(type: "chat") { totalResults items { id subject } } }`,
    );
    expect(list.body.data.touchpoints).toEqual({
      totalResults: 1,
      items: [{ id, subject: 'GraphQL chat' }],
    });
    const other = await client.graphql(b, `query($id: ID!) { touchpoint(id: $id) { id } }`, { id });
    expect(other.body.data.touchpoint).toBeNull();

    const validation = await client.graphql(
      a,
      `mutation($i: CreateTouchpointInput!) { validateTouchpoint(input: $i) {
        valid errors { field rule } calculated { participantCount } } }`,
      { i: { type: 'chat', subject: 'x', start: '2024-04-04T04:04:00Z', personIds: ['bad'] } },
    );
    expect(validation.body.data.validateTouchpoint).toEqual({
      valid: false,
      errors: [{ field: 'personIds[0]', rule: 'isUuid' }],
      calculated: { participantCount: 0 },
    });

    const conflict = await client.graphql(
      a,
      `mutation($id: ID!, $p: ID!) { removeTouchpointPerson(id: $id, personId: $p) { id } }`,
      { id: foreign.id, p: foreignPerson },
    );
    expect(conflict.body.errors[0].extensions).toMatchObject({
      code: 'NOT_FOUND',
      statusCode: 404,
    });
    await foreignUnchanged();
  });
});
