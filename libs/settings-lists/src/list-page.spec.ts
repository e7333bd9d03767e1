import { isListOrder, sortEntries, systemFirstPage } from './list-page';

describe('systemFirstPage', () => {
  // 3 system entries, then the tenant's
  it('a page within the system entries reads the tenant entries that fill it', () => {
    expect(systemFirstPage(3, 0, 2)).toEqual({ system: [0, 2], skip: 0, take: 0 });
    expect(systemFirstPage(3, 0, 5)).toEqual({ system: [0, 3], skip: 0, take: 2 });
  });

  it('a page across the border takes the rest of the system entries, then the first rows', () => {
    expect(systemFirstPage(3, 2, 2)).toEqual({ system: [2, 3], skip: 0, take: 1 });
  });

  it('a page after the system entries skips the rows before it', () => {
    expect(systemFirstPage(3, 4, 2)).toEqual({ system: [3, 3], skip: 1, take: 2 });
    expect(systemFirstPage(0, 10, 5)).toEqual({ system: [0, 0], skip: 10, take: 5 });
  });

  it('slices as the union would: every page together is the whole list once', () => {
    const system = ['s1', 's2', 's3'];
    const rows = ['t1', 't2', 't3', 't4'];
    const union = [...system, ...rows];
    for (let take = 1; take <= 8; take++)
      for (let skip = 0; skip <= 8; skip++) {
        const at = systemFirstPage(system.length, skip, take);
        const page = [...system.slice(...at.system), ...rows.slice(at.skip, at.skip + at.take)];
        expect(page).toEqual(union.slice(skip, skip + take));
      }
  });
});

describe('isListOrder', () => {
  it('is the default order only', () => {
    expect(isListOrder([{ field: 'position', direction: 'asc' }])).toBe(true);
    expect(isListOrder([{ field: 'position', direction: 'desc' }])).toBe(false);
    expect(isListOrder([{ field: 'text', direction: 'asc' }])).toBe(false);
    expect(
      isListOrder([
        { field: 'position', direction: 'asc' },
        { field: 'text', direction: 'asc' },
      ]),
    ).toBe(false);
  });
});

describe('sortEntries', () => {
  const entries = [
    { id: 'a', text: 'Zebra' },
    { id: 'b', text: 'äpfel' },
    { id: 'c', text: 'Item 10' },
    { id: 'd', text: 'Item 9' },
    { id: 'e', text: 'ZEBRA' },
  ];
  const texts = (xs: { text: string }[]) => xs.map((x) => x.text);

  it('orders by text in the language, numbers as numbers, equal texts in list order', () => {
    expect(texts(sortEntries(entries, [{ field: 'text', direction: 'asc' }], 'de'))).toEqual([
      'äpfel',
      'Item 9',
      'Item 10',
      'Zebra',
      'ZEBRA',
    ]);
    expect(texts(sortEntries(entries, [{ field: 'text', direction: 'desc' }], 'en'))).toEqual([
      'Zebra',
      'ZEBRA',
      'Item 10',
      'Item 9',
      'äpfel',
    ]);
  });

  it('orders by list position, backwards with desc, without touching the input', () => {
    const copy = [...entries];
    expect(
      sortEntries(entries, [{ field: 'position', direction: 'desc' }], 'en').map((e) => e.id),
    ).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(entries).toEqual(copy);
  });
});
