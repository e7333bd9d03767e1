import { randomUUID } from 'node:crypto';
import { AppException } from '@crm/errors';
import { MessageBus, MoveTouchpointsReply, Subjects } from '@crm/messaging';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { apiOf } from './test/api';

// T6, T8-T14 and the NATS command crm-people.touchpoints.move against a real crm-people.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
let svc: RunningService;
const { call, gql, person, touchpoint } = apiOf(() => svc);

let anna: string;
let ben: string;
let foreign: string;
let foreignTouchpoint: { id: string; tags: { id: string }[] };
let vip: string;
let hot: string;
let foreignTag: string;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_t_batch');
  anna = await person(A, 'Adams');
  ben = await person(A, 'Baker');
  foreign = await person(B, 'Other');
  // orga tags come into being by text
  const tagged = await touchpoint(A, [anna], { tags: [{ text: 'VIP' }, { text: 'Hot' }] });
  [hot, vip] = tagged.tags.map((t: { id: string }) => t.id);
  foreignTouchpoint = await touchpoint(B, [foreign], { tags: [{ text: 'Theirs' }] });
  foreignTag = foreignTouchpoint.tags[0].id;
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const read = async (tenant: string, id: string) =>
  (await call(tenant, 'GET', `/touchpoints/${id}`)).body.data;
const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);

describe('T6 DELETE /touchpoints/batch', () => {
  it('deletes all given touchpoints', async () => {
    const [t1, t2] = [await touchpoint(A, [anna]), await touchpoint(A, [anna])];
    const res = await call(A, 'DELETE', '/touchpoints/batch', { ids: [t1.id, t2.id, t1.id] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: 2 });
    expect((await call(A, 'GET', `/touchpoints/${t1.id}`)).status).toBe(404);
  });

  it('answers 404 naming every unknown or foreign id by index and deletes nothing', async () => {
    const t = await touchpoint(A, [anna]);
    const unknown = randomUUID();
    const res = await call(A, 'DELETE', '/touchpoints/batch', {
      ids: [t.id, foreignTouchpoint.id, unknown],
    });
    expect(res.status).toBe(404);
    expect(errorsOf(res.body)).toEqual([
      ['ids[1]', 'notFound'],
      ['ids[2]', 'notFound'],
    ]);
    expect(res.body.errors[0].message).toBe('ids[1] does not name a touchpoint of this tenant');
    expect((await call(A, 'GET', `/touchpoints/${t.id}`)).status).toBe(200);
    expect((await call(B, 'GET', `/touchpoints/${foreignTouchpoint.id}`)).status).toBe(200);
  });

  it('refuses malformed ids by index, an empty list and more than 1000 ids', async () => {
    const bad = await call(A, 'DELETE', '/touchpoints/batch', { ids: [randomUUID(), 'x'] });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['ids[1]', 'isUuid']]);
    const empty = await call(A, 'DELETE', '/touchpoints/batch', { ids: [] });
    expect(errorsOf(empty.body)).toEqual([['ids', 'arrayMinSize']]);
    const many = await call(A, 'DELETE', '/touchpoints/batch', {
      ids: Array.from({ length: 1001 }, () => randomUUID()),
    });
    expect(many.status).toBe(400);
    expect(errorsOf(many.body)).toEqual([['ids', 'arrayMaxSize']]);
  });
});

