import { AppException, isUuid } from '@crm/errors';

/** A malformed id cannot name a person: same answer as an unknown one (404). */
export function requirePersonId(id: string): void {
  if (!isUuid(id)) throw AppException.notFound('Person', id);
}
