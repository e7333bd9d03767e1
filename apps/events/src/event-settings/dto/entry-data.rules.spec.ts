import { cancellationTierAt, entryDataProblems } from './entry-data.rules';

const pairs = (problems: { field: string; rule: string }[]) =>
  problems.map((p) => [p.field, p.rule]);

const field = (over: Record<string, unknown> = {}) => ({
  key: 'name',
  label: 'Name',
  type: 'text',
  required: true,
  ...over,
});

describe('entryDataProblems: booking form field sets', () => {
  const check = (data: unknown, path = '', create = true) =>
    pairs(entryDataProblems('BOOKING_FORM_FIELD_SETS', data, path, create, 'sets'));

  it('accepts every type, options for select only', () => {
    const types = ['text', 'textarea', 'email', 'phone', 'number', 'date', 'checkbox'];
    const fields = [
      ...types.map((type, i) => field({ key: `f-${i}`, type })),
      field({ key: 'choice', type: 'select', options: ['a', 'b'] }),
    ];
    expect(check({ fields })).toEqual([]);
  });

  it('names the field of each broken rule', () => {
    expect(check({ fields: [] })).toEqual([['data.fields', 'arrayMinSize']]);
    expect(
      check({ fields: Array.from({ length: 51 }, (_, i) => field({ key: `k${i}` })) }),
    ).toEqual([['data.fields', 'arrayMaxSize']]);
    expect(check({ fields: [field({ key: 'Not A Slug' })] })).toEqual([
      ['data.fields[0].key', 'matches'],
    ]);
    expect(check({ fields: [field({ required: 'yes' })] })).toEqual([
      ['data.fields[0].required', 'isBoolean'],
    ]);
    expect(check({ fields: [field({ extra: 1 })] })).toEqual([
      ['data.fields[0].extra', 'whitelistValidation'],
    ]);
    expect(
      check({ fields: [field({ type: 'select', options: Array.from({ length: 51 }, String) })] }),
    ).toEqual([['data.fields[0].options', 'arrayMaxSize']]);
    expect(check({ fields: [field(), field({ label: 'Again' })] }, '[3]')).toEqual([
      ['[3].data.fields[1].key', 'keyTaken'],
    ]);
    expect(check({ fields: [field({ type: 'select' })] })).toEqual([
      ['data.fields[0].options', 'optionsRequired'],
    ]);
    expect(check({ fields: [field({ options: ['a'] })] })).toEqual([
      ['data.fields[0].options', 'optionsNotForType'],
    ]);
  });

  it('requires data on create, not on update; null is refused', () => {
    expect(check(undefined)).toEqual([['data', 'isDefined']]);
    expect(check(undefined, '', false)).toEqual([]);
    expect(check(null, '', false)).toEqual([['data', 'isDefined']]);
    expect(check('fields')).toEqual([['data', 'isObject']]);
  });
});

describe('entryDataProblems: cancellation conditions', () => {
  const check = (data: unknown) =>
    pairs(entryDataProblems('CANCELLATION_CONDITIONS', data, '', true, 'conditions'));
  const tier = (over: Record<string, unknown> = {}) => ({
    daysBeforeStart: 10,
    feePercent: 25.5,
    feeFixed: '5.00',
    ...over,
  });

  it('accepts tiers with distinct days, percent 0-100 with 2 decimals, fixed fee as decimal string', () => {
    expect(
      check({
        tiers: [
          tier({ daysBeforeStart: 0, feePercent: 100, feeFixed: '0' }),
          tier({ feePercent: 0.01 }),
        ],
      }),
    ).toEqual([]);
  });

  it('names each broken rule', () => {
    expect(check({ tiers: [] })).toEqual([['data.tiers', 'arrayMinSize']]);
    expect(
      check({ tiers: Array.from({ length: 21 }, (_, i) => tier({ daysBeforeStart: i })) }),
    ).toEqual([['data.tiers', 'arrayMaxSize']]);
    expect(check({ tiers: [tier({ daysBeforeStart: -1 })] })).toEqual([
      ['data.tiers[0].daysBeforeStart', 'min'],
    ]);
    expect(check({ tiers: [tier({ daysBeforeStart: 1.5 })] })).toEqual([
      ['data.tiers[0].daysBeforeStart', 'isInt'],
    ]);
    expect(check({ tiers: [tier({ feePercent: 100.01 })] })).toEqual([
      ['data.tiers[0].feePercent', 'max'],
    ]);
    expect(check({ tiers: [tier({ feePercent: '10' })] })).toEqual([
      ['data.tiers[0].feePercent', 'isNumber'],
    ]);
    expect(check({ tiers: [tier({ feePercent: 1.005 })] })).toEqual([
      ['data.tiers[0].feePercent', 'decimals'],
    ]);
    for (const feeFixed of ['-1', '5.001', '5,00', 5, ''])
      expect(check({ tiers: [tier({ feeFixed })] })[0][0]).toBe('data.tiers[0].feeFixed');
    expect(check({ tiers: [tier(), tier()] })).toEqual([
      ['data.tiers[1].daysBeforeStart', 'daysTaken'],
    ]);
  });
});

describe('entryDataProblems: other lists', () => {
  it('refuse data, accept its absence', () => {
    expect(pairs(entryDataProblems('EVENT_CATEGORIES', { a: 1 }, '', true, 'x'))).toEqual([
      ['data', 'notForList'],
    ]);
    expect(entryDataProblems('ORGA_TAGS', undefined, '', true, 'x')).toEqual([]);
  });
});

describe('cancellationTierAt', () => {
  const tiers = [
    { daysBeforeStart: 30, feePercent: 0, feeFixed: '0' },
    { daysBeforeStart: 14, feePercent: 50, feeFixed: '5.00' },
    { daysBeforeStart: 3, feePercent: 100, feeFixed: '0' },
  ];
  it('the reachable tier with the largest number of days wins', () => {
    expect(cancellationTierAt(tiers, 60)?.feePercent).toBe(0);
    expect(cancellationTierAt(tiers, 30)?.feePercent).toBe(0);
    expect(cancellationTierAt(tiers, 29)?.feePercent).toBe(50);
    expect(cancellationTierAt(tiers, 14)?.feePercent).toBe(50);
    expect(cancellationTierAt(tiers, 3)?.feePercent).toBe(100);
    expect(cancellationTierAt(tiers, 2)).toBeNull();
  });
});
