import { randomUUID } from 'node:crypto';
import { Client, startClient, TestTenant } from './client';

// Company settings S1-S5 through the gateway, REST and GraphQL: one success and the main failure
// per row, the delete policy with a company using an entry, and another tenant's ids answer 404
// without changing anything.

const LEAD = '00000000-0000-4000-b000-000000000101';
const SOLE = '00000000-0000-4000-b000-000000000401';
jest.setTimeout(30000);

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('companysettings');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown());

function expectEnvelope(body: any, statusCode: number) {
  expect(Object.keys(body).sort()).toEqual(
    body.errors
      ? ['data', 'errors', 'message', 'metaData', 'statusCode']
      : ['data', 'message', 'metaData', 'statusCode'],
  );
  expect(body.statusCode).toBe(statusCode);
  expect(body.metaData.responseTimeStamp).toMatch(/Z$/);
  if (statusCode >= 400) expect(body.data).toBeNull();
}

async function entry(t: TestTenant, list: string, text: string): Promise<string> {
  const res = await client.rest(t, 'POST', `/company-settings/${list}`, { text });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('Company settings S1-S5', () => {
  it('S1 lists system and tenant entries, translated and paged; unknown list 404', async () => {
    const res = await client.rest(a, 'GET', '/company-settings/lifecycles', undefined, {
      'Accept-Language': 'de',
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data.map((e: any) => e.text)).toEqual([
      'Lead',
      'Interessent',
      'Kunde',
      'Partner',
      'Ehemaliger Kunde',
    ]);
    expect(res.body.data[0]).toMatchObject({ id: LEAD, isSystem: true, color: '#9E9E9E' });
    const page = await client.rest(a, 'GET', '/company-settings/legal-forms?page=2&pageSize=5');
    expect(page.body.metaData.totalResults).toBe(7);
    expect(page.body.data.map((e: any) => e.text)).toEqual(['Association', 'Public body']);
    const unknown = await client.rest(a, 'GET', '/company-settings/nonsense');
    expect(unknown.status).toBe(404);
    expectEnvelope(unknown.body, 404);
    expect(unknown.body.message).toContain('tags, employee-counts, customer-counts');
  });

  it('S2 creates one or several entries; 409 for a text taken ignoring case; 400 for bad input', async () => {
    const one = await client.rest(a, 'POST', '/company-settings/tags', {
      text: 'Key account',
      color: '#FF0000',
    });
    expect(one.status).toBe(201);
    expectEnvelope(one.body, 201);
    expect(one.body.data).toMatchObject({ text: 'Key account', color: '#FF0000', isSystem: false });
    const many = await client.rest(a, 'POST', '/company-settings/industry-sectors', [
      { text: 'Software', category: 'NACE J' },
      { text: 'Logistics' },
    ]);
    expect(many.status).toBe(201);
    expect(many.body.data.map((e: any) => e.text)).toEqual(['Software', 'Logistics']);
    expect(many.body.metaData.totalResults).toBe(2);
    const taken = await client.rest(a, 'POST', '/company-settings/tags', { text: 'KEY ACCOUNT' });
    expect(taken.status).toBe(409);
    expectEnvelope(taken.body, 409);
    expect(taken.body.errors[0]).toMatchObject({ field: 'text', rule: 'textTaken' });
    const bad = await client.rest(
      a,
      'POST',
      '/company-settings/legal-forms',
      { text: 'x'.repeat(201), color: '#00FF00' },
      { 'Accept-Language': 'de' },
    );
    expect(bad.status).toBe(400);
    expectEnvelope(bad.body, 400);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ field: 'text', rule: 'maxLength' }),
      {
        field: 'color',
        rule: 'notForList',
        message: 'color ist für die Liste Rechtsformen nicht vorgesehen',
      },
    ]);
    // tenant b does not see a's entries and may use the same text
    const seen = await client.rest(b, 'GET', '/company-settings/tags');
    expect(seen.body.data).toEqual([]);
    expect(
      (await client.rest(b, 'POST', '/company-settings/tags', { text: 'Key account' })).status,
    ).toBe(201);
  });

  it('S3 updates an entry; system entries 409; another tenant 404 unchanged', async () => {
    const id = await entry(a, 'relation-types', 'Licensee');
    const res = await client.rest(a, 'PUT', `/company-settings/relation-types/${id}`, {
      text: 'Licence holder',
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data).toMatchObject({ id, text: 'Licence holder' });
    const sys = await client.rest(a, 'PUT', `/company-settings/legal-forms/${SOLE}`, {
      text: 'Sole trader',
    });
    expect(sys.status).toBe(409);
    expectEnvelope(sys.body, 409);
    const foreign = await client.rest(b, 'PUT', `/company-settings/relation-types/${id}`, {
      text: 'Hijacked',
    });
    expect(foreign.status).toBe(404);
    expectEnvelope(foreign.body, 404);
    const list = await client.rest(a, 'GET', '/company-settings/relation-types?q=licen');
    expect(list.body.data.map((x: any) => x.text)).toEqual(['Licence holder']);
  });

  it('S4 deletes several by ids; an entry in use is 409 "used by N companies" unless force', async () => {
    const golf = await entry(a, 'tags', 'Golf club');
    const free = await entry(a, 'tags', 'Unused');
    const created = await client.rest(a, 'POST', '/companies', {
      name: 'Tagged Ltd',
      tags: [{ id: golf }],
    });
    expect(created.status).toBe(201);
    const companyId = created.body.data.id;

    const foreign = await client.rest(b, 'DELETE', '/company-settings/tags/batch?force=true', {
      ids: [free, golf],
    });
    expect(foreign.status).toBe(404);
    const bad = await client.rest(a, 'DELETE', '/company-settings/tags/batch', { ids: ['x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'ids', rule: 'isUuid' });
    const refused = await client.rest(a, 'DELETE', '/company-settings/tags/batch', {
      ids: [free, golf],
    });
    expect(refused.status).toBe(409);
    expectEnvelope(refused.body, 409);
    expect(refused.body.message).toContain('"Golf club" is used by 1 company');
    expect(refused.body.errors).toEqual([
      { field: 'ids[1]', rule: 'entryInUse', message: '"Golf club" is used by 1 company' },
    ]);
    const kept = await client.rest(a, 'GET', `/companies/${companyId}`);
    expect(kept.body.data.tags.map((t: any) => t.id)).toEqual([golf]);

    const forced = await client.rest(a, 'DELETE', '/company-settings/tags/batch?force=true', {
      ids: [free, golf],
    });
    expect(forced.status).toBe(200);
    expectEnvelope(forced.body, 200);
    expect(forced.body.data.map((e: any) => e.id)).toEqual([free, golf]);
    const read = await client.rest(a, 'GET', `/companies/${companyId}`);
    expect(read.body.data.tags).toEqual([]);
    expect((await client.rest(a, 'GET', '/company-settings/tags?q=golf')).body.data).toEqual([]);
  });

  it('S5 deletes one entry; system entry 409; unknown and foreign 404 unchanged', async () => {
    const id = await entry(a, 'email-types', 'Press');
    expect((await client.rest(b, 'DELETE', `/company-settings/email-types/${id}`)).status).toBe(
      404,
    );
    const res = await client.rest(a, 'DELETE', `/company-settings/email-types/${id}`);
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data).toMatchObject({ id, text: 'Press' });
    const again = await client.rest(a, 'DELETE', `/company-settings/email-types/${id}`);
    expect(again.status).toBe(404);
    expectEnvelope(again.body, 404);
    const sys = await client.rest(a, 'DELETE', `/company-settings/lifecycles/${LEAD}`);
    expect(sys.status).toBe(409);
    expectEnvelope(sys.body, 409);
    expect(sys.body.message).toContain('"Lead" is a system entry');
  });
});

describe('GraphQL through the gateway', () => {
  it('companySettings and the entry mutations; errors carry their status', async () => {
    const created = await client.graphql(
      a,
      `mutation { createCompanySettingsEntries(list: "customer-counts", inputs: [{ text: "Thousands" }]) { id text isSystem } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createCompanySettingsEntries[0].id;
    const page = await client.graphql(
      a,
      `{ companySettings(list: "customer-counts", q: "thous") { totalResults items { id text } } }`,
    );
    expect(page.body.data.companySettings).toEqual({
      totalResults: 1,
      items: [{ id, text: 'Thousands' }],
    });
    const updated = await client.graphql(
      a,
      `mutation($id: ID!) { updateCompanySettingsEntry(list: "customer-counts", id: $id, input: { text: "Many thousands" }) { text } }`,
      { id },
    );
    expect(updated.body.data.updateCompanySettingsEntry.text).toBe('Many thousands');
    const foreign = await client.graphql(
      b,
      `mutation($id: ID!) { deleteCompanySettingsEntry(list: "customer-counts", id: $id) { id } }`,
      { id },
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const deleted = await client.graphql(
      a,
      `mutation($ids: [ID!]!) { deleteCompanySettingsEntries(list: "customer-counts", ids: $ids, force: true) { id } }`,
      { ids: [id] },
    );
    expect(deleted.body.data.deleteCompanySettingsEntries).toEqual([{ id }]);
    const unknown = await client.graphql(
      a,
      `mutation($id: ID!) { deleteCompanySettingsEntry(list: "customer-counts", id: $id) { id } }`,
      { id: randomUUID() },
    );
    expect(unknown.body.errors[0].extensions.statusCode).toBe(404);
  });
});
