import { cancellationQuote, readTiers, tierDeadline } from './cancellation-rules';

// BK7: the tier that applies, fees in exact decimals, deadlines in the event's zone.

const start = new Date('2030-06-15T08:00:00.000Z'); // 10:00 in Berlin (CEST)
const tiers = [
  { daysBeforeStart: 7, feePercent: 50, feeFixed: '5.00' },
  { daysBeforeStart: 30, feePercent: 0, feeFixed: '0' },
  { daysBeforeStart: 1, feePercent: 100, feeFixed: '0' },
];
const at = (iso: string) => new Date(iso);

describe('cancellationQuote', () => {
  it('applies the tier with the largest daysBeforeStart whose deadline has not passed', () => {
    const early = cancellationQuote(
      tiers,
      start,
      'Europe/Berlin',
      '100.00',
      at('2030-05-01T00:00:00Z'),
    );
    expect(early).toMatchObject({ fee: '0.00', refund: '100.00', rule: 'tier' });
    expect(early.currentTier?.daysBeforeStart).toBe(30);
    expect(early.nextTier?.daysBeforeStart).toBe(7);
    expect(early.deadline).toBe('2030-05-16T08:00:00.000Z');

    const mid = cancellationQuote(
      tiers,
      start,
      'Europe/Berlin',
      '100.00',
      at('2030-06-01T00:00:00Z'),
    );
    expect(mid).toMatchObject({ fee: '55.00', refund: '45.00' });
    expect(mid.currentTier).toEqual({
      daysBeforeStart: 7,
      feePercent: 50,
      feeFixed: '5.00',
      deadline: '2030-06-08T08:00:00.000Z',
    });
    expect(mid.nextTier?.daysBeforeStart).toBe(1);

    const late = cancellationQuote(
      tiers,
      start,
      'Europe/Berlin',
      '100.00',
      at('2030-06-14T07:59:59Z'),
    );
    expect(late).toMatchObject({ fee: '100.00', refund: '0.00', nextTier: null });
  });

  it('no tier left: the fee is the total (no refund)', () => {
    const q = cancellationQuote(
      tiers,
      start,
      'Europe/Berlin',
      '100.00',
      at('2030-06-14T08:00:00Z'),
    );
    expect(q).toMatchObject({ fee: '100.00', refund: '0.00', rule: 'noRefund', currentTier: null });
  });

  it('no tiers: free until the start, the total after it', () => {
    expect(
      cancellationQuote(null, start, 'UTC', '80.00', at('2030-06-15T07:59:00Z')),
    ).toMatchObject({
      fee: '0.00',
      refund: '80.00',
      rule: 'free',
      deadline: start.toISOString(),
    });
    expect(cancellationQuote([], start, 'UTC', '80.00', at('2030-06-15T08:00:00Z'))).toMatchObject({
      fee: '80.00',
      rule: 'noRefund',
    });
  });

  it('rounds half up to cents and caps the fee at the total', () => {
    const third = [{ daysBeforeStart: 0, feePercent: 33.33, feeFixed: '0' }];
    expect(cancellationQuote(third, start, 'UTC', '10.05', at('2030-01-01T00:00:00Z')).fee).toBe(
      '3.35',
    );
    const steep = [{ daysBeforeStart: 0, feePercent: 90, feeFixed: '20.00' }];
    expect(
      cancellationQuote(steep, start, 'UTC', '50.00', at('2030-01-01T00:00:00Z')),
    ).toMatchObject({
      fee: '50.00',
      refund: '0.00',
    });
    // 0.1 + 0.2 in floats is not 0.3: in decimals it is
    const tiny = [{ daysBeforeStart: 0, feePercent: '10', feeFixed: '0.2' }];
    expect(cancellationQuote(tiny, start, 'UTC', '1.00', at('2030-01-01T00:00:00Z')).fee).toBe(
      '0.30',
    );
  });

  it('counts days in the event’s zone across a DST change', () => {
    // Berlin switches to summer time on 2030-03-31: 7 days before 2030-04-02 10:00 CEST is
    // 2030-03-26 10:00 CET, i.e. 09:00 UTC (not 08:00 UTC)
    const spring = new Date('2030-04-02T08:00:00Z');
    expect(tierDeadline(spring, 'Europe/Berlin', 7).toISOString()).toBe('2030-03-26T09:00:00.000Z');
    expect(tierDeadline(spring, 'Not/AZone', 1).toISOString()).toBe('2030-04-01T08:00:00.000Z');
  });

  it('without a start the first tier applies; malformed tiers are skipped', () => {
    const q = cancellationQuote(tiers, null, 'UTC', '100.00');
    expect(q.currentTier).toMatchObject({ daysBeforeStart: 30, deadline: null });
    expect(
      readTiers([{ daysBeforeStart: 'x' }, null, 3, { daysBeforeStart: 2, feePercent: 1 }]),
    ).toEqual([{ daysBeforeStart: 2, feePercent: 1, feeFixed: '0' }]);
  });
});
