import { AppException } from '@crm/errors';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);

/** A malformed id cannot name a person: same answer as an unknown one (404). */
export function requirePersonId(id: string): void {
  if (!isUuid(id)) throw AppException.notFound('Person', id);
}

/** `[3]` + `firstname` -> `[3].firstname`; `` + `firstname` -> `firstname`. */
export function fieldPath(prefix: string, field: string): string {
  if (!prefix) return field;
  return field.startsWith('[') ? `${prefix}${field}` : `${prefix}.${field}`;
}