describe('T8 POST /touchpoints/tags and T9 DELETE /touchpoints/tags', () => {
  it('adds tags to several touchpoints (again: no duplicates) and removes them', async () => {
    const [t1, t2] = [
      await touchpoint(A, [anna], { tags: [{ id: vip }] }),
      await touchpoint(A, [ben]),
    ];
    const added = await call(A, 'POST', '/touchpoints/tags', {
      touchpointIds: [t1.id, t2.id],
      tagIds: [vip, hot],
    });
    expect(added.status).toBe(200);
    expect(added.body.data.map((t: { id: string }) => t.id)).toEqual([t1.id, t2.id]);
    for (const t of added.body.data)
      expect(t.tags).toEqual([
        { id: hot, text: 'Hot' },
        { id: vip, text: 'VIP' },
      ]);
    const listed = await call(A, 'GET', `/touchpoints?tagId=${hot}&personId=${ben}`);
    expect(listed.body.data.map((t: { id: string }) => t.id)).toEqual([t2.id]);

    const removed = await call(A, 'DELETE', '/touchpoints/tags', {
      touchpointIds: [t1.id, t2.id],
      tagIds: [vip],
    });
    expect(removed.status).toBe(200);
    for (const t of removed.body.data) expect(t.tags).toEqual([{ id: hot, text: 'Hot' }]);
    expect((await read(A, t1.id)).tags).toEqual([{ id: hot, text: 'Hot' }]);
  });

  it("answers 404 for another tenant's touchpoints and changes nothing", async () => {
    const t = await touchpoint(A, [anna]);
    for (const method of ['POST', 'DELETE']) {
      const res = await call(A, method, '/touchpoints/tags', {
        touchpointIds: [t.id, foreignTouchpoint.id],
        tagIds: [vip],
      });
      expect(res.status).toBe(404);
      expect(errorsOf(res.body)).toEqual([['touchpointIds[1]', 'notFound']]);
    }
    expect((await read(A, t.id)).tags).toEqual([]);
    expect((await read(B, foreignTouchpoint.id)).tags).toEqual([
      { id: foreignTag, text: 'Theirs' },
    ]);
  });

  it('refuses tag ids that are not orga tags of the tenant, naming the index', async () => {
    const t = await touchpoint(A, [anna]);
    const res = await call(A, 'POST', '/touchpoints/tags', {
      touchpointIds: [t.id],
      tagIds: [vip, foreignTag, 'x'],
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual([['tagIds[2]', 'isUuid']]);
    const unknown = await call(A, 'DELETE', '/touchpoints/tags', {
      touchpointIds: [t.id],
      tagIds: [vip, foreignTag],
    });
    expect(unknown.status).toBe(400);
    expect(errorsOf(unknown.body)).toEqual([['tagIds[1]', 'unknownEntry']]);
    expect(unknown.body.errors[0].message).toBe(
      'tagIds[1] does not name an entry of the list orga tags',
    );
  });
});

describe('T10 DELETE /touchpoints/{id}/people/{personId}', () => {
  it('removes a person; the last one cannot go (409); someone not involved is 404', async () => {
    const t = await touchpoint(A, [anna, ben]);
    const res = await call(A, 'DELETE', `/touchpoints/${t.id}/people/${anna}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ personIds: [ben], participantCount: 1 });
    const again = await call(A, 'DELETE', `/touchpoints/${t.id}/people/${anna}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`Person ${anna} is not involved in touchpoint ${t.id}`);
    const last = await call(A, 'DELETE', `/touchpoints/${t.id}/people/${ben}`, undefined, {
      'Accept-Language': 'de',
    });
    expect(last.status).toBe(409);
    expect(last.body.message).toContain('ist die letzte Beteiligte');
    expect((await read(A, t.id)).personIds).toEqual([ben]);
  });

  it("answers 404 for another tenant's touchpoint and changes nothing", async () => {
    const t = await touchpoint(A, [anna, ben]);
    expect((await call(B, 'DELETE', `/touchpoints/${t.id}/people/${anna}`)).status).toBe(404);
    expect((await call(A, 'DELETE', `/touchpoints/not-a-uuid/people/${anna}`)).status).toBe(404);
    expect((await read(A, t.id)).personIds).toEqual([anna, ben]);
  });
});

describe('T11 PUT /touchpoints/priority and T12 PUT /touchpoints/{id}/priority', () => {
  it('updates the priority of several at once', async () => {
    const [t1, t2, t3] = [
      await touchpoint(A, [anna]),
      await touchpoint(A, [anna]),
      await touchpoint(A, [anna]),
    ];
    const res = await call(A, 'PUT', '/touchpoints/priority', [
      { id: t1.id, priority: 1 },
      { id: t2.id, priority: 5 },
      { id: t3.id, priority: 1 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { id: string; priority: number }) => [t.id, t.priority])).toEqual([
      [t1.id, 1],
      [t2.id, 5],
      [t3.id, 1],
    ]);
    expect((await read(A, t2.id)).priority).toBe(5);
  });

  it('names every invalid item by index and changes nothing', async () => {
    const t = await touchpoint(A, [anna]);
    const res = await call(A, 'PUT', '/touchpoints/priority', [
      { id: t.id, priority: 2 },
      { id: t.id, priority: 0 },
      { id: 'x', priority: 2 },
      { priority: 2 },
      { id: t.id, priority: 2, extra: true },
    ]);
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual([
      ['[1].priority', 'min'],
      ['[3].id', 'isDefined'],
      ['[4].extra', 'whitelistValidation'],
    ]);
    const ids = await call(A, 'PUT', '/touchpoints/priority', [
      { id: t.id, priority: 2 },
      { id: 'x', priority: 2 },
      { id: t.id, priority: 4 },
    ]);
    expect(errorsOf(ids.body)).toEqual([
      ['[1].id', 'isUuid'],
      ['[2].id', 'duplicate'],
    ]);
    const notArray = await call(A, 'PUT', '/touchpoints/priority', { id: t.id, priority: 2 });
    expect(notArray.status).toBe(400);
    expect(errorsOf(notArray.body)).toEqual([['body', 'isArray']]);
    expect((await read(A, t.id)).priority).toBe(3);
  });

  it("answers 404 naming another tenant's touchpoints and changes nothing", async () => {
    const t = await touchpoint(A, [anna]);
    const res = await call(A, 'PUT', '/touchpoints/priority', [
      { id: t.id, priority: 1 },
      { id: foreignTouchpoint.id, priority: 1 },
    ]);
    expect(res.status).toBe(404);
    expect(errorsOf(res.body)).toEqual([['[1].id', 'notFound']]);
    expect((await read(A, t.id)).priority).toBe(3);
    expect((await read(B, foreignTouchpoint.id)).priority).toBe(3);
  });

  it('T12 updates one; refuses 6; 404 for another tenant', async () => {
    const t = await touchpoint(A, [anna]);
    const res = await call(A, 'PUT', `/touchpoints/${t.id}/priority`, { priority: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data.priority).toBe(2);
    const bad = await call(A, 'PUT', `/touchpoints/${t.id}/priority`, { priority: 6 });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['priority', 'max']]);
    expect((await call(B, 'PUT', `/touchpoints/${t.id}/priority`, { priority: 5 })).status).toBe(
      404,
    );
    expect((await read(A, t.id)).priority).toBe(2);
  });
});

describe('T13 POST /touchpoints/{id}/moods', () => {
  it('appends moods, newest last; the newest is the current mood', async () => {
    const t = await touchpoint(A, [anna], { mood: { mood: 'bad' } });
    const res = await call(A, 'POST', `/touchpoints/${t.id}/moods`, {
      mood: 'very-good',
      comment: 'Solved',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.moods.map((m: { mood: string }) => m.mood)).toEqual(['bad', 'very-good']);
    expect(res.body.data.moods[1]).toMatchObject({ comment: 'Solved', createdBy: 'test-suite' });
    expect(res.body.data.currentMood).toBe('very-good');
  });

  it('refuses an unknown mood; 404 for another tenant', async () => {
    const t = await touchpoint(A, [anna]);
    const bad = await call(A, 'POST', `/touchpoints/${t.id}/moods`, { mood: 'ecstatic' });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['mood', 'isIn']]);
    expect(bad.body.errors[0].message).toBe(
      'mood must be one of: very-bad, bad, neutral, good, very-good',
    );
    expect((await call(B, 'POST', `/touchpoints/${t.id}/moods`, { mood: 'good' })).status).toBe(
      404,
    );
    expect((await read(A, t.id)).moods).toEqual([]);
  });
});

