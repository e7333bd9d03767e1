import { Injectable, Logger } from '@nestjs/common';
import { FALLBACK_LANGUAGE } from '@crm/i18n';
import {
  CompaniesDeletedEvent,
  ConsumeEvent,
  EventContext,
  PeopleContactsReply,
  PeopleContactsRequest,
  PeopleExistReply,
  PeopleExistRequest,
  Subjects,
} from '@crm/messaging';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { CompanyLinksRepository } from './company-links.repository';
import { TombstonesRepository } from './tombstones.repository';
import type { Tx } from '../database/tx';

/**
 * crm-people's side of the links crm-companies holds: it confirms people and manager roles
 * before crm-companies writes a managed-by relation, and disconnects cards and touchpoints from
 * companies crm-companies has deleted.
 */
@Injectable()
export class CompanyLinksService {
  private readonly logger = new Logger(CompanyLinksService.name);

  constructor(
    private readonly repo: CompanyLinksRepository,
    private readonly settings: SettingsLookupService,
    private readonly tombstones: TombstonesRepository,
  ) {}

  /**
   * Which of the ids are not people of the tenant (in the order asked, each once), and which of
   * the manager roles are not entries of the tenant's manager-roles list (system or own).
   */
  async peopleExist(req: PeopleExistRequest): Promise<PeopleExistReply> {
    const asked = [...new Set(req.personIds.map((id) => id.toLowerCase()))];
    const roles = [
      ...new Set([
        ...(req.managerRoleIds ?? []),
        ...(req.managerRoleId ? [req.managerRoleId] : []),
      ]),
    ];
    const [known, knownRoles] = await Promise.all([
      this.repo.existingPeople(req.tenantId, asked),
      roles.length
        ? this.settings.entries(req.tenantId, 'MANAGER_ROLES', roles, FALLBACK_LANGUAGE)
        : new Map<string, unknown>(),
    ]);
    const reply: PeopleExistReply = { missingPersonIds: asked.filter((id) => !known.has(id)) };
    if (req.managerRoleIds) {
      reply.unknownManagerRoleIds = req.managerRoleIds.filter((id) => !knownRoles.has(id));
    }
    if (req.managerRoleId) reply.managerRoleExists = knownRoles.has(req.managerRoleId);
    return reply;
  }

  /**
   * Contacts of the people asked (bookings-invitations invites them): the names and the first
   * e-mail of the favorite card, else of the first card that has one. Ids that are not people of
   * the tenant are named in missingPersonIds (in the order asked, each once). One query.
   */
  async peopleContacts(req: PeopleContactsRequest): Promise<PeopleContactsReply> {
    const asked = [...new Set(req.personIds.map((id) => id.toLowerCase()))];
    const found = await this.repo.contacts(req.tenantId, asked);
    const byId = new Map(found.map((c) => [c.id, c]));
    return {
      people: asked.flatMap((id) => byId.get(id) ?? []),
      missingPersonIds: asked.filter((id) => !byId.has(id)),
    };
  }

  /**
   * C6, C7 of crm-companies: runs in the transaction that records the event as applied. The
   * companies are locked and tombstoned first: a card or touchpoint write that confirmed one of
   * them over NATS either commits before (and is disconnected here) or finds the tombstone and
   * is refused. One event per transaction: a batch would hold the rows an earlier event
   * disconnected while waiting for the lock of a later one, which a write holding that lock
   * may be waiting for (a deadlock).
   */
  @ConsumeEvent(Subjects.crmCompanies.companiesDeleted, CompaniesDeletedEvent, { maxBatch: 1 })
  async onCompaniesDeleted(event: CompaniesDeletedEvent, { tx }: EventContext<Tx>): Promise<void> {
    await this.tombstones.buryCompanies(tx, event.tenantId, event.companyIds);
    const done = await this.repo.disconnectCompanies(tx, event.tenantId, event.companyIds);
    if (done.cards || done.touchpoints) {
      this.logger.log(
        `companies deleted in ${event.tenantId}: ${done.cards} card(s) disconnected, ` +
          `${done.touchpoints} touchpoint(s) cleared`,
      );
    }
  }
}
