import { randomUUID } from 'node:crypto';
import { Client as Pg } from 'pg';
import { Client, startClient, TestTenant } from './client';

// startup and requests can be slow on a loaded machine (jest's default is 5 s)
jest.setTimeout(60000);

// B1-B14 through the gateway, REST and GraphQL: one success and the main failure per row, and
// another tenant's ids answering 404 with nothing changed. Companies are real ones of
// crm-companies, which crm-people asks over NATS (B8).

let client: Client;
let a: TestTenant;
let b: TestTenant;
let addressType: string;
let relationType: string;

/** A tenant entry of a people settings list, written straight into crm-people's database. */
async function entry(tenantId: string, list: string, text: string): Promise<string> {
  const pg = new Pg({
    connectionString: client.stack.processes.get('crm-people')!.env.DATABASE_URL,
  });
  await pg.connect();
  try {
    const res = await pg.query(
      `INSERT INTO "SettingsEntry" (id, "tenantId", list, text)
       VALUES (gen_random_uuid(), $1, $2::"PeopleSettingsList", $3) RETURNING id`,
      [tenantId, list, text],
    );
    return res.rows[0].id;
  } finally {
    await pg.end();
  }
}

beforeAll(async () => {
  client = await startClient('cards');
  a = await client.tenant();
  b = await client.tenant();
  addressType = await entry(a.id, 'ADDRESS_TYPES', 'Headquarters');
  relationType = await entry(a.id, 'COMPANY_RELATION_TYPES', 'Partner');
}, 120000);
afterAll(async () => {
  await client?.stack.shutdown();
}, 30000);