describe('T14 POST /touchpoints/move', () => {
  it("moves all of a person's touchpoints; where the target takes part already, the source just goes", async () => {
    const from = await person(A, 'From');
    const to = await person(A, 'To');
    const only = await touchpoint(A, [from, anna]);
    const both = await touchpoint(A, [from, to]);
    const untouched = await touchpoint(A, [anna]);
    const res = await call(A, 'POST', '/touchpoints/move', { fromPersonId: from, toPersonId: to });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ moved: 2 });
    expect((await read(A, only.id)).personIds).toEqual([anna, to]);
    expect((await read(A, both.id)).personIds).toEqual([to]);
    expect((await read(A, untouched.id)).personIds).toEqual([anna]);
    const left = await call(A, 'GET', `/touchpoints?personId=${from}`);
    expect(left.body.metaData.totalResults).toBe(0);
  });

  it('moves only the given touchpoints', async () => {
    const from = await person(A, 'From');
    const to = await person(A, 'To');
    const [t1, t2] = [await touchpoint(A, [from]), await touchpoint(A, [from])];
    const res = await call(A, 'POST', '/touchpoints/move', {
      fromPersonId: from,
      toPersonId: to,
      touchpointIds: [t2.id],
    });
    expect(res.body.data).toEqual({ moved: 1 });
    expect((await read(A, t1.id)).personIds).toEqual([from]);
    expect((await read(A, t2.id)).personIds).toEqual([to]);
  });

  it('refuses the same person, unknown or foreign people and touchpoints the source is not in', async () => {
    const t = await touchpoint(A, [anna]);
    const same = await call(A, 'POST', '/touchpoints/move', {
      fromPersonId: anna,
      toPersonId: anna,
    });
    expect(same.status).toBe(400);
    expect(errorsOf(same.body)).toEqual([['toPersonId', 'samePerson']]);
    const foreignPerson = await call(A, 'POST', '/touchpoints/move', {
      fromPersonId: anna,
      toPersonId: foreign,
    });
    expect(foreignPerson.status).toBe(404);
    expect(foreignPerson.body.message).toBe(`Person ${foreign} was not found`);
    const notInvolved = await call(A, 'POST', '/touchpoints/move', {
      fromPersonId: ben,
      toPersonId: anna,
      touchpointIds: [t.id, foreignTouchpoint.id],
    });
    expect(notInvolved.status).toBe(404);
    expect(errorsOf(notInvolved.body)).toEqual([
      ['touchpointIds[0]', 'notInvolved'],
      ['touchpointIds[1]', 'notInvolved'],
    ]);
    expect((await read(A, t.id)).personIds).toEqual([anna]);
    const malformed = await call(A, 'POST', '/touchpoints/move', {
      fromPersonId: 'x',
      toPersonId: anna,
    });
    expect(errorsOf(malformed.body)).toEqual([['fromPersonId', 'isUuid']]);
  });

  it('runs as a NATS command with the tenant from the payload', async () => {
    const bus = svc.app.get(MessageBus);
    const from = await person(A, 'From');
    const to = await person(A, 'To');
    const t = await touchpoint(A, [from]);
    const reply = await bus.request<MoveTouchpointsReply>(Subjects.crmPeople.moveTouchpoints, {
      tenantId: A,
      fromPersonId: from,
      toPersonId: to,
    });
    expect(reply).toEqual({ moved: 1 });
    expect((await read(A, t.id)).personIds).toEqual([to]);

    // another tenant's people are unknown there: a typed 404 comes back, nothing moves
    const foreignTenant = bus.request(Subjects.crmPeople.moveTouchpoints, {
      tenantId: B,
      fromPersonId: to,
      toPersonId: foreign,
    });
    await expect(foreignTenant).rejects.toBeInstanceOf(AppException);
    await expect(foreignTenant).rejects.toMatchObject({ status: 404 });
    expect((await read(A, t.id)).personIds).toEqual([to]);

    const invalid = bus.request(Subjects.crmPeople.moveTouchpoints, {
      tenantId: A,
      fromPersonId: 'x',
      toPersonId: to,
    });
    await expect(invalid).rejects.toMatchObject({
      status: 400,
      problems: [expect.objectContaining({ field: 'fromPersonId', rule: 'isUuid' })],
    });
  });
});

