import { Injectable } from '@nestjs/common';
import type { MessageArgs } from '@crm/errors';
import { SettingsReferences, SettingsStore } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import { PeopleSettingsList } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** A client or transaction of this service, as the settings engine runs its queries on. */
export type Db = Tx | PrismaService;

/** How many people (and touchpoints) point at an entry. */
export interface Usage {
  people: number;
  touchpoints: number;
}

/** The table of the people settings lists, for the engine. */
export function peopleSettingsStore(prisma: PrismaService): SettingsStore<PeopleSettingsList, Db> {
  return {
    client: prisma,
    transaction: (fn) => prisma.$transaction(fn),
    table: (db) => db.settingsEntry,
    sql: { table: 'SettingsEntry', listEnum: 'PeopleSettingsList' },
  };
}

/**
 * What uses the entries of the people settings lists, for the engine's S4/S5: people's tags,
 * lifecycles, address types of business card addresses and company relation types of business
 * cards (and touchpoints' orga tags). Every query is scoped to the tenant.
 */
@Injectable()
export class SettingsRepository implements SettingsReferences<PeopleSettingsList, Db, Usage> {
  /** "used by N people" (and touchpoints where they count). */
  usageMessage(_list: PeopleSettingsList, u: Usage): { messageKey: string; args: MessageArgs } {
    return {
      messageKey: u.touchpoints ? 'settings.entry.usageWithTouchpoints' : 'settings.entry.usage',
      args: { people: u.people, touchpoints: u.touchpoints },
    };
  }

  /** Who uses the entries, per entry id (entries nobody uses are absent). */
  async usage(
    tx: Tx,
    tenantId: string,
    list: PeopleSettingsList,
    ids: string[],
  ): Promise<Map<string, Usage>> {
    const out = new Map<string, Usage>();
    const add = (rows: { id: string; n: number }[], key: keyof Usage) => {
      for (const r of rows) {
        const u = out.get(r.id) ?? { people: 0, touchpoints: 0 };
        u[key] += Number(r.n);
        out.set(r.id, u);
      }
    };
    switch (list) {
      case 'ORGA_TAGS':
        add(await this.countTouchpointTags(tx, tenantId, ids), 'touchpoints');
        add(await this.countPersonTags(tx, tenantId, ids), 'people');
        break;
      case 'PERSONALITY_TAGS':
        add(await this.countPersonTags(tx, tenantId, ids), 'people');
        break;
      case 'LIFECYCLES':
        add(
          await tx.$queryRaw`
            SELECT "lifecycleId"::text AS "id", count(*)::int AS "n" FROM "Person"
            WHERE "tenantId" = ${tenantId} AND "lifecycleId" = ANY(${ids}::uuid[])
            GROUP BY "lifecycleId"`,
          'people',
        );
        break;
      case 'ADDRESS_TYPES':
        add(
          await tx.$queryRaw`
            SELECT t."id"::text AS "id", count(DISTINCT c."personId")::int AS "n"
            FROM "CardAddress" a
            JOIN "BusinessCard" c ON c."id" = a."cardId" AND c."tenantId" = a."tenantId"
            CROSS JOIN LATERAL unnest(a."addressTypeIds") AS t("id")
            WHERE a."tenantId" = ${tenantId} AND a."addressTypeIds" && ${ids}::uuid[]
              AND t."id" = ANY(${ids}::uuid[])
            GROUP BY t."id"`,
          'people',
        );
        break;
      case 'COMPANY_RELATION_TYPES':
        add(
          await tx.$queryRaw`
            SELECT "companyRelationTypeId"::text AS "id", count(DISTINCT "personId")::int AS "n"
            FROM "BusinessCard"
            WHERE "tenantId" = ${tenantId} AND "companyRelationTypeId" = ANY(${ids}::uuid[])
            GROUP BY "companyRelationTypeId"`,
          'people',
        );
        break;
      default:
        // property entries and manager roles are not referenced by this service's tables
        break;
    }
    return out;
  }

  private countPersonTags(tx: Tx, tenantId: string, ids: string[]) {
    return tx.$queryRaw<{ id: string; n: number }[]>`
      SELECT "entryId"::text AS "id", count(DISTINCT "personId")::int AS "n" FROM "PersonTag"
      WHERE "tenantId" = ${tenantId} AND "entryId" = ANY(${ids}::uuid[])
      GROUP BY "entryId"`;
  }

  private countTouchpointTags(tx: Tx, tenantId: string, ids: string[]) {
    return tx.$queryRaw<{ id: string; n: number }[]>`
      SELECT "entryId"::text AS "id", count(*)::int AS "n" FROM "TouchpointTag"
      WHERE "tenantId" = ${tenantId} AND "entryId" = ANY(${ids}::uuid[])
      GROUP BY "entryId"`;
  }

  /** Removes every reference to the entries (S4/S5 with force=true); history stays. */
  async removeReferences(
    tx: Tx,
    tenantId: string,
    list: PeopleSettingsList,
    ids: string[],
  ): Promise<void> {
    switch (list) {
      case 'ORGA_TAGS':
        await tx.touchpointTag.deleteMany({ where: { tenantId, entryId: { in: ids } } });
        await tx.personTag.deleteMany({ where: { tenantId, entryId: { in: ids } } });
        break;
      case 'PERSONALITY_TAGS':
        await tx.personTag.deleteMany({ where: { tenantId, entryId: { in: ids } } });
        break;
      case 'LIFECYCLES':
        // LifecycleHistory keeps the id: the history shows it without text, as it happened
        await tx.person.updateMany({
          where: { tenantId, lifecycleId: { in: ids } },
          data: { lifecycleId: null, lifecycleChanged: new Date() },
        });
        break;
      case 'ADDRESS_TYPES':
        await tx.$executeRaw`
          UPDATE "CardAddress"
          SET "addressTypeIds" = ARRAY(
            SELECT t FROM unnest("addressTypeIds") WITH ORDINALITY AS u(t, i)
            WHERE t <> ALL(${ids}::uuid[]) ORDER BY i)
          WHERE "tenantId" = ${tenantId} AND "addressTypeIds" && ${ids}::uuid[]`;
        break;
      case 'COMPANY_RELATION_TYPES':
        await tx.businessCard.updateMany({
          where: { tenantId, companyRelationTypeId: { in: ids } },
          data: { companyRelationTypeId: null },
        });
        break;
      default:
        break;
    }
  }
}