async function person(t = a): Promise<string> {
  const res = await client.rest(t, 'POST', '/people', { firstname: 'Jürgen', lastname: 'Groß' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function company(t = a, name = 'Acme GmbH'): Promise<string> {
  const res = await client.rest(t, 'POST', '/companies', { name });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function card(personId: string, body: object = {}, t = a) {
  const res = await client.rest(t, 'POST', `/people/${personId}/business-cards`, body);
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('cards through the gateway (REST)', () => {
  let personId: string;
  let cardId: string;
  let base: string;
  beforeAll(async () => {
    personId = await person();
    base = `/people/${personId}/business-cards`;
  });

  it('B2 creates a card (201, phones in E.164); invalid phone -> 400 naming it; other tenant -> 404', async () => {
    const res = await client.rest(a, 'POST', base, {
      business: 'Acme',
      isFavorite: true,
      phones: [{ type: 'office', number: '030 1234567' }],
      emails: [{ mail: 'j@acme.example', isFavorite: true }],
      businessPositions: [{ position: 'CEO' }],
      addresses: [{ city: 'Berlin', addressTypes: [{ id: addressType }], isFavorite: true }],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      business: 'Acme',
      isFavorite: true,
      phones: [{ number: '+49301234567' }],
      addresses: [{ city: 'Berlin', addressTypes: [{ id: addressType, text: 'Headquarters' }] }],
    });
    cardId = res.body.data.id;
    const bad = await client.rest(a, 'POST', base, { phones: [{ number: '12' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'phones[0].number', rule: 'phoneNumber' });
    expect((await client.rest(b, 'POST', base, {})).status).toBe(404);
  });

  it('B1 lists the cards with totalResults; unknown person or other tenant -> 404', async () => {
    await card(personId, { business: 'Beta' });
    const res = await client.rest(a, 'GET', `${base}?pageSize=1`);
    expect(res.status).toBe(200);
    expect(res.body.metaData.totalResults).toBe(2);
    expect(res.body.data.map((c: any) => c.id)).toEqual([cardId]);
    expect((await client.rest(a, 'GET', `/people/${randomUUID()}/business-cards`)).status).toBe(
      404,
    );
    expect((await client.rest(b, 'GET', base)).status).toBe(404);
  });

  it('B3 reads a card of the person; other tenant -> 404', async () => {
    const res = await client.rest(a, 'GET', `${base}/${cardId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(cardId);
    expect((await client.rest(b, 'GET', `${base}/${cardId}`)).status).toBe(404);
  });

  it('B4 reads a card by id alone; other tenant or unknown -> 404', async () => {
    const res = await client.rest(a, 'GET', `/business-cards/${cardId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.business).toBe('Acme');
    expect((await client.rest(b, 'GET', `/business-cards/${cardId}`)).status).toBe(404);
    expect((await client.rest(a, 'GET', `/business-cards/${randomUUID()}`)).status).toBe(404);
  });

  it('B5 updates given fields; validTo before validFrom -> 400; other tenant -> 404, unchanged', async () => {
    const res = await client.rest(a, 'PUT', `${base}/${cardId}`, {
      business: 'Acme AG',
      validFrom: '2024-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      business: 'Acme AG',
      isFavorite: true,
      phones: [{ number: '+49301234567' }],
    });
    const bad = await client.rest(
      a,
      'PUT',
      `${base}/${cardId}`,
      { validTo: '2023-01-01T00:00:00Z' },
      { 'Accept-Language': 'de' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'validTo', rule: 'notBefore' });
    expect(bad.body.errors[0].message).toContain('darf nicht vor validFrom');
    expect((await client.rest(b, 'PUT', `${base}/${cardId}`, { business: 'X' })).status).toBe(404);
    expect((await client.rest(a, 'GET', `${base}/${cardId}`)).body.data.business).toBe('Acme AG');
  });

  it('B8 connects a company: crm-companies down -> 503 unchanged; known -> 200; unknown or foreign -> 404; private -> 409', async () => {
    const companyId = await company();
    await client.stack.stop('crm-companies');
    try {
      const down = await client.rest(a, 'PUT', `${base}/${cardId}/company`, { companyId });
      expect(down.status).toBe(503);
      expect(down.body.message).toContain('crm-companies');
    } finally {
      await client.stack.start('crm-companies');
    }
    expect((await client.rest(a, 'GET', `${base}/${cardId}`)).body.data.companyId).toBeNull();

    const ok = await client.rest(a, 'PUT', `${base}/${cardId}/company`, {
      companyId,
      companyRelationType: { id: relationType },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ companyId, companyRelationType: { text: 'Partner' } });
    const unknown = await client.rest(a, 'PUT', `${base}/${cardId}/company`, {
      companyId: randomUUID(),
    });
    expect(unknown.status).toBe(404);
    const theirs = await company(b, 'Foreign GmbH');
    const foreign = await client.rest(a, 'PUT', `${base}/${cardId}/company`, { companyId: theirs });
    expect(foreign.status).toBe(404);
    const priv = await card(personId, { isPrivate: true });
    expect((await client.rest(a, 'PUT', `${base}/${priv.id}/company`, { companyId })).status).toBe(
      409,
    );
    expect(
      (await client.rest(b, 'PUT', `${base}/${cardId}/company`, { companyId: null })).status,
    ).toBe(404);
    expect((await client.rest(a, 'GET', `${base}/${cardId}`)).body.data.companyId).toBe(companyId);
  });

  it('B9 answers the card as vCard 4.0 with a file name; other tenant -> 404', async () => {
    const res = await client.rest(a, 'GET', `${base}/${cardId}/vcard`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Jurgen Gross.vcf"; filename*=UTF-8''J%C3%BCrgen%20Gro%C3%9F.vcf`,
    );
    const lines = String(res.body).replace(/\r\n /g, '').split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'BEGIN:VCARD',
        'VERSION:4.0',
        'FN:Jürgen Groß',
        'N:Groß;Jürgen;;;',
        'ORG:Acme AG',
        'TITLE:CEO',
        'EMAIL;TYPE=WORK:j@acme.example',
        'TEL;TYPE="WORK,VOICE";VALUE=uri:tel:+49301234567',
        'ADR;TYPE=WORK;PREF=1:;;;Berlin;;;',
        'END:VCARD',
      ]),
    );
    expect((await client.rest(b, 'GET', `${base}/${cardId}/vcard`)).status).toBe(404);
  });

  it('B10 validates without writing: valid, invalid with every problem; other tenant -> 404', async () => {
    const ok = await client.rest(a, 'POST', `${base}/validate`, {
      phones: [{ number: '+43 1 58801234' }],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      valid: true,
      errors: [],
      calculated: { phones: [{ number: '+43158801234' }] },
    });
    const bad = await client.rest(a, 'POST', `${base}/validate`, {
      emails: [{ mail: 'x' }],
      isPrivate: 'no',
    });
    expect(bad.status).toBe(200);
    expect(bad.body.data.valid).toBe(false);
    expect(bad.body.data.errors.map((e: any) => e.field).sort()).toEqual([
      'emails[0].mail',
      'isPrivate',
    ]);
    expect((await client.rest(b, 'POST', `${base}/validate`, {})).status).toBe(404);
    expect((await client.rest(a, 'GET', base)).body.metaData.totalResults).toBe(3);
  });

  it('B11-B14 manage addresses with the favorite rules; bad input -> 400; other tenant -> 404', async () => {
    const path = `${base}/${cardId}/addresses`;
    const created = await client.rest(a, 'POST', path, {
      city: 'Hamburg',
      countryCode: 'de',
      isFavorite: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      city: 'Hamburg',
      countryCode: 'DE',
      isFavorite: true,
    });
    const addressId = created.body.data.id;
    const badType = await client.rest(a, 'POST', path, { addressTypes: [{ id: randomUUID() }] });
    expect(badType.status).toBe(400);
    expect(badType.body.errors[0]).toMatchObject({
      field: 'addressTypes[0].id',
      rule: 'unknownEntry',
    });
    expect((await client.rest(b, 'POST', path, { city: 'X' })).status).toBe(404);

    const read = await client.rest(a, 'GET', `${path}/${addressId}`);
    expect(read.status).toBe(200);
    expect(read.body.data.city).toBe('Hamburg');
    expect((await client.rest(a, 'GET', `${path}/${randomUUID()}`)).status).toBe(404);
    expect((await client.rest(b, 'GET', `${path}/${addressId}`)).status).toBe(404);

    const updated = await client.rest(a, 'PUT', `${path}/${addressId}`, { zip: '20095' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ city: 'Hamburg', zip: '20095', isFavorite: true });
    expect(
      (
        await client.rest(a, 'PUT', `${path}/${addressId}`, {
          coordinates: { longitude: 0, latitude: 95 },
        })
      ).status,
    ).toBe(400);
    expect((await client.rest(b, 'PUT', `${path}/${addressId}`, { zip: '1' })).status).toBe(404);

    // two addresses, the favorite goes: the other one becomes the favorite
    expect((await client.rest(b, 'DELETE', `${path}/${addressId}`)).status).toBe(404);
    const deleted = await client.rest(a, 'DELETE', `${path}/${addressId}`);
    expect(deleted.status).toBe(200);
    const berlin = (await client.rest(a, 'GET', `${base}/${cardId}`)).body.data.addresses;
    expect(deleted.body.data).toEqual({ id: addressId, newFavoriteId: berlin[0].id });
    expect(berlin).toMatchObject([{ city: 'Berlin', isFavorite: true }]);
    expect((await client.rest(a, 'DELETE', `${path}/${addressId}`)).status).toBe(404);
  });

  it('B6 deletes a card; other tenant or unknown -> 404 and the card stays', async () => {
    const extra = await card(personId, { business: 'Temp' });
    expect((await client.rest(b, 'DELETE', `${base}/${extra.id}`)).status).toBe(404);
    expect((await client.rest(a, 'DELETE', `${base}/${randomUUID()}`)).status).toBe(404);
    const res = await client.rest(a, 'DELETE', `${base}/${extra.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ids: [extra.id], newFavoriteId: null });
    expect((await client.rest(a, 'GET', `/business-cards/${extra.id}`)).status).toBe(404);
  });

  it('B7 deletes several, all or none: a foreign id -> 404, nothing deleted', async () => {
    const other = await person(b);
    const foreign = await card(other, {}, b);
    const ids = (await client.rest(a, 'GET', base)).body.data.map((c: any) => c.id);
    const refused = await client.rest(a, 'DELETE', `${base}/batch`, { ids: [...ids, foreign.id] });
    expect(refused.status).toBe(404);
    expect((await client.rest(a, 'GET', base)).body.metaData.totalResults).toBe(ids.length);
    const res = await client.rest(a, 'DELETE', `${base}/batch`, { ids });
    expect(res.status).toBe(200);
    expect(res.body.data.ids.sort()).toEqual([...ids].sort());
    expect((await client.rest(a, 'GET', base)).body.data).toEqual([]);
    expect((await client.rest(b, 'GET', `/business-cards/${foreign.id}`)).status).toBe(200);
  });
});

describe('cards through the gateway (GraphQL)', () => {
  it('composes BusinessCard.company as a reference to Company and serves the card operations', async () => {
    const personId = await person();
    const created = await client.graphql(
      a,
      `mutation($p: ID!) { createBusinessCard(personId: $p, input: { business: "Gql", isFavorite: true }) { id business company { id } } }`,
      { p: personId },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createBusinessCard.id;
    expect(created.body.data.createBusinessCard).toEqual({ id, business: 'Gql', company: null });

    // BusinessCard.company is resolved by crm-companies through the gateway
    const companyId = await company(a, 'Graph GmbH');
    const connected = await client.graphql(
      a,
      `mutation($p: ID!, $c: ID!, $co: ID!) { connectBusinessCardToCompany(personId: $p, cardId: $c, input: { companyId: $co }) { id company { id name } } }`,
      { p: personId, c: id, co: companyId },
    );
    expect(connected.body.errors).toBeUndefined();
    expect(connected.body.data.connectBusinessCardToCompany).toEqual({
      id,
      company: { id: companyId, name: 'Graph GmbH' },
    });

    const list = await client.graphql(
      a,
      `query($p: ID!) { businessCards(personId: $p) { totalResults items { id } } }`,
      { p: personId },
    );
    expect(list.body.data.businessCards).toEqual({ totalResults: 1, items: [{ id }] });
    const foreign = await client.graphql(b, `query($id: ID!) { businessCard(id: $id) { id } }`, {
      id,
    });
    expect(foreign.body.data.businessCard).toBeNull();

    const address = await client.graphql(
      a,
      `mutation($p: ID!, $c: ID!) { createCardAddress(personId: $p, cardId: $c, input: { city: "Köln" }) { id city isFavorite } }`,
      { p: personId, c: id },
    );
    expect(address.body.data.createCardAddress).toMatchObject({ city: 'Köln', isFavorite: false });

    const validation = await client.graphql(
      a,
      `query($p: ID!) { validateBusinessCard(personId: $p, input: { phones: [{ number: "1" }] }) { valid errors { field rule } } }`,
      { p: personId },
    );
    expect(validation.body.data.validateBusinessCard).toEqual({
      valid: false,
      errors: [{ field: 'phones[0].number', rule: 'phoneNumber' }],
    });

    const bad = await client.graphql(
      a,
      `mutation($p: ID!, $c: ID!) { updateBusinessCard(personId: $p, cardId: $c, input: { validFrom: "2024-02-01T00:00:00Z", validTo: "2024-01-01T00:00:00Z" }) { id } }`,
      { p: personId, c: id },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });

    const deleted = await client.graphql(
      b,
      `mutation($p: ID!, $c: ID!) { deleteBusinessCard(personId: $p, cardId: $c) { ids } }`,
      { p: personId, c: id },
    );
    expect(deleted.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });
});
