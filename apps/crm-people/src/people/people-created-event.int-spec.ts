import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { runSql, ServiceTestClient } from '@crm/testing';
import { RunningService, startCrmPeople } from '../test/service-harness';

// P3 and P9 write crm-people.people.created (PeopleCreatedEvent, webhook `person.created` of the
// events service) in the statement or transaction that inserts the people; the relay publishes
// it to JetStream (the stream takes `*.*.created`). A refused create writes nothing.

jest.setTimeout(30000);

const A = `tenant-pc-${randomUUID().slice(0, 8)}`;
let svc: RunningService;
let api: ServiceTestClient;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_created_event');
  api = new ServiceTestClient(svc.url);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

interface Row {
  id: string;
  tenantId: string;
  payload: { tenantId: string; personIds: string[] };
  publishedAt: Date | null;
  lastError: string | null;
}

const events = () =>
  runSql<Row>(
    svc.databaseUrl,
    `SELECT id::text, "tenantId", payload, "publishedAt", "lastError" FROM "OutboxEvent"
     WHERE subject = $1 AND "tenantId" = $2 ORDER BY "dateCreated", id`,
    [Subjects.crmPeople.peopleCreated, A],
  );

async function eventFor(personIds: string[]): Promise<Row> {
  const found = (await events()).filter(
    (e) => JSON.stringify(e.payload.personIds) === JSON.stringify(personIds),
  );
  expect(found).toHaveLength(1);
  expect(found[0].payload).toEqual({ tenantId: A, personIds });
  return found[0];
}

it.each([
  ['no tags (one statement)', {}],
  ['a tag text known to the tenant (one statement naming tags)', { orgaTags: [{ text: 'Known' }] }],
  ['a new tag text (the transaction)', { orgaTags: [{ text: `New ${randomUUID()}` }] }],
])('P3 with %s writes one event with the person', async (_, extra) => {
  if ('orgaTags' in extra && extra.orgaTags[0].text === 'Known') {
    await api.restAs(A, 'POST', '/people', { lastname: 'Seed', orgaTags: [{ text: 'Known' }] });
  }
  const res = await api.restAs(A, 'POST', '/people', { lastname: 'Created', ...extra });
  expect(res.status).toBe(201);
  await eventFor([res.body.data.id]);
});

it('P9 writes one event with every person of the batch, and the relay publishes it', async () => {
  const res = await api.restAs(A, 'POST', '/people/batch', [
    { lastname: 'One' },
    { lastname: 'Two', orgaTags: [{ text: `Fresh ${randomUUID()}` }] },
  ]);
  expect(res.status).toBe(201);
  const ids = res.body.data.map((p: { id: string }) => p.id);
  const row = await eventFor(ids);
  const end = Date.now() + 10000;
  let published: Row | undefined;
  while (Date.now() < end) {
    published = (await events()).find((e) => e.id === row.id && e.publishedAt);
    if (published) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(published).toMatchObject({ lastError: null });
});

it('a refused create or batch writes no event', async () => {
  const before = (await events()).length;
  expect((await api.restAs(A, 'POST', '/people', { birthday: 'soon' })).status).toBe(400);
  expect(
    (await api.restAs(A, 'POST', '/people/batch', [{ lastname: 'ok' }, { gender: 42 }])).status,
  ).toBe(400);
  expect(await events()).toHaveLength(before);
});
