import type { FieldProblem } from '@crm/errors';

// BK1: a booking's answers are checked against the event's booking form fields (the copy of the
// field set kept in EventCopy.bookingFormFields). Each problem names `answers.<key>`.

export const FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'phone',
  'number',
  'date',
  'select',
  'checkbox',
] as const;

export interface BookingFormField {
  key: string;
  label?: string;
  type: string;
  required?: boolean;
  /** select: the allowed values (strings, or objects with a `value`) */
  options?: unknown[];
}

const TEXT_MAX = { text: 1000, textarea: 10000 } as const;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{2,}$/;
const PHONE = /^\+?[0-9 ()./-]{3,40}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const problem = (key: string, rule: string, args?: Record<string, string | number>) => ({
  field: `answers.${key}`,
  rule,
  args,
  messageKey: `bookings.problems.${rule}`,
});

/** The fields as stored (JSON); entries without a key or type are ignored. */
export function readFormFields(raw: unknown): BookingFormField[] | null {
  if (!Array.isArray(raw)) return null;
  return raw.filter(
    (f): f is BookingFormField =>
      typeof f === 'object' &&
      f !== null &&
      typeof (f as BookingFormField).key === 'string' &&
      typeof (f as BookingFormField).type === 'string',
  );
}

const optionValue = (o: unknown): unknown =>
  typeof o === 'object' && o !== null && 'value' in o ? (o as { value: unknown }).value : o;

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

function validDate(v: string): boolean {
  if (!DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** One answer's problem (null: fine). */
function checkValue(field: BookingFormField, value: unknown): FieldProblem | null {
  const { key, type } = field;
  switch (type) {
    case 'text':
    case 'textarea':
      if (typeof value !== 'string') return problem(key, 'answerType', { type });
      if (value.length > TEXT_MAX[type])
        return problem(key, 'answerTooLong', { max: TEXT_MAX[type] });
      return null;
    case 'email':
      return typeof value === 'string' && value.length <= 320 && EMAIL.test(value)
        ? null
        : problem(key, 'answerType', { type });
    case 'phone':
      return typeof value === 'string' && PHONE.test(value)
        ? null
        : problem(key, 'answerType', { type });
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : problem(key, 'answerType', { type });
    case 'date':
      return typeof value === 'string' && validDate(value)
        ? null
        : problem(key, 'answerType', { type });
    case 'checkbox':
      return typeof value === 'boolean' ? null : problem(key, 'answerType', { type });
    case 'select': {
      const options = (field.options ?? []).map(optionValue);
      if (typeof value !== 'string' && typeof value !== 'number') {
        return problem(key, 'answerOption', { options: options.join(', ') });
      }
      return options.includes(value)
        ? null
        : problem(key, 'answerOption', { options: options.join(', ') });
    }
    default:
      // a field type this service does not know: take any scalar
      return ['string', 'number', 'boolean'].includes(typeof value)
        ? null
        : problem(key, 'answerType', { type });
  }
}

/**
 * The problems of `answers` against the form: a required field present (a required checkbox
 * checked), each value of its field's type, select values within the options, no unknown keys.
 * Without a form (null) the answers must be empty or absent.
 */
export function checkAnswers(rawFields: unknown, answers: unknown): FieldProblem[] {
  const fields = readFormFields(rawFields) ?? [];
  if (answers !== undefined && answers !== null) {
    if (typeof answers !== 'object' || Array.isArray(answers)) {
      return [{ field: 'answers', rule: 'isObject' }];
    }
  }
  const given = (answers ?? {}) as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const known = new Set(fields.map((f) => f.key));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) problems.push(problem(key, 'unknownAnswer'));
  }
  for (const field of fields) {
    const value = Object.prototype.hasOwnProperty.call(given, field.key)
      ? given[field.key]
      : undefined;
    if (isEmpty(value) || (field.type === 'checkbox' && value === false && field.required)) {
      if (field.required) problems.push(problem(field.key, 'answerRequired'));
      continue;
    }
    const p = checkValue(field, value);
    if (p) problems.push(p);
  }
  return problems;
}
