import { randomUUID } from 'node:crypto';
import { CardTestKit } from './test/card-test-fixtures';

// startup and requests can be slow on a loaded machine (jest's default is 5 s)
jest.setTimeout(60000);

// B11-B14 over REST: the seed's favorite rules (every delete case), address types, isolation.

let kit: CardTestKit;
let businessType: string;
let homeType: string;
let foreignType: string;

beforeAll(async () => {
  kit = await CardTestKit.start('crm_people_it_b_addresses');
  businessType = await kit.entry(kit.A, 'ADDRESS_TYPES', 'Business');
  homeType = await kit.entry(kit.A, 'ADDRESS_TYPES', 'Home');
  foreignType = await kit.entry(kit.B, 'ADDRESS_TYPES', 'Office');
}, 60000);
afterAll(async () => kit?.close(), 30000);

interface CardRef {
  personId: string;
  cardId: string;
  path: string;
}

async function newCard(): Promise<CardRef> {
  const personId = await kit.person();
  const card = await kit.card(personId, { business: 'Acme' });
  return {
    personId,
    cardId: card.id,
    path: `/people/${personId}/business-cards/${card.id}/addresses`,
  };
}

async function add(ref: CardRef, body: Record<string, unknown>) {
  const res = await kit.call('POST', ref.path, body);
  if (res.status !== 201) throw new Error(res.text);
  return res.body.data;
}

/** Addresses of the card as [city, isFavorite], in order. */
async function state(ref: CardRef) {
  const res = await kit.call('GET', `/business-cards/${ref.cardId}`);
  return res.body.data.addresses.map((a: any) => [a.city, a.isFavorite]);
}

describe('B11 create', () => {
  it('creates an address with resolved types; a favorite takes the status from the previous one', async () => {
    const ref = await newCard();
    const first = await add(ref, { city: 'Berlin', isFavorite: true });
    expect(first).toMatchObject({ city: 'Berlin', isFavorite: true, addressTypes: [] });
    const second = await add(ref, {
      city: 'Wien',
      countryCode: 'at',
      addressTypes: [{ id: businessType }, { id: homeType }],
      coordinates: { longitude: 16.37, latitude: 48.21 },
      isPostOfficeBox: true,
      postboxNumber: '12',
    });
    expect(second).toMatchObject({
      isFavorite: false,
      countryCode: 'AT',
      addressTypes: [
        { id: businessType, text: 'Business' },
        { id: homeType, text: 'Home' },
      ],
      coordinates: { longitude: 16.37, latitude: 48.21 },
      isPostOfficeBox: true,
      postboxNumber: '12',
    });
    expect(await state(ref)).toEqual([
      ['Berlin', true],
      ['Wien', false],
    ]);
    await add(ref, { city: 'Graz', isFavorite: true });
    expect(await state(ref)).toEqual([
      ['Berlin', false],
      ['Wien', false],
      ['Graz', true],
    ]);
  });

  it("refuses unknown types (also another tenant's), bad country codes and coordinates with 400", async () => {
    const ref = await newCard();
    const res = await kit.call('POST', ref.path, {
      addressTypes: [{ id: businessType }, { id: foreignType }, { id: 'nope' }],
      countryCode: 'Germany',
      coordinates: { longitude: 181, latitude: -91 },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => `${e.field}:${e.rule}`).sort()).toEqual([
      'addressTypes[2].id:isUuid',
      'coordinates.latitude:min',
      'coordinates.longitude:max',
    ]);
    const domain = await kit.call('POST', ref.path, {
      addressTypes: [{ id: businessType }, { id: foreignType }],
      countryCode: 'XX',
    });
    expect(domain.status).toBe(400);
    expect(domain.body.errors.map((e: any) => `${e.field}:${e.rule}`).sort()).toEqual([
      'addressTypes[1].id:unknownEntry',
      'countryCode:countryCode',
    ]);
    expect(await state(ref)).toEqual([]);
  });

  it("answers 404 for another tenant, another person's card and malformed ids", async () => {
    const ref = await newCard();
    expect((await kit.call('POST', ref.path, { city: 'X' }, kit.B)).status).toBe(404);
    const other = await kit.person();
    const foreignPath = `/people/${other}/business-cards/${ref.cardId}/addresses`;
    expect((await kit.call('POST', foreignPath, { city: 'X' })).status).toBe(404);
    expect(
      (await kit.call('POST', `/people/${ref.personId}/business-cards/x/addresses`, {})).status,
    ).toBe(404);
    expect(await state(ref)).toEqual([]);
  });
});

