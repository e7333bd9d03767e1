import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppException, FieldProblem, flattenValidationErrors } from '@crm/errors';

/** Most items one batch call may carry (API.md: batch operations). */
export const BATCH_MAX = 1000;

export interface Checked<T> {
  value: T;
  problems: FieldProblem[];
}

const isObject = (v: unknown): v is object =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Validates one body the way the global ValidationPipe does (unknown fields refused), for
 * bodies the pipe cannot see: a union of object and array, array arguments, validate operations.
 * `path` prefixes field names (`[3]` -> `[3].text`).
 */
export function checkObject<T extends object>(
  cls: ClassConstructor<T>,
  raw: unknown,
  path = '',
): Checked<T> {
  if (!isObject(raw)) {
    return {
      value: {} as T,
      problems: [{ field: path || 'body', rule: 'isObject' }],
    };
  }
  // GraphQL hands over objects without a prototype; class-transformer wants plain ones.
  const value = plainToInstance(cls, JSON.parse(JSON.stringify(raw)) as object);
  const errors = validateSync(value, { whitelist: true, forbidNonWhitelisted: true });
  return { value, problems: flattenValidationErrors(errors, path) };
}

/** Validates a list body item by item; the problems name each item by index (`[3].text`). */
export function checkItems<T extends object>(
  cls: ClassConstructor<T>,
  raw: unknown,
  max = BATCH_MAX,
): Checked<T[]> {
  if (!Array.isArray(raw)) return { value: [], problems: [{ field: 'body', rule: 'isArray' }] };
  if (raw.length === 0) {
    return {
      value: [],
      problems: [{ field: 'body', rule: 'arrayMinSize', args: { constraint1: 1 } }],
    };
  }
  if (raw.length > max) {
    return {
      value: [],
      problems: [{ field: 'body', rule: 'arrayMaxSize', args: { constraint1: max } }],
    };
  }
  const checked = raw.map((item, i) => checkObject(cls, item, `[${i}]`));
  return { value: checked.map((c) => c.value), problems: checked.flatMap((c) => c.problems) };
}

/** Throws the 400 listing every problem, if there is one. */
export function orThrow<T>(checked: Checked<T>): T {
  if (checked.problems.length) throw AppException.validation(checked.problems);
  return checked.value;
}
