import {
  domainProblem,
  entryFieldProblems,
  inInsertOrder,
  tagKey,
  tagsToCreate,
  textClashes,
  textKey,
} from './entry-rules';

const P = 'settings.problems';
const PLAIN = { color: false, category: false };
const COLORED = { color: true, category: false };
const CATEGORIZED = { color: false, category: true };

describe('entryFieldProblems', () => {
  it('accepts what the list allows', () => {
    expect(entryFieldProblems(COLORED, { text: 'Hot', color: '#a1B2c3' }, '', 'tags', P)).toEqual(
      [],
    );
    expect(
      entryFieldProblems(CATEGORIZED, { text: 'Calm', category: 'Mood' }, '', 'traits', P),
    ).toEqual([]);
    // null clears a field (S3) and is no use of it
    expect(entryFieldProblems(PLAIN, { color: null, category: null }, '', 'x', P)).toEqual([]);
  });

  it('refuses a blank text, and colour or category where the list has none', () => {
    expect(
      entryFieldProblems(
        PLAIN,
        { text: '   ', color: '#000000', category: 'c' },
        '[2]',
        'forms',
        P,
      ),
    ).toEqual([
      { field: '[2].text', rule: 'isNotEmpty' },
      {
        field: '[2].color',
        rule: 'notForList',
        args: { list: 'forms' },
        messageKey: 'settings.problems.notForList',
      },
      {
        field: '[2].category',
        rule: 'notForList',
        args: { list: 'forms' },
        messageKey: 'settings.problems.notForList',
      },
    ]);
  });

  it('leaves an empty text to class-validator (isNotEmpty there)', () => {
    expect(entryFieldProblems(PLAIN, { text: '' }, '', 'x', P)).toEqual([]);
  });

  it('wants a colour as #RRGGBB', () => {
    for (const color of ['red', '#12345', '#1234567', '123456', '#GGGGGG'])
      expect(entryFieldProblems(COLORED, { color }, '', 'tags', P)).toEqual([
        {
          field: 'color',
          rule: 'colorFormat',
          args: {},
          messageKey: 'settings.problems.colorFormat',
        },
      ]);
  });

  it('domainProblem names its message under the given prefix', () => {
    expect(domainProblem('own.rules', 'x', 'textTaken', { text: 'A' })).toEqual({
      field: 'x',
      rule: 'textTaken',
      args: { text: 'A' },
      messageKey: 'own.rules.textTaken',
    });
  });
});

describe('textClashes', () => {
  const taken = new Map([
    [textKey('Customer'), 'sys-1'],
    [textKey('Kunde'), 'sys-1'],
    [textKey('VIP'), 'own-1'],
  ]);

  it('finds texts taken by another entry, ignoring case', () => {
    const items = [
      { text: 'KUNDE', field: '[0].text' },
      { text: 'New', field: '[1].text' },
      { text: 'vip', field: '[2].text' },
    ];
    expect(textClashes(taken, items)).toEqual([items[0], items[2]]);
  });

  it('lets an entry keep its own text (in another case)', () => {
    expect(textClashes(taken, [{ text: 'Vip', field: 'text', selfId: 'own-1' }])).toEqual([]);
    expect(textClashes(taken, [{ text: 'Vip', field: 'text', selfId: 'own-2' }])).toHaveLength(1);
  });

  it('finds a text given twice in one request, from the second on', () => {
    const items = [
      { text: 'Alpha', field: '[0].text' },
      { text: 'ALPHA', field: '[1].text' },
      { text: 'alpha', field: '[2].text' },
    ];
    expect(textClashes(new Map(), items)).toEqual([items[1], items[2]]);
  });
});

describe('tagsToCreate', () => {
  it('creates each unknown text once, ignoring case, with the first spelling, trimmed', () => {
    const known = new Set([tagKey('Existing')]);
    expect(
      tagsToCreate(
        [{ text: ' Brand new ' }, { text: 'EXISTING' }, { text: 'brand NEW' }, { text: 'Other' }],
        known,
        PLAIN,
      ),
    ).toEqual([
      { key: 'brand new', text: 'Brand new', category: null },
      { key: 'other', text: 'Other', category: null },
    ]);
  });

  it('keeps a category only where the list has categories, trimmed (the default)', () => {
    const named = [
      { text: 'A', category: ' Mood ' },
      { text: 'B', category: '  ' },
    ];
    expect(tagsToCreate(named, new Set(), CATEGORIZED).map((t) => t.category)).toEqual([
      'Mood',
      null,
    ]);
    expect(tagsToCreate(named, new Set(), PLAIN).map((t) => t.category)).toEqual([null, null]);
  });

  it('keeps the category as given with `asGiven`, whatever the list', () => {
    const named = [{ text: 'A', category: ' Mood ' }, { text: 'B' }];
    expect(tagsToCreate(named, new Set(), PLAIN, 'asGiven').map((t) => t.category)).toEqual([
      ' Mood ',
      null,
    ]);
  });

  it('keys tags trimmed and ignoring case', () => {
    expect(tagKey('  Big Five ')).toBe('big five');
  });
});

describe('inInsertOrder', () => {
  it('orders by tagKey, whatever the case and spacing, and keeps the rows as they are', () => {
    const rows = [{ text: 'beta' }, { text: ' Alpha' }, { text: 'ALPHA2' }, { text: 'Beta ' }];
    expect(inInsertOrder(rows).map((r) => r.text)).toEqual([' Alpha', 'ALPHA2', 'beta', 'Beta ']);
    expect(inInsertOrder(rows)[0]).toBe(rows[1]);
    expect(rows.map((r) => r.text)).toEqual(['beta', ' Alpha', 'ALPHA2', 'Beta ']);
  });
});