describe('GraphQL mutations of T6, T8-T14', () => {
  it('runs each through the same rules as REST', async () => {
    const [t1, t2] = [await touchpoint(A, [anna, ben]), await touchpoint(A, [anna])];
    const tags = await gql(
      A,
      `mutation($i: TouchpointTagsInput!) { addTouchpointTags(input: $i) { id tags { text } } }`,
      { i: { touchpointIds: [t1.id], tagIds: [vip] } },
    );
    expect(tags.body.data.addTouchpointTags).toEqual([{ id: t1.id, tags: [{ text: 'VIP' }] }]);
    const untag = await gql(
      A,
      `mutation($i: TouchpointTagsInput!) { removeTouchpointTags(input: $i) { tags { text } } }`,
      { i: { touchpointIds: [t1.id], tagIds: [vip] } },
    );
    expect(untag.body.data.removeTouchpointTags).toEqual([{ tags: [] }]);

    const prios = await gql(
      A,
      `mutation($items: [TouchpointPriorityInput!]!) { updateTouchpointPriorities(items: $items) { priority } }`,
      {
        items: [
          { id: t1.id, priority: 2 },
          { id: t2.id, priority: 9 },
        ],
      },
    );
    expect(prios.body.errors[0].extensions).toMatchObject({
      statusCode: 400,
      errors: [expect.objectContaining({ field: '[1].priority', rule: 'max' })],
    });
    const prio = await gql(
      A,
      `mutation($id: ID!) { updateTouchpointPriority(id: $id, priority: 4) { priority } }`,
      { id: t1.id },
    );
    expect(prio.body.data.updateTouchpointPriority.priority).toBe(4);
    const badPrio = await gql(
      A,
      `mutation($id: ID!) { updateTouchpointPriority(id: $id, priority: 0) { priority } }`,
      { id: t1.id },
    );
    expect(badPrio.body.errors[0].extensions.errors[0]).toMatchObject({
      field: 'priority',
      rule: 'min',
    });

    const mood = await gql(
      A,
      `mutation($id: ID!) { addTouchpointMood(id: $id, input: { mood: "good" }) { currentMood } }`,
      { id: t1.id },
    );
    expect(mood.body.data.addTouchpointMood.currentMood).toBe('good');

    const removed = await gql(
      A,
      `mutation($id: ID!, $p: ID!) { removeTouchpointPerson(id: $id, personId: $p) { personIds } }`,
      { id: t2.id, p: anna },
    );
    expect(removed.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });

    const moved = await gql(
      A,
      `mutation($i: MoveTouchpointsInput!) { moveTouchpoints(input: $i) { moved } }`,
      { i: { fromPersonId: anna, toPersonId: ben, touchpointIds: [t1.id, t2.id] } },
    );
    expect(moved.body.data.moveTouchpoints.moved).toBe(2);
    expect((await read(A, t2.id)).personIds).toEqual([ben]);

    const foreignDelete = await gql(
      B,
      `mutation($i: TouchpointIdsInput!) { deleteTouchpoints(input: $i) { deleted } }`,
      { i: { ids: [t1.id] } },
    );
    expect(foreignDelete.body.errors[0].extensions.statusCode).toBe(404);
    const deleted = await gql(
      A,
      `mutation($i: TouchpointIdsInput!) { deleteTouchpoints(input: $i) { deleted } }`,
      { i: { ids: [t1.id, t2.id] } },
    );
    expect(deleted.body.data.deleteTouchpoints.deleted).toBe(2);
  });
});
