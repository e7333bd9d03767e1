import { checkObject, type FieldProblem } from '@crm/errors';
import type { EventSettingsList } from '../../generated/prisma/client';
import {
  BookingFormFieldSetData,
  CancellationConditionData,
  type CancellationTier,
} from './entry-data.input';

/** Message keys of the data rules class-validator cannot say (settings.problems.<rule>). */
const PROBLEMS = 'settings.problems';

const problem = (field: string, rule: string, args: Record<string, string | number> = {}) => ({
  field,
  rule,
  args,
  messageKey: `${PROBLEMS}.${rule}`,
});

const at = (path: string, field: string) => (path ? `${path}.${field}` : field);

function bookingFormProblems(raw: unknown, prefix: string): FieldProblem[] {
  const checked = checkObject(BookingFormFieldSetData, raw, prefix);
  if (checked.problems.length) return checked.problems;
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  checked.value.fields.forEach((f, i) => {
    const field = `${prefix}.fields[${i}]`;
    if (seen.has(f.key)) problems.push(problem(`${field}.key`, 'keyTaken', { key: f.key }));
    seen.add(f.key);
    if (f.type === 'select' && f.options === undefined)
      problems.push(problem(`${field}.options`, 'optionsRequired'));
    if (f.type !== 'select' && f.options !== undefined)
      problems.push(problem(`${field}.options`, 'optionsNotForType', { type: f.type }));
  });
  return problems;
}

function cancellationProblems(raw: unknown, prefix: string): FieldProblem[] {
  const checked = checkObject(CancellationConditionData, raw, prefix);
  if (checked.problems.length) return checked.problems;
  const problems: FieldProblem[] = [];
  const seen = new Set<number>();
  checked.value.tiers.forEach((t, i) => {
    const field = `${prefix}.tiers[${i}]`;
    if (!hasTwoDecimals(t.feePercent))
      problems.push(problem(`${field}.feePercent`, 'decimals', { max: 2 }));
    if (seen.has(t.daysBeforeStart))
      problems.push(problem(`${field}.daysBeforeStart`, 'daysTaken', { days: t.daysBeforeStart }));
    seen.add(t.daysBeforeStart);
  });
  return problems;
}

/** At most two decimals as written (12.34 yes, 12.345 no), whatever binary floating point does. */
function hasTwoDecimals(n: number): boolean {
  return /^-?\d+(?:\.\d{1,2})?$/.test(String(n));
}

/**
 * The problems of an entry's `data` for its list (`path` names the item of S2, `[2]`): lists with
 * data (booking-form-field-sets, cancellation-conditions) require it on create; the other lists
 * refuse it. Absent on update: stays as it is.
 */
export function entryDataProblems(
  list: EventSettingsList,
  data: unknown,
  path: string,
  create: boolean,
  listName: string,
): FieldProblem[] {
  const field = at(path, 'data');
  if (list === 'BOOKING_FORM_FIELD_SETS' || list === 'CANCELLATION_CONDITIONS') {
    if (data === undefined) return create ? [{ field, rule: 'isDefined' }] : [];
    if (data === null) return [{ field, rule: 'isDefined' }];
    return list === 'BOOKING_FORM_FIELD_SETS'
      ? bookingFormProblems(data, field)
      : cancellationProblems(data, field);
  }
  return data === undefined ? [] : [problem(field, 'notForList', { list: listName })];
}

/**
 * The tier of a cancellation condition that applies to a cancellation `daysBeforeStart` days
 * before the event starts. A tier means "until N days before the start, this fee applies": the
 * tiers with N <= daysBeforeStart are still reachable, and the one with the largest N wins.
 * Null when none is reachable any more (cancelled later than the last tier allows).
 */
export function cancellationTierAt(
  tiers: readonly CancellationTier[],
  daysBeforeStart: number,
): CancellationTier | null {
  let best: CancellationTier | null = null;
  for (const t of tiers)
    if (t.daysBeforeStart <= daysBeforeStart && (!best || t.daysBeforeStart > best.daysBeforeStart))
      best = t;
  return best;
}
