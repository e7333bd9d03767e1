import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { OutboxRelay } from '@crm/messaging';
import { ServiceTestClient, tenantHeaders } from '@crm/testing';
import { startCrmPeople, RunningService } from '../test/service-harness';

// P3's common case, tags named by text that exist already, is one SQL statement that looks the
// tags up and inserts the person (PeopleService.createNamingTags). These tests show it answers
// what the long way answers, and that anything it cannot settle still takes the long way.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
let svc: RunningService;
const { rest: call } = new ServiceTestClient(() => svc.url, tenantHeaders(A));

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_create_one_statement');
  // A create also writes its PeopleCreatedEvent and wakes the outbox relay, whose own transaction
  // (BEGIN, in this process) would be counted as one of the create's statements: it stays off.
  await svc.app.get(OutboxRelay).stop();
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

/** What `fn` answers, and the statements crm-people sent meanwhile (this process is the service). */
async function withStatements<T>(fn: () => Promise<T>): Promise<[T, string[]]> {
  const spy = jest.spyOn(pg.Client.prototype, 'query');
  try {
    const result = await fn();
    const sql = spy.mock.calls
      .map(([q]) => (typeof q === 'string' ? q : String((q as { text?: string })?.text)))
      .filter((text) => /"Person"|"SettingsEntry"|BEGIN/.test(text));
    return [result, sql];
  } finally {
    spy.mockRestore();
  }
}

describe('P3 with tags that exist: one statement', () => {
  it('answers what a later read returns: a tenant lifecycle, other case, a repeated tag', async () => {
    const lifecycle = (
      await call('POST', '/people-settings/lifecycles', [{ text: `Customer ${randomUUID()}` }])
    ).body.data[0];
    const first = await call('POST', '/people', {
      orgaTags: [{ text: 'Golf' }, { text: 'Sailing' }],
      personalities: [{ text: 'Calm', category: 'Mood' }],
    });
    expect(first.status).toBe(201);

    const [created, sql] = await withStatements(() =>
      call('POST', '/people', {
        firstname: 'One',
        lastname: 'Statement',
        // other case, a repeat of the same entry, and the order given
        orgaTags: [{ text: 'SAILING' }, { text: ' golf ' }, { text: 'sailing' }],
        personalities: [{ text: 'calm' }],
        lifecycle: { lifecycleId: lifecycle.id },
        birthday: { birthday: '1980-05-17', considerBirthYear: false },
      }),
    );
    expect(created.status).toBe(201);
    expect(sql).toHaveLength(1);
    const data = created.body.data;
    const tagsOfFirst = first.body.data;
    expect(data.orgaTags).toEqual([
      { id: tagsOfFirst.orgaTags[1].id, text: 'Sailing' },
      { id: tagsOfFirst.orgaTags[0].id, text: 'Golf' },
    ]);
    expect(data.personalities).toEqual([tagsOfFirst.personalities[0]]);
    expect(data.lifecycle).toMatchObject({ lifecycleId: lifecycle.id, text: lifecycle.text });
    const read = await call('GET', `/people/${data.id}`);
    expect(read.body.data).toEqual(data);
  });

  it('takes a system lifecycle in the same statement', async () => {
    const PROSPECT = '00000000-0000-4000-a000-000000000102';
    const [created, sql] = await withStatements(() =>
      call('POST', '/people', {
        orgaTags: [{ text: 'Golf' }],
        lifecycle: { lifecycleId: PROSPECT },
      }),
    );
    expect(created.status).toBe(201);
    expect(sql).toHaveLength(1);
    expect(created.body.data.lifecycleHistories).toHaveLength(1);
    const read = await call('GET', `/people/${created.body.data.id}`);
    expect(read.body.data).toEqual(created.body.data);
  });

  it('takes the long way for a new text, writing the entry and the person', async () => {
    const text = `New ${randomUUID()}`;
    const created = await call('POST', '/people', { orgaTags: [{ text: 'Golf' }, { text }] });
    expect(created.status).toBe(201);
    expect(created.body.data.orgaTags.map((t: { text: string }) => t.text)).toEqual(['Golf', text]);
    const read = await call('GET', `/people/${created.body.data.id}`);
    expect(read.body.data).toEqual(created.body.data);
  });

  it('names an unknown lifecycle (the long way) and writes nothing', async () => {
    const lastname = `Nobody ${randomUUID()}`;
    const res = await call('POST', '/people', {
      lastname,
      orgaTags: [{ text: 'Golf' }],
      lifecycle: { lifecycleId: randomUUID() },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      field: 'lifecycle.lifecycleId',
      rule: 'unknownEntry',
    });
    const list = await call('GET', `/people?q=${encodeURIComponent(lastname)}`);
    expect(list.body.data).toEqual([]);
  });
});
