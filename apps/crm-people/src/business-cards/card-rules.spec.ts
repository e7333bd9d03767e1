import {
  checkCountryCode,
  favoriteIndex,
  normalizeEmails,
  normalizePhones,
  notBefore,
  phoneRegion,
  successorFavorite,
} from './card-rules';

describe('favorites', () => {
  it('keeps the last marked item as the one favorite', () => {
    expect(
      favoriteIndex([{ isFavorite: true }, {}, { isFavorite: true }, { isFavorite: false }]),
    ).toBe(2);
    expect(favoriteIndex([{}, { isFavorite: null }])).toBe(-1);
    expect(favoriteIndex([])).toBe(-1);
  });

  it('names a successor only when the favorite goes and exactly one item remains', () => {
    const items = (fav: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `a${i}`, isFavorite: i === fav }));
    expect(successorFavorite(items(0, 2), new Set(['a0']))).toBe('a1');
    expect(successorFavorite(items(0, 3), new Set(['a0']))).toBeNull();
    expect(successorFavorite(items(0, 3), new Set(['a0', 'a1']))).toBe('a2');
    expect(successorFavorite(items(1, 2), new Set(['a0']))).toBeNull();
    expect(successorFavorite(items(-1, 2), new Set(['a0']))).toBeNull();
    expect(successorFavorite(items(0, 1), new Set(['a0']))).toBeNull();
  });
});

describe('phones', () => {
  it('takes the region of the favorite address, else of any address, else DE', () => {
    expect(phoneRegion([{ countryCode: 'ch' }, { countryCode: 'AT', isFavorite: true }])).toBe(
      'AT',
    );
    expect(phoneRegion([{ countryCode: null, isFavorite: true }, { countryCode: 'CH' }])).toBe(
      'CH',
    );
    expect(phoneRegion([{ countryCode: 'AQ' }])).toBe('DE'); // no numbering plan known
    expect(phoneRegion([])).toBe('DE');
  });

  it('writes valid numbers in E.164 and reports each invalid one by index', () => {
    const out = normalizePhones(
      [
        { number: ' 030 1234567 ', type: ' office ', isFavorite: true },
        { number: '+1 212 555 0100' },
        { number: '0049 89 123456' },
        { number: '12345' },
        { number: 'call me' },
      ],
      'DE',
    );
    expect(out.phones.map((p) => p.number)).toEqual([
      '+49301234567',
      '+12125550100',
      '+4989123456',
      '12345',
      'call me',
    ]);
    expect(out.phones[0]).toEqual({ isFavorite: true, type: 'office', number: '+49301234567' });
    expect(out.problems).toEqual([
      { field: 'phones[3].number', rule: 'phoneNumber', args: { region: 'DE' } },
      { field: 'phones[4].number', rule: 'phoneNumber', args: { region: 'DE' } },
    ]);
  });

  it('reads a national number in the given region', () => {
    expect(normalizePhones([{ number: '044 668 18 00' }], 'CH').phones[0].number).toBe(
      '+41446681800',
    );
  });
});

describe('other rules', () => {
  it('keeps e-mail types and one favorite', () => {
    expect(
      normalizeEmails([
        { mail: ' a@x.example ', isFavorite: true, type: { id: 'work' } },
        { mail: 'b@x.example', isFavorite: true },
      ]),
    ).toEqual([
      { mail: 'a@x.example', isFavorite: false, type: { id: 'work', text: null } },
      { mail: 'b@x.example', isFavorite: true, type: null },
    ]);
  });

  it('refuses an end before its start, equal is fine', () => {
    const d = (s: string) => new Date(s);
    const from = { field: 'validFrom', value: d('2024-01-02T00:00:00Z') };
    expect(notBefore(from, { field: 'validTo', value: d('2024-01-01T00:00:00Z') })).toEqual([
      {
        field: 'validTo',
        rule: 'notBefore',
        args: { other: 'validFrom', value: '2024-01-02T00:00:00.000Z' },
      },
    ]);
    expect(notBefore(from, { field: 'validTo', value: d('2024-01-02T00:00:00Z') })).toEqual([]);
    expect(notBefore(from, { field: 'validTo', value: null })).toEqual([]);
  });

  it('accepts ISO 3166-1 alpha-2 codes in any case', () => {
    expect(checkCountryCode('de', 'countryCode')).toEqual([]);
    expect(checkCountryCode(null, 'countryCode')).toEqual([]);
    expect(checkCountryCode('DEU', 'x.countryCode')).toEqual([
      { field: 'x.countryCode', rule: 'countryCode', args: { value: 'DEU' } },
    ]);
  });
});
