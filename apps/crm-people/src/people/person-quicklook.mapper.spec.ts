import { favorite, toQuicklook } from './person-quicklook.mapper';
import type { QuicklookRecord } from './people-read.repository';

describe('favorite', () => {
  it('takes the element marked favorite, else the first', () => {
    expect(favorite([{ n: 1 }, { n: 2, isFavorite: true }])).toEqual({ n: 2, isFavorite: true });
    expect(favorite([{ n: 1, isFavorite: false }, { n: 2 }])).toEqual({ n: 1, isFavorite: false });
    expect(favorite([])).toBeNull();
    expect(favorite({ not: 'a list' })).toBeNull();
  });
});

describe('toQuicklook', () => {
  const base: QuicklookRecord = {
    id: 'p1',
    firstname: 'Ada',
    lastname: 'Lovelace',
    profileImage: 'img',
    lifecycleId: 'l1',
    lifecycleChanged: new Date('2024-01-02T03:04:05Z'),
    tags: [
      {
        tenantId: 't',
        personId: 'p1',
        entryId: 'o1',
        kind: 'ORGA',
        position: 0,
        entry: { text: 'VIP', category: null },
      },
      {
        tenantId: 't',
        personId: 'p1',
        entryId: 'x1',
        kind: 'PERSONALITY',
        position: 0,
        entry: { text: 'Calm', category: 'Mood' },
      },
    ],
    cards: [
      {
        id: 'c1',
        companyId: 'co',
        business: 'Engines Ltd',
        emails: [{ mail: 'a@x' }, { mail: 'b@x', isFavorite: true }],
        phones: [{ number: '1' }],
        businessPositions: [{ position: 'Analyst', department: 'Math' }],
      },
    ],
  };
  const entries = new Map([['l1', { id: 'l1', text: 'Customer', color: '#0f0', category: null }]]);

  it('takes the card fields from the favorites within the card', () => {
    expect(toQuicklook(base, entries)).toEqual({
      id: 'p1',
      name: 'Ada Lovelace',
      initials: 'AL',
      profileImage: 'img',
      detailImagePath: '/v1/crm/people/p1/profile-image/detail',
      lifecycle: {
        lifecycleId: 'l1',
        text: 'Customer',
        color: '#0f0',
        dateChanged: '2024-01-02T03:04:05.000Z',
      },
      orgaTags: [{ id: 'o1', text: 'VIP' }],
      personalities: [{ id: 'x1', text: 'Calm', category: 'Mood' }],
      cardId: 'c1',
      companyId: 'co',
      business: 'Engines Ltd',
      position: 'Analyst',
      department: 'Math',
      email: 'b@x',
      phone: '1',
    });
  });

  it('gives nulls without a card, lifecycle or image', () => {
    const q = toQuicklook({ ...base, cards: [], lifecycleId: null, profileImage: null }, entries);
    expect(q).toMatchObject({
      lifecycle: null,
      detailImagePath: null,
      cardId: null,
      companyId: null,
      business: null,
      position: null,
      email: null,
      phone: null,
    });
  });
});
