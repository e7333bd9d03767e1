import { AppException, isUuid } from '@crm/errors';

/** A malformed id cannot name a person: same answer as an unknown one (404). */
export function requirePersonId(id: string): void {
  if (!isUuid(id)) throw AppException.notFound('Person', id);
}

/** `[3]` + `firstname` -> `[3].firstname`; `` + `firstname` -> `firstname`. */
export function fieldPath(prefix: string, field: string): string {
  if (!prefix) return field;
  return field.startsWith('[') ? `${prefix}${field}` : `${prefix}.${field}`;
}
