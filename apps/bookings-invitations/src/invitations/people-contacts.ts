import { Injectable } from '@nestjs/common';
import { AppException, ErrorCode } from '@crm/errors';
import {
  MessageBus,
  PeopleContactsReply,
  PeopleContactsRequest,
  PersonContact,
  Subjects,
} from '@crm/messaging';

/** Most people one request to crm-people carries (its contract's limit). */
export const CONTACTS_BATCH = 1000;

/**
 * Names, e-mail (of the favorite card) and language of people, asked of crm-people over NATS:
 * no answer in time, or one this service cannot read, is a 503 naming crm-people.
 */
@Injectable()
export class PeopleContacts {
  constructor(private readonly bus: MessageBus) {}

  async lookup(
    tenantId: string,
    personIds: string[],
  ): Promise<{ people: Map<string, PersonContact>; missing: Set<string> }> {
    const people = new Map<string, PersonContact>();
    const missing = new Set<string>();
    const unique = [...new Set(personIds.map((id) => id.toLowerCase()))];
    for (let i = 0; i < unique.length; i += CONTACTS_BATCH) {
      const ask: PeopleContactsRequest = {
        tenantId,
        personIds: unique.slice(i, i + CONTACTS_BATCH),
      };
      const reply = await this.bus.request<PeopleContactsReply>(
        Subjects.crmPeople.peopleContacts,
        ask,
      );
      if (!Array.isArray(reply?.people) || !Array.isArray(reply?.missingPersonIds)) {
        throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable', {
          service: 'crm-people',
        });
      }
      for (const p of reply.people) people.set(p.id.toLowerCase(), p);
      for (const id of reply.missingPersonIds) missing.add(id.toLowerCase());
    }
    return { people, missing };
  }
}
