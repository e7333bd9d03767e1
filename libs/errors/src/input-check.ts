import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppException, FieldProblem } from './app.exception';
import { flattenValidationErrors } from './validation';

/** Most items one batch call may carry (API.md: batch operations). */
export const BATCH_MAX = 1000;

export interface Checked<T> {
  value: T;
  problems: FieldProblem[];
}

const PROTO_KEYS = new Set(['__proto__', 'prototype', 'constructor']);
const withoutProtoKeys = (key: string, v: unknown) => (PROTO_KEYS.has(key) ? undefined : v);

const isPlainObject = (v: unknown): v is object =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Validates one body as the global ValidationPipe does (unknown fields refused), for inputs the
 * pipe does not see: list bodies, a union of object and array, GraphQL list arguments and the
 * validate operations. `prefix` names the item (`[3]` -> `[3].firstname`).
 */
export function checkObject<T extends object>(
  cls: ClassConstructor<T>,
  raw: unknown,
  prefix = '',
): Checked<T> {
  if (!isPlainObject(raw)) {
    return { value: {} as T, problems: [{ field: prefix || 'body', rule: 'isObject' }] };
  }
  // GraphQL hands over objects without a prototype: a JSON round trip makes them plain. It also
  // drops the keys the global ValidationPipe strips (stripProtoKeys): a `constructor` own key of
  // a nested object sends class-transformer after a class that is not there (a TypeError, 500).
  const value = plainToInstance(cls, JSON.parse(JSON.stringify(raw), withoutProtoKeys) as object);
  const errors = validateSync(value, { whitelist: true, forbidNonWhitelisted: true });
  return { value, problems: flattenValidationErrors(errors, prefix) };
}

/**
 * Checks the size of a list body (min..max): `field` names the list (`body` for a bare array).
 * An empty result means the list may be checked item by item.
 */
export function listProblems(
  raw: unknown,
  field = 'body',
  max = BATCH_MAX,
  min = 1,
): FieldProblem[] {
  if (!Array.isArray(raw)) return [{ field, rule: 'isArray' }];
  if (raw.length < min) return [{ field, rule: 'arrayMinSize', args: { constraint1: min } }];
  if (raw.length > max) return [{ field, rule: 'arrayMaxSize', args: { constraint1: max } }];
  return [];
}

/** Validates a list body item by item; problems name each item by index (`[3].firstname`). */
export function checkItems<T extends object>(
  cls: ClassConstructor<T>,
  raw: unknown,
  max = BATCH_MAX,
  min = 1,
): Checked<T[]> {
  const sizeProblems = listProblems(raw, 'body', max, min);
  if (sizeProblems.length) return { value: [], problems: sizeProblems };
  const checked = (raw as unknown[]).map((item, i) => checkObject(cls, item, `[${i}]`));
  return { value: checked.map((c) => c.value), problems: checked.flatMap((c) => c.problems) };
}

/** Throws the 400 listing every problem, if there is one. */
export function throwIfProblems(problems: FieldProblem[]): void {
  if (problems.length) throw AppException.validation(problems);
}

/** The checked value, or the 400 listing every problem. */
export function orThrow<T>(checked: Checked<T>): T {
  throwIfProblems(checked.problems);
  return checked.value;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any 8-4-4-4-12 hex id (ids here are UUIDs v4 and v7; the version is not checked). */
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_PATTERN.test(v);

/** `[3]` + `name` -> `[3].name`; `` + `name` -> `name`; `[3]` + `[0].id` -> `[3][0].id`. */
export function fieldPath(prefix: string, field: string): string {
  if (!prefix) return field;
  return field.startsWith('[') ? `${prefix}${field}` : `${prefix}.${field}`;
}
