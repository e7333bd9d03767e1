import { randomUUID } from 'node:crypto';
import { Client, startClient, TestTenant } from './client';

// C26-C27 (bank accounts) and C29-C30 (company relations) through the gateway, REST and GraphQL:
// one success and the main failure per row, and another tenant's ids answer 404 without
// changing anything.

jest.setTimeout(30000);

const DE = 'DE89370400440532013000';
const GB = 'GB29NWBK60161331926819';
// system entries of the company settings list relation-types
const SUBSIDIARY = '00000000-0000-4000-b000-000000000601';
const PARTNER = '00000000-0000-4000-b000-000000000603';

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('companybankrel');
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

async function company(t: TestTenant, name: string): Promise<string> {
  const res = await client.rest(t, 'POST', '/companies', { name });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('bank accounts C26-C27', () => {
  it('C26 creates (IBAN normalized, first is the favorite) and lists paged; 400 names field and rule', async () => {
    const id = await company(a, 'Bank Co');
    const res = await client.rest(a, 'POST', `/companies/${id}/bank-accounts`, {
      iban: 'de89 3704 0044 0532 0130 00',
      bic: 'cobadeff',
    });
    expect(res.status).toBe(201);
    expectEnvelope(res.body, 201);
    expect(res.body.data).toMatchObject({
      iban: DE,
      ibanFormatted: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFF',
      isFavorite: true,
    });
    expect(
      (await client.rest(a, 'POST', `/companies/${id}/bank-accounts`, { iban: GB })).status,
    ).toBe(201);
    const list = await client.rest(a, 'GET', `/companies/${id}/bank-accounts?pageSize=1`);
    expectEnvelope(list.body, 200);
    expect(list.body.metaData.totalResults).toBe(2);
    expect(list.body.data.map((x: any) => x.iban)).toEqual([DE]);

    const bad = await client.rest(
      a,
      'POST',
      `/companies/${id}/bank-accounts`,
      { iban: 'DE89370400440532013001' },
      { 'Accept-Language': 'de' },
    );
    expect(bad.status).toBe(400);
    expectEnvelope(bad.body, 400);
    expect(bad.body.errors).toEqual([
      {
        field: 'iban',
        rule: 'ibanChecksum',
        message: 'iban: die Prüfziffern stimmen nicht, die IBAN enthält einen Tippfehler',
      },
    ]);
    const country = await client.rest(a, 'POST', `/companies/${id}/bank-accounts`, {
      iban: GB,
      bic: 'DEUTDEFF',
    });
    expect(country.body.errors[0]).toMatchObject({ field: 'bic', rule: 'bicCountry' });
    const dup = await client.rest(a, 'POST', `/companies/${id}/bank-accounts`, { iban: DE });
    expect(dup.status).toBe(409);
    expectEnvelope(dup.body, 409);
  });

  it('C27 updates and deletes (the favorite passes on); GraphQL does the same', async () => {
    const id = await company(a, 'Bank Two');
    const first = (await client.rest(a, 'POST', `/companies/${id}/bank-accounts`, { iban: DE }))
      .body.data;
    const second = (await client.rest(a, 'POST', `/companies/${id}/bank-accounts`, { iban: GB }))
      .body.data;
    const put = await client.rest(a, 'PUT', `/companies/${id}/bank-accounts/${second.id}`, {
      isFavorite: true,
      bankName: 'NatWest',
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ isFavorite: true, bankName: 'NatWest' });
    const del = await client.rest(a, 'DELETE', `/companies/${id}/bank-accounts/${second.id}`);
    expect(del.body.data).toEqual({ id: second.id, newFavoriteId: first.id });
    expect(
      (await client.rest(a, 'PUT', `/companies/${id}/bank-accounts/${randomUUID()}`, {})).status,
    ).toBe(404);

    const created = await client.graphql(
      a,
      'mutation($c: ID!, $i: CreateCompanyBankAccountInput!) { createCompanyBankAccount(companyId: $c, input: $i) { id iban isFavorite } }',
      { c: id, i: { iban: GB } },
    );
    expect(created.body.data.createCompanyBankAccount).toMatchObject({
      iban: GB,
      isFavorite: false,
    });
    const gid = created.body.data.createCompanyBankAccount.id;
    const updated = await client.graphql(
      a,
      'mutation($c: ID!, $a: ID!, $i: UpdateCompanyBankAccountInput!) { updateCompanyBankAccount(companyId: $c, accountId: $a, input: $i) { isFavorite } }',
      { c: id, a: gid, i: { isFavorite: true } },
    );
    expect(updated.body.data.updateCompanyBankAccount.isFavorite).toBe(true);
    const list = await client.graphql(
      a,
      'query($c: ID!) { companyBankAccounts(companyId: $c) { totalResults items { iban isFavorite } } }',
      { c: id },
    );
    expect(list.body.data.companyBankAccounts).toEqual({
      totalResults: 2,
      items: [
        { iban: DE, isFavorite: false },
        { iban: GB, isFavorite: true },
      ],
    });
    const deleted = await client.graphql(
      a,
      'mutation($c: ID!, $a: ID!) { deleteCompanyBankAccount(companyId: $c, accountId: $a) { id newFavoriteId } }',
      { c: id, a: gid },
    );
    expect(deleted.body.data.deleteCompanyBankAccount).toEqual({
      id: gid,
      newFavoriteId: first.id,
    });
    const invalid = await client.graphql(
      a,
      'mutation($c: ID!, $i: CreateCompanyBankAccountInput!) { createCompanyBankAccount(companyId: $c, input: $i) { id } }',
      { c: id, i: { iban: 'XX00' } },
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
  });

  it("another tenant's company and accounts are 404 on every route; nothing changes", async () => {
    const id = await company(a, 'Private Bank');
    const acc = (
      await client.rest(a, 'POST', `/companies/${id}/bank-accounts`, { iban: DE, bankName: 'Mine' })
    ).body.data;
    expect((await client.rest(b, 'GET', `/companies/${id}/bank-accounts`)).status).toBe(404);
    expect(
      (await client.rest(b, 'POST', `/companies/${id}/bank-accounts`, { iban: GB })).status,
    ).toBe(404);
    const put = await client.rest(b, 'PUT', `/companies/${id}/bank-accounts/${acc.id}`, {
      bankName: 'Theirs',
    });
    expect(put.status).toBe(404);
    expectEnvelope(put.body, 404);
    expect(
      (await client.rest(b, 'DELETE', `/companies/${id}/bank-accounts/${acc.id}`)).status,
    ).toBe(404);
    const gql = await client.graphql(
      b,
      'query($c: ID!) { companyBankAccounts(companyId: $c) { totalResults } }',
      { c: id },
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const still = await client.rest(a, 'GET', `/companies/${id}/bank-accounts`);
    expect(still.body.data).toEqual([expect.objectContaining({ id: acc.id, bankName: 'Mine' })]);
  });
});

describe('company relations C29-C30', () => {
  it('C29 relates two companies; both list it, translated; 400, 404 and 409 on the main failures', async () => {
    const [child, parent] = [await company(a, 'Tochter GmbH'), await company(a, 'Holding AG')];
    const res = await client.rest(a, 'POST', `/companies/${child}/relations`, {
      relatedCompanyId: parent,
      relationType: { id: SUBSIDIARY },
      since: '2019-07-01',
    });
    expect(res.status).toBe(201);
    expectEnvelope(res.body, 201);
    expect(res.body.data).toMatchObject({
      direction: 'outgoing',
      company: { id: parent, name: 'Holding AG' },
      relationType: { id: SUBSIDIARY, text: 'Subsidiary' },
      since: '2019-07-01T00:00:00.000Z',
    });
    const incoming = await client.rest(a, 'GET', `/companies/${parent}/relations`, undefined, {
      'Accept-Language': 'de',
    });
    expectEnvelope(incoming.body, 200);
    expect(incoming.body.metaData.totalResults).toBe(1);
    expect(incoming.body.data[0]).toMatchObject({
      id: res.body.data.id,
      direction: 'incoming',
      company: { id: child, name: 'Tochter GmbH' },
      relationType: { id: SUBSIDIARY, text: 'Tochtergesellschaft' },
    });

    const self = await client.rest(a, 'POST', `/companies/${child}/relations`, {
      relatedCompanyId: child,
      relationType: { id: SUBSIDIARY },
    });
    expect(self.status).toBe(400);
    expect(self.body.errors[0]).toMatchObject({ field: 'relatedCompanyId', rule: 'selfRelation' });
    const missing = await client.rest(a, 'POST', `/companies/${child}/relations`, {
      relatedCompanyId: randomUUID(),
      relationType: { id: SUBSIDIARY },
    });
    expect(missing.status).toBe(404);
    const dup = await client.rest(a, 'POST', `/companies/${child}/relations`, {
      relatedCompanyId: parent,
      relationType: { id: SUBSIDIARY },
    });
    expect(dup.status).toBe(409);
    expectEnvelope(dup.body, 409);
  });

  it('C30 updates from the incoming side and deletes; GraphQL does the same', async () => {
    const [x, y] = [await company(a, 'Xaver KG'), await company(a, 'Yvonne SE')];
    const rel = (
      await client.rest(a, 'POST', `/companies/${x}/relations`, {
        relatedCompanyId: y,
        relationType: { id: PARTNER },
      })
    ).body.data;
    const put = await client.rest(a, 'PUT', `/companies/${y}/relations/${rel.id}`, {
      note: 'since the merger',
      until: '2030-01-01',
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ direction: 'incoming', note: 'since the merger' });
    const early = await client.rest(a, 'PUT', `/companies/${y}/relations/${rel.id}`, {
      since: '2031-01-01',
    });
    expect(early.status).toBe(400);
    expect(early.body.errors[0]).toMatchObject({ field: 'until', rule: 'notBefore' });
    const del = await client.rest(a, 'DELETE', `/companies/${x}/relations/${rel.id}`);
    expect(del.status).toBe(200);
    expect((await client.rest(a, 'GET', `/companies/${y}/relations`)).body.data).toEqual([]);

    const created = await client.graphql(
      a,
      'mutation($c: ID!, $i: CreateCompanyRelationInput!) { createCompanyRelation(companyId: $c, input: $i) { id direction relationType { text } } }',
      { c: x, i: { relatedCompanyId: y, relationType: { id: PARTNER } } },
    );
    const gid = created.body.data.createCompanyRelation.id;
    expect(created.body.data.createCompanyRelation).toMatchObject({
      direction: 'outgoing',
      relationType: { text: 'Partner' },
    });
    const updated = await client.graphql(
      a,
      'mutation($c: ID!, $r: ID!, $i: UpdateCompanyRelationInput!) { updateCompanyRelation(companyId: $c, relationId: $r, input: $i) { note } }',
      { c: y, r: gid, i: { note: 'via GraphQL' } },
    );
    expect(updated.body.data.updateCompanyRelation.note).toBe('via GraphQL');
    const list = await client.graphql(
      a,
      'query($c: ID!) { companyRelations(companyId: $c, direction: "incoming") { totalResults items { id company { name } } } }',
      { c: y },
    );
    expect(list.body.data.companyRelations).toEqual({
      totalResults: 1,
      items: [{ id: gid, company: { name: 'Xaver KG' } }],
    });
    const deleted = await client.graphql(
      a,
      'mutation($c: ID!, $r: ID!) { deleteCompanyRelation(companyId: $c, relationId: $r) { id } }',
      { c: x, r: gid },
    );
    expect(deleted.body.data.deleteCompanyRelation.id).toBe(gid);
  });

  it("another tenant's companies and relations are 404 on every route; nothing changes", async () => {
    const [x, y] = [await company(a, 'Own One'), await company(a, 'Own Two')];
    const foreign = await company(b, 'Foreign');
    const rel = (
      await client.rest(a, 'POST', `/companies/${x}/relations`, {
        relatedCompanyId: y,
        relationType: { id: PARTNER },
        note: 'keep',
      })
    ).body.data;
    // relating to another tenant's company is as if it did not exist
    const cross = await client.rest(a, 'POST', `/companies/${x}/relations`, {
      relatedCompanyId: foreign,
      relationType: { id: PARTNER },
    });
    expect(cross.status).toBe(404);
    expect((await client.rest(b, 'GET', `/companies/${x}/relations`)).status).toBe(404);
    expect(
      (
        await client.rest(b, 'POST', `/companies/${x}/relations`, {
          relatedCompanyId: foreign,
          relationType: { id: PARTNER },
        })
      ).status,
    ).toBe(404);
    expect(
      (await client.rest(b, 'PUT', `/companies/${x}/relations/${rel.id}`, { note: 'x' })).status,
    ).toBe(404);
    expect(
      (await client.rest(b, 'PUT', `/companies/${foreign}/relations/${rel.id}`, { note: 'x' }))
        .status,
    ).toBe(404);
    expect((await client.rest(b, 'DELETE', `/companies/${x}/relations/${rel.id}`)).status).toBe(
      404,
    );
    const gql = await client.graphql(
      b,
      'mutation($c: ID!, $r: ID!) { deleteCompanyRelation(companyId: $c, relationId: $r) { id } }',
      { c: x, r: rel.id },
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const still = await client.rest(a, 'GET', `/companies/${x}/relations`);
    expect(still.body.data).toEqual([expect.objectContaining({ id: rel.id, note: 'keep' })]);
    expect((await client.rest(b, 'GET', `/companies/${foreign}/relations`)).body.data).toEqual([]);
  });
});
