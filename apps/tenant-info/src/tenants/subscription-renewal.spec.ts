import { addMonthsUtc, nextRenewal, renewalDate, RenewalFacts } from './subscription-renewal';

const d = (s: string) => new Date(s);

describe('addMonthsUtc', () => {
  it('adds months and years across year ends', () => {
    expect(addMonthsUtc(d('2026-11-15T10:00:00.000Z'), 3)).toEqual(d('2027-02-15T10:00:00.000Z'));
    expect(addMonthsUtc(d('2026-01-15T00:00:00.000Z'), 24)).toEqual(d('2028-01-15T00:00:00.000Z'));
  });

  it('clamps the day to the end of a shorter month (leap years too)', () => {
    expect(addMonthsUtc(d('2026-01-31T08:00:00.000Z'), 1)).toEqual(d('2026-02-28T08:00:00.000Z'));
    expect(addMonthsUtc(d('2028-01-31T08:00:00.000Z'), 1)).toEqual(d('2028-02-29T08:00:00.000Z'));
    expect(addMonthsUtc(d('2028-02-29T00:00:00.000Z'), 12)).toEqual(d('2029-02-28T00:00:00.000Z'));
  });
});

describe('nextRenewal', () => {
  const start = d('2026-01-31T12:00:00.000Z');

  it('is one period after the start for a new subscription', () => {
    expect(nextRenewal(start, 'monthly', d('2026-01-31T12:00:01.000Z'))).toEqual(
      d('2026-02-28T12:00:00.000Z'),
    );
    expect(nextRenewal(start, 'yearly', d('2026-02-01T00:00:00.000Z'))).toEqual(
      d('2027-01-31T12:00:00.000Z'),
    );
  });

  it('counts from the start, so the day does not drift after February', () => {
    expect(nextRenewal(start, 'monthly', d('2026-03-01T00:00:00.000Z'))).toEqual(
      d('2026-03-31T12:00:00.000Z'),
    );
  });

  it('is strictly after now, also exactly on a boundary and years later', () => {
    expect(nextRenewal(start, 'monthly', d('2026-03-31T12:00:00.000Z'))).toEqual(
      d('2026-04-30T12:00:00.000Z'),
    );
    expect(nextRenewal(start, 'monthly', d('2031-07-01T00:00:00.000Z'))).toEqual(
      d('2031-07-31T12:00:00.000Z'),
    );
  });

  it('has no answer for an unknown period', () => {
    expect(nextRenewal(start, 'weekly', d('2026-03-01T00:00:00.000Z'))).toBeNull();
  });
});

describe('renewalDate', () => {
  const now = d('2026-06-10T00:00:00.000Z');
  const base: RenewalFacts = {
    status: 'ACTIVE',
    billingPeriod: 'monthly',
    startDate: d('2026-01-15T00:00:00.000Z'),
    endDate: null,
    renewsAt: null,
  };

  it('derives the next boundary for an active subscription', () => {
    expect(renewalDate(base, now)).toEqual(d('2026-06-15T00:00:00.000Z'));
  });

  it('prefers a stored future date and ignores a stored past one', () => {
    const stored = d('2026-07-01T00:00:00.000Z');
    expect(renewalDate({ ...base, renewsAt: stored }, now)).toEqual(stored);
    expect(renewalDate({ ...base, renewsAt: d('2026-05-01T00:00:00.000Z') }, now)).toEqual(
      d('2026-06-15T00:00:00.000Z'),
    );
  });

  it('is null once cancelled or when an end date is set', () => {
    expect(renewalDate({ ...base, status: 'CANCELLED' }, now)).toBeNull();
    expect(renewalDate({ ...base, endDate: d('2026-12-31T00:00:00.000Z') }, now)).toBeNull();
  });
});
