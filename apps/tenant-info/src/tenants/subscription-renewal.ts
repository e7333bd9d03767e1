/** Months per billing period; other values have no computable renewal. */
export const BILLING_PERIOD_MONTHS: Record<string, number> = { monthly: 1, yearly: 12 };

/** Adds calendar months in UTC; the day is clamped to the month's end (Jan 31 + 1 = Feb 28/29). */
export function addMonthsUtc(date: Date, months: number): Date {
  const total = date.getUTCMonth() + months;
  const year = date.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
}

/**
 * The first period boundary after `now`, counted from `start` (start + k periods, k >= 1) so the
 * renewal day never drifts after a short month.
 */
export function nextRenewal(start: Date, billingPeriod: string, now: Date): Date | null {
  const months = BILLING_PERIOD_MONTHS[billingPeriod];
  if (!months) return null;
  const elapsed =
    (now.getUTCFullYear() - start.getUTCFullYear()) * 12 + now.getUTCMonth() - start.getUTCMonth();
  // Jump close to now, then step: at most two steps whatever the age of the subscription.
  let k = Math.max(1, Math.floor(elapsed / months));
  let at = addMonthsUtc(start, k * months);
  while (at.getTime() <= now.getTime()) at = addMonthsUtc(start, ++k * months);
  return at;
}

export interface RenewalFacts {
  status: string;
  billingPeriod: string;
  startDate: Date;
  endDate: Date | null;
  renewsAt: Date | null;
}

/**
 * When the subscription renews: never once it is cancelled or has an end date; a stored date
 * (set by billing) while it lies ahead; otherwise the next period boundary from the start. Derived
 * at read time, so no job has to move the date forward every period.
 */
export function renewalDate(s: RenewalFacts, now: Date): Date | null {
  if (s.status === 'CANCELLED' || s.endDate) return null;
  if (s.renewsAt && s.renewsAt.getTime() > now.getTime()) return s.renewsAt;
  return nextRenewal(s.startDate, s.billingPeriod, now);
}
