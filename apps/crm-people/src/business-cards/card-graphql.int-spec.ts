import { randomUUID } from 'node:crypto';
import { inTenant } from '../test/tenant-scope';
import { CardTestKit } from './test/card-test-fixtures';

// startup and requests can be slow on a loaded machine (jest's default is 5 s)
jest.setTimeout(60000);

// B10 over REST, and every card operation over GraphQL (same service methods, same rules).

let kit: CardTestKit;
let homeType: string;

beforeAll(async () => {
  kit = await CardTestKit.start('crm_people_it_b_graphql');
  homeType = await kit.entry(kit.A, 'ADDRESS_TYPES', 'Home');
}, 60000);
afterAll(async () => kit?.close(), 30000);

const CARD = `id business isFavorite companyId company { id }
  phones { number isFavorite type } addresses { id city isFavorite addressTypes { id text } }`;

describe('B10 validate (REST)', () => {
  it('answers valid with the phones as they would be stored, and writes nothing', async () => {
    const personId = await kit.person();
    const res = await kit.call('POST', `/people/${personId}/business-cards/validate`, {
      phones: [{ number: '030 1234567' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true,
      errors: [],
      calculated: { phones: [{ isFavorite: false, type: null, number: '+49301234567' }] },
    });
    expect((await kit.call('GET', `/people/${personId}/business-cards`)).body.data).toEqual([]);
  });

  it("lists every problem (pipe rules first, then domain rules) in the caller's language", async () => {
    const personId = await kit.person();
    const path = `/people/${personId}/business-cards/validate`;
    const shape = await kit.call('POST', path, {
      emails: [{ mail: 'x' }],
      isActive: 'yes',
      extra: 1,
    });
    expect(shape.status).toBe(200);
    expect(shape.body.data.valid).toBe(false);
    expect(shape.body.data.errors.map((e: any) => `${e.field}:${e.rule}`).sort()).toEqual([
      'emails[0].mail:isEmail',
      'extra:whitelistValidation',
      'isActive:isBoolean',
    ]);
    const domain = await kit.call(
      'POST',
      path,
      {
        phones: [{ number: '1' }],
        validFrom: '2024-01-02T00:00:00Z',
        validTo: '2024-01-01T00:00:00Z',
        isPrivate: true,
        companyId: randomUUID(),
      },
      kit.A,
      { 'Accept-Language': 'de' },
    );
    expect(domain.body.data.valid).toBe(false);
    expect(domain.body.data.calculated).toBeNull();
    const byField = Object.fromEntries(domain.body.data.errors.map((e: any) => [e.field, e]));
    expect(Object.keys(byField).sort()).toEqual(['companyId', 'phones[0].number', 'validTo']);
    expect(byField.companyId.rule).toBe('privateCard');
    expect(byField.validTo.message).toContain('darf nicht vor validFrom');
    const notObject = await kit.call('POST', path, [1, 2]);
    expect(notObject.body.data.errors).toEqual([
      { field: 'body', rule: 'isObject', message: 'body must be an object' },
    ]);
  });

  it('validates as an update with cardId (stored values count); unknown person or card is 404', async () => {
    const personId = await kit.person();
    const card = await kit.card(personId, { validFrom: '2024-06-01T00:00:00Z' });
    const path = `/people/${personId}/business-cards/validate`;
    const res = await kit.call('POST', `${path}?cardId=${card.id}`, {
      validTo: '2024-01-01T00:00:00Z',
    });
    expect(res.body.data.errors.map((e: any) => e.field)).toEqual(['validTo']);
    expect((await kit.call('POST', path, {})).body.data.valid).toBe(true);
    expect((await kit.call('POST', `${path}?cardId=${randomUUID()}`, {})).status).toBe(404);
    expect(
      (await kit.call('POST', `/people/${randomUUID()}/business-cards/validate`, {})).status,
    ).toBe(404);
    expect((await kit.call('POST', path, {}, kit.B)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('creates, lists, reads, updates and deletes cards', async () => {
    const personId = await kit.person();
    const created = await kit.gql(
      `mutation($p: ID!, $i: BusinessCardInput!) { createBusinessCard(personId: $p, input: $i) { ${CARD} } }`,
      {
        p: personId,
        i: { business: 'Acme', isFavorite: true, phones: [{ number: '030 1234567' }] },
      },
    );
    const card = created.body.data.createBusinessCard;
    expect(card).toMatchObject({ business: 'Acme', isFavorite: true, company: null });
    expect(card.phones).toEqual([{ number: '+49301234567', isFavorite: false, type: null }]);
    await kit.card(personId, { business: 'Beta' });

    const page = await kit.gql(
      `query($p: ID!) { businessCards(personId: $p, page: 1, pageSize: 1) { totalResults items { business } } }`,
      { p: personId },
    );
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.businessCards).toEqual({
      totalResults: 2,
      items: [{ business: 'Acme' }],
    });

    const read = await kit.gql(
      `query($id: ID!, $p: ID) { a: businessCard(id: $id) { id } b: businessCard(id: $id, personId: $p) { id } }`,
      {
        id: card.id,
        p: randomUUID(),
      },
    );
    expect(read.body.data).toEqual({ a: { id: card.id }, b: null });
    const foreign = await kit.gql(
      `query($id: ID!) { businessCard(id: $id) { id } }`,
      { id: card.id },
      kit.B,
    );
    expect(foreign.body.data.businessCard).toBeNull();

    const updated = await kit.gql(
      `mutation($p: ID!, $c: ID!) { updateBusinessCard(personId: $p, cardId: $c, input: { business: "Acme AG" }) { business isFavorite } }`,
      { p: personId, c: card.id },
    );
    expect(updated.body.data.updateBusinessCard).toEqual({ business: 'Acme AG', isFavorite: true });

    const bad = await kit.gql(
      `mutation($p: ID!) { createBusinessCard(personId: $p, input: { phones: [{ number: "1" }] }) { id } }`,
      { p: personId },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    expect(bad.body.errors[0].extensions.errors[0]).toMatchObject({
      field: 'phones[0].number',
      rule: 'phoneNumber',
    });

    const one = await kit.gql(
      `mutation($p: ID!, $c: ID!) { deleteBusinessCard(personId: $p, cardId: $c) { ids newFavoriteId } }`,
      { p: personId, c: card.id },
    );
    const remaining = (await kit.call('GET', `/people/${personId}/business-cards`)).body.data[0];
    expect(one.body.data.deleteBusinessCard).toEqual({
      ids: [card.id],
      newFavoriteId: remaining.id,
    });
    const many = await kit.gql(
      `mutation($p: ID!, $ids: [ID!]!) { deleteBusinessCards(personId: $p, ids: $ids) { ids } }`,
      { p: personId, ids: [remaining.id] },
    );
    expect(many.body.data.deleteBusinessCards.ids).toEqual([remaining.id]);
    const missing = await kit.gql(
      `mutation($p: ID!, $ids: [ID!]!) { deleteBusinessCards(personId: $p, ids: $ids) { ids } }`,
      { p: personId, ids: [remaining.id] },
    );
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });

  it('manages addresses and exposes the company as a federation reference', async () => {
    const personId = await kit.person();
    const card = await kit.card(personId);
    const vars = { p: personId, c: card.id };
    const created = await kit.gql(
      `mutation($p: ID!, $c: ID!, $t: ID!) { createCardAddress(personId: $p, cardId: $c, input: { city: "Bonn", isFavorite: true, addressTypes: [{ id: $t }] }) { id city isFavorite addressTypes { text } } }`,
      { ...vars, t: homeType },
    );
    const address = created.body.data.createCardAddress;
    expect(address).toMatchObject({
      city: 'Bonn',
      isFavorite: true,
      addressTypes: [{ text: 'Home' }],
    });
    const a = { ...vars, a: address.id };
    const updated = await kit.gql(
      `mutation($p: ID!, $c: ID!, $a: ID!) { updateCardAddress(personId: $p, cardId: $c, addressId: $a, input: { zip: "53111" }) { city zip } }`,
      a,
    );
    expect(updated.body.data.updateCardAddress).toEqual({ city: 'Bonn', zip: '53111' });
    const read = await kit.gql(
      `query($p: ID!, $c: ID!, $a: ID!) { cardAddress(personId: $p, cardId: $c, addressId: $a) { zip } }`,
      a,
    );
    expect(read.body.data.cardAddress).toEqual({ zip: '53111' });
    const foreign = await kit.gql(
      `query($p: ID!, $c: ID!, $a: ID!) { cardAddress(personId: $p, cardId: $c, addressId: $a) { zip } }`,
      a,
      kit.B,
    );
    expect(foreign.body.data.cardAddress).toBeNull();
    const deleted = await kit.gql(
      `mutation($p: ID!, $c: ID!, $a: ID!) { deleteCardAddress(personId: $p, cardId: $c, addressId: $a) { id newFavoriteId } }`,
      a,
    );
    expect(deleted.body.data.deleteCardAddress).toEqual({ id: address.id, newFavoriteId: null });

    const companyId = randomUUID();
    await inTenant(kit.A, () =>
      kit.prisma.businessCard.update({ where: { id: card.id }, data: { companyId } }),
    );
    const withCompany = await kit.gql(
      `query($id: ID!) { businessCard(id: $id) { company { __typename id } } }`,
      { id: card.id },
    );
    expect(withCompany.body.data.businessCard.company).toEqual({
      __typename: 'Company',
      id: companyId,
    });
    const disconnected = await kit.gql(
      `mutation($p: ID!, $c: ID!) { connectBusinessCardToCompany(personId: $p, cardId: $c, input: { companyId: null }) { companyId company { id } } }`,
      vars,
    );
    expect(disconnected.body.data.connectBusinessCardToCompany).toEqual({
      companyId: null,
      company: null,
    });
  });

  it('validates without throwing and resolves BusinessCard references in one batch', async () => {
    const personId = await kit.person();
    const v = await kit.gql(
      `query($p: ID!) { validateBusinessCard(personId: $p, input: { emails: [{ mail: "nope" }], phones: [{ number: "1" }] }) { valid errors { field rule message } calculated { phones { number } } } }`,
      { p: personId },
    );
    expect(v.body.data.validateBusinessCard).toMatchObject({
      valid: false,
      errors: [{ field: 'emails[0].mail', rule: 'isEmail' }],
      calculated: null,
    });
    const c1 = await kit.card(personId, { business: 'One' });
    const c2 = await kit.card(personId, { business: 'Two' });
    const refs = await kit.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on BusinessCard { id business } } }`,
      {
        r: [c2.id, randomUUID(), c1.id].map((id) => ({ __typename: 'BusinessCard', id })),
      },
    );
    expect(refs.body.data._entities).toEqual([
      { id: c2.id, business: 'Two' },
      null,
      { id: c1.id, business: 'One' },
    ]);
    const foreign = await kit.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on BusinessCard { id } } }`,
      { r: [{ __typename: 'BusinessCard', id: c1.id }] },
      kit.B,
    );
    expect(foreign.body.data._entities).toEqual([null]);
  });
});