describe('B12 read', () => {
  it('reads an address of the card; other cards, tenants and unknown ids are 404', async () => {
    const ref = await newCard();
    const a = await add(ref, { city: 'Berlin', addressTypes: [{ id: homeType }] });
    const res = await kit.call('GET', `${ref.path}/${a.id}`, undefined, kit.A, {
      'Accept-Language': 'de',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: a.id,
      city: 'Berlin',
      addressTypes: [{ text: 'Home' }],
    });
    const other = await newCard();
    expect((await kit.call('GET', `${other.path}/${a.id}`)).status).toBe(404);
    expect((await kit.call('GET', `${ref.path}/${a.id}`, undefined, kit.B)).status).toBe(404);
    const missing = randomUUID();
    const unknown = await kit.call('GET', `${ref.path}/${missing}`, undefined, kit.A, {
      'Accept-Language': 'de',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(`Adresse ${missing} wurde nicht gefunden`);
  });
});

describe('B13 update', () => {
  it('changes only given fields; favorite true demotes the previous favorite, false just unsets', async () => {
    const ref = await newCard();
    const a = await add(ref, { city: 'Berlin', zip: '10115', isFavorite: true });
    const b = await add(ref, { city: 'Potsdam' });
    const res = await kit.call('PUT', `${ref.path}/${b.id}`, { isFavorite: true, zip: '14467' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ city: 'Potsdam', zip: '14467', isFavorite: true });
    expect(await state(ref)).toEqual([
      ['Berlin', false],
      ['Potsdam', true],
    ]);
    const cleared = await kit.call('PUT', `${ref.path}/${a.id}`, { zip: null, coordinates: null });
    expect(cleared.body.data).toMatchObject({ city: 'Berlin', zip: null, coordinates: null });
    await kit.call('PUT', `${ref.path}/${b.id}`, { isFavorite: false });
    expect(await state(ref)).toEqual([
      ['Berlin', false],
      ['Potsdam', false],
    ]);
  });

  it('refuses bad input with 400 and another tenant with 404, changing nothing', async () => {
    const ref = await newCard();
    const a = await add(ref, { city: 'Berlin' });
    const bad = await kit.call('PUT', `${ref.path}/${a.id}`, { countryCode: 'ZZ', city: 'Bonn' });
    expect(bad.status).toBe(400);
    expect((await kit.call('PUT', `${ref.path}/${a.id}`, { city: 'Bonn' }, kit.B)).status).toBe(
      404,
    );
    expect((await kit.call('PUT', `${ref.path}/${randomUUID()}`, { city: 'Bonn' })).status).toBe(
      404,
    );
    expect(await state(ref)).toEqual([['Berlin', false]]);
  });
});

describe('B14 delete', () => {
  async function three(favorite: number) {
    const ref = await newCard();
    const ids: string[] = [];
    for (const [i, city] of ['A', 'B', 'C'].entries())
      ids.push((await add(ref, { city, isFavorite: i === favorite })).id);
    return { ref, ids };
  }

  it('the favorite gone with exactly one other left: that one becomes the favorite', async () => {
    const { ref, ids } = await three(0);
    await kit.call('DELETE', `${ref.path}/${ids[1]}`);
    const res = await kit.call('DELETE', `${ref.path}/${ids[0]}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: ids[0], newFavoriteId: ids[2] });
    expect(await state(ref)).toEqual([['C', true]]);
  });

  it('the favorite gone with two others left: no favorite', async () => {
    const { ref, ids } = await three(1);
    const res = await kit.call('DELETE', `${ref.path}/${ids[1]}`);
    expect(res.body.data).toEqual({ id: ids[1], newFavoriteId: null });
    expect(await state(ref)).toEqual([
      ['A', false],
      ['C', false],
    ]);
  });

  it('a non-favorite gone: the favorite stays, even when one remains', async () => {
    const { ref, ids } = await three(2);
    await kit.call('DELETE', `${ref.path}/${ids[0]}`);
    const res = await kit.call('DELETE', `${ref.path}/${ids[1]}`);
    expect(res.body.data).toEqual({ id: ids[1], newFavoriteId: null });
    expect(await state(ref)).toEqual([['C', true]]);
  });

  it('no favorite and one left: still none; the last one gone: empty', async () => {
    const { ref, ids } = await three(-1);
    await kit.call('DELETE', `${ref.path}/${ids[0]}`);
    await kit.call('DELETE', `${ref.path}/${ids[1]}`);
    expect(await state(ref)).toEqual([['C', false]]);
    await kit.call('DELETE', `${ref.path}/${ids[2]}`);
    expect(await state(ref)).toEqual([]);
  });

  it('another tenant or an unknown id is 404 and nothing changes', async () => {
    const { ref, ids } = await three(0);
    expect((await kit.call('DELETE', `${ref.path}/${ids[0]}`, undefined, kit.B)).status).toBe(404);
    expect((await kit.call('DELETE', `${ref.path}/${randomUUID()}`)).status).toBe(404);
    expect((await kit.call('DELETE', `${ref.path}/nope`)).status).toBe(404);
    expect(await state(ref)).toEqual([
      ['A', true],
      ['B', false],
      ['C', false],
    ]);
  });
});
