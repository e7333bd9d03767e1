import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { Money } from '../common/money';

// BK7: what cancelling a booking costs now, from the tiers frozen onto it and the event's current
// start in its time zone. Money in exact decimals (never floats).

/** A tier of a cancellation condition: until `daysBeforeStart` days before the start. */
export interface CancellationTier {
  daysBeforeStart: number;
  feePercent: number | string;
  feeFixed: string;
}

export interface TierView {
  daysBeforeStart: number;
  /** A number, as the tier is given to the events service (two decimals at most). */
  feePercent: number;
  feeFixed: string;
  /** Start minus daysBeforeStart days in the event's zone (null: the event has no start). */
  deadline: string | null;
}

export interface CancellationQuote {
  fee: string;
  refund: string;
  total: string;
  /** The tier that applies now (null: no tiers, or none left). */
  currentTier: TierView | null;
  /** Until when the current rule holds: the current tier's deadline, else the start. */
  deadline: string | null;
  /** The tier that applies once the current deadline has passed (null: none). */
  nextTier: TierView | null;
  /** free (no tiers, before the start) | tier | noRefund (no tier left, or started) */
  rule: 'free' | 'tier' | 'noRefund';
}

/** The tiers as stored (JSON): anything that is not a tier is skipped, sorted by days descending. */
export function readTiers(raw: unknown): CancellationTier[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter(
      (t): t is CancellationTier =>
        typeof t === 'object' &&
        t !== null &&
        Number.isInteger((t as CancellationTier).daysBeforeStart) &&
        ['number', 'string'].includes(typeof (t as CancellationTier).feePercent),
    )
    .map((t) => ({
      daysBeforeStart: t.daysBeforeStart,
      feePercent: t.feePercent,
      feeFixed: typeof t.feeFixed === 'string' && t.feeFixed ? t.feeFixed : '0',
    }))
    .sort((a, b) => b.daysBeforeStart - a.daysBeforeStart);
}

/** Start minus `days` calendar days in the event's zone (a day across a DST change stays a day). */
export function tierDeadline(startsAt: Date, timeZone: string, days: number): Date {
  let start = DateTime.fromJSDate(startsAt, { zone: timeZone });
  if (!start.isValid) start = DateTime.fromJSDate(startsAt, { zone: 'UTC' });
  return start.minus({ days }).toJSDate();
}

/**
 * The fee and refund of cancelling now. The tier that applies is the one with the largest
 * daysBeforeStart whose deadline has not passed; no tier left: the fee is the total (no refund);
 * no tiers at all: free until the start, the total after it. A fee is feePercent % of the total
 * plus feeFixed, rounded half up to cents, capped at the total.
 */
export function cancellationQuote(
  rawTiers: unknown,
  startsAt: Date | null,
  timeZone: string,
  totalGross: string,
  now = new Date(),
): CancellationQuote {
  const total = new Money(totalGross);
  const tiers = readTiers(rawTiers);
  const view = (t: CancellationTier): TierView => ({
    daysBeforeStart: t.daysBeforeStart,
    feePercent: new Money(t.feePercent).toDecimalPlaces(2, Money.ROUND_HALF_UP).toNumber(),
    feeFixed: new Money(t.feeFixed).toFixed(2),
    deadline: startsAt ? tierDeadline(startsAt, timeZone, t.daysBeforeStart).toISOString() : null,
  });
  const quote = (
    fee: Decimal,
    rule: CancellationQuote['rule'],
    current: TierView | null,
    deadline: string | null,
    next: TierView | null,
  ): CancellationQuote => {
    const capped = Decimal.min(fee.toDecimalPlaces(2, Money.ROUND_HALF_UP), total);
    return {
      fee: capped.toFixed(2),
      refund: total.minus(capped).toFixed(2),
      total: total.toFixed(2),
      currentTier: current,
      deadline,
      nextTier: next,
      rule,
    };
  };
  const started = startsAt !== null && startsAt.getTime() <= now.getTime();
  if (!tiers.length) {
    return started
      ? quote(total, 'noRefund', null, null, null)
      : quote(new Money(0), 'free', null, startsAt?.toISOString() ?? null, null);
  }
  // Without a start no deadline has passed: the first tier applies.
  const open = startsAt
    ? tiers.filter((t) => tierDeadline(startsAt, timeZone, t.daysBeforeStart) > now)
    : tiers;
  if (!open.length) return quote(total, 'noRefund', null, null, null);
  const current = open[0];
  const next = open[1] ?? null;
  const fee = total.times(new Money(current.feePercent)).dividedBy(100).plus(current.feeFixed);
  const cur = view(current);
  return quote(fee, 'tier', cur, cur.deadline, next ? view(next) : null);
}
