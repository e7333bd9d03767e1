import { randomUUID } from 'node:crypto';
import { Client, startClient, TestTenant } from './client';

// P20, P21 through the gateway, REST and GraphQL: success, the main failures, tenant isolation.

const PROSPECT = '00000000-0000-4000-a000-000000000102';
let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('merge');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown());

async function person(t: TestTenant, body: Record<string, unknown>, note?: string) {
  const res = await client.rest(t, 'POST', '/people', body);
  if (res.status !== 201) throw new Error(`create person: ${JSON.stringify(res.body)}`);
  const id = res.body.data.id as string;
  if (note) await client.rest(t, 'PUT', `/people/${id}/notes`, { note });
  return id;
}

/** A target and two sources with tags, a lifecycle and notes. */
async function trio(t: TestTenant) {
  const target = await person(
    t,
    { firstname: 'Max', lastname: 'Muster', orgaTags: [{ text: 'VIP' }] },
    'Target',
  );
  const s1 = await person(
    t,
    {
      firstname: 'Max',
      lastname: 'Mustermann',
      title: 'Dr.',
      orgaTags: [{ text: 'VIP' }, { text: 'Board' }],
      lifecycle: { lifecycleId: PROSPECT },
    },
    'From s1',
  );
  const s2 = await person(t, { firstname: 'M.', customerNumber: 'K-7' });
  return { target, s1, s2 };
}

describe('REST', () => {
  it('P21 previews a merge without changing anything', async () => {
    const { target, s1, s2 } = await trio(a);
    const before = await Promise.all(
      [target, s1, s2].map((id) => client.rest(a, 'GET', `/people/${id}`)),
    );
    const res = await client.rest(a, 'POST', '/people/merge/preview', {
      targetId: target,
      sourceIds: [s1, s2],
    });
    expect(res.status).toBe(200);
    expect(res.body.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({
      targetId: target,
      sourceIds: [s1, s2],
      filledFields: ['title', 'customerNumber', 'lifecycle'],
      noteTooLong: false,
      changes: { orgaTags: 1, notes: 1, lifecycleHistories: 1 },
      person: {
        id: target,
        title: 'Dr.',
        customerNumber: 'K-7',
        orgaTags: [{ text: 'VIP' }, { text: 'Board' }],
        lifecycle: { lifecycleId: PROSPECT, text: 'Prospect' },
        note: { note: 'Target\n\n--- Max Mustermann ---\nFrom s1' },
      },
    });
    const after = await Promise.all(
      [target, s1, s2].map((id) => client.rest(a, 'GET', `/people/${id}`)),
    );
    expect(after.map((r) => r.body.data)).toEqual(before.map((r) => r.body.data));
  });

  it('P21 answers 404 for ids of another tenant, 400 for the target among the sources', async () => {
    const { target, s1 } = await trio(a);
    const foreign = await client.rest(b, 'POST', '/people/merge/preview', {
      targetId: target,
      sourceIds: [s1],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.data).toBeNull();
    const self = await client.rest(a, 'POST', '/people/merge/preview', {
      targetId: target,
      sourceIds: [target],
    });
    expect(self.status).toBe(400);
    expect(self.body.errors).toEqual([
      {
        field: 'sourceIds[0]',
        rule: 'sourceIsTarget',
        message: 'sourceIds[0]: the target cannot be merged into itself',
      },
    ]);
  });

  it('P20 merges the sources into the target and deletes them', async () => {
    const { target, s1, s2 } = await trio(a);
    const res = await client.rest(a, 'POST', '/people/merge', {
      targetId: target,
      sourceIds: [s1, s2],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      targetId: target,
      deletedIds: [s1, s2],
      changes: { orgaTags: 1, notes: 1 },
      person: { id: target, title: 'Dr.', customerNumber: 'K-7' },
    });
    expect((await client.rest(a, 'GET', `/people/${target}`)).body.data).toMatchObject({
      title: 'Dr.',
      orgaTags: [{ text: 'VIP' }, { text: 'Board' }],
      note: { note: 'Target\n\n--- Max Mustermann ---\nFrom s1' },
    });
    for (const id of [s1, s2])
      expect((await client.rest(a, 'GET', `/people/${id}`)).status).toBe(404);
  });

  it("P20: another tenant's ids are unknown (404) and nothing changes; bad input 400", async () => {
    const { target, s1 } = await trio(a);
    const own = await person(b, { firstname: 'B' });
    for (const body of [
      { targetId: target, sourceIds: [s1] },
      { targetId: own, sourceIds: [s1] },
      { targetId: own, sourceIds: [randomUUID()] },
    ]) {
      const res = await client.rest(b, 'POST', '/people/merge', body);
      expect(res.status).toBe(404);
    }
    expect((await client.rest(a, 'GET', `/people/${s1}`)).status).toBe(200);
    expect((await client.rest(b, 'GET', `/people/${own}`)).status).toBe(200);
    const empty = await client.rest(
      a,
      'POST',
      '/people/merge',
      { targetId: target, sourceIds: [] },
      { 'Accept-Language': 'de' },
    );
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatchObject({ field: 'sourceIds', rule: 'arrayMinSize' });
  });
});

describe('GraphQL through the gateway', () => {
  it('mergePeoplePreview and mergePeople; foreign ids give NOT_FOUND', async () => {
    const { target, s1 } = await trio(a);
    const preview = await client.graphql(
      a,
      `query($t: ID!, $s: [ID!]!) { mergePeoplePreview(targetId: $t, sourceIds: $s) {
        filledFields changes { orgaTags notes } person { id title }
      } }`,
      { t: target, s: [s1] },
    );
    expect(preview.body.errors).toBeUndefined();
    expect(preview.body.data.mergePeoplePreview).toEqual({
      filledFields: ['title', 'lifecycle'],
      changes: { orgaTags: 1, notes: 1 },
      person: { id: target, title: 'Dr.' },
    });
    const foreign = await client.graphql(
      b,
      `mutation($t: ID!, $s: [ID!]!) { mergePeople(targetId: $t, sourceIds: $s) { targetId } }`,
      { t: target, s: [s1] },
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const merged = await client.graphql(
      a,
      `mutation($t: ID!, $s: [ID!]!) { mergePeople(targetId: $t, sourceIds: $s) {
        deletedIds person { id title orgaTags { text } }
      } }`,
      { t: target, s: [s1] },
    );
    expect(merged.body.errors).toBeUndefined();
    expect(merged.body.data.mergePeople).toEqual({
      deletedIds: [s1],
      person: { id: target, title: 'Dr.', orgaTags: [{ text: 'VIP' }, { text: 'Board' }] },
    });
    expect((await client.rest(a, 'GET', `/people/${s1}`)).status).toBe(404);
  });
});
