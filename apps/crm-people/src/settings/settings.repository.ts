import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { PeopleSettingsList, Prisma } from '../generated/prisma/client';

export type Tx = Prisma.TransactionClient;

const ENTRY_ROW = {
  id: true,
  text: true,
  color: true,
  category: true,
  position: true,
} as const;
export type EntryRow = Prisma.SettingsEntryGetPayload<{ select: typeof ENTRY_ROW }>;

/** How many people (and touchpoints) point at an entry. */
export interface Usage {
  people: number;
  touchpoints: number;
}

/**
 * Serializes the writers of one tenant's settings lists until the transaction ends, so "unique
 * ignoring case" (which the case-sensitive unique index cannot enforce) holds under concurrency.
 * One key per tenant, not per list: a transaction that locks two lists cannot deadlock another.
 */
export async function lockSettings(tx: Tx, tenantId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`people-settings:${tenantId}`}, 0))`;
}

const ORDER: Prisma.SettingsEntryOrderByWithRelationInput[] = [
  { position: 'asc' },
  { dateCreated: 'asc' },
  { id: 'asc' },
];

/** Tenant entries of the people settings lists; every query is scoped to the tenant. */
@Injectable()
export class SettingsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  lockList(tx: Tx, tenantId: string): Promise<void> {
    return lockSettings(tx, tenantId);
  }

  private where(tenantId: string, list: PeopleSettingsList, q?: string) {
    return {
      tenantId,
      list,
      ...(q ? { text: { contains: q, mode: 'insensitive' as const } } : {}),
    } satisfies Prisma.SettingsEntryWhereInput;
  }

  /** One page in list order, and the total. */
  page(
    tenantId: string,
    list: PeopleSettingsList,
    q: string | undefined,
    skip: number,
    take: number,
  ) {
    const where = this.where(tenantId, list, q);
    return this.prisma.$transaction([
      this.prisma.settingsEntry.findMany({ where, select: ENTRY_ROW, orderBy: ORDER, skip, take }),
      this.prisma.settingsEntry.count({ where }),
    ]);
  }

  /** Every matching entry (for sorting by translated text together with the system entries). */
  all(tenantId: string, list: PeopleSettingsList, q: string | undefined): Promise<EntryRow[]> {
    return this.prisma.settingsEntry.findMany({
      where: this.where(tenantId, list, q),
      select: ENTRY_ROW,
      orderBy: ORDER,
    });
  }

  findByIds(tx: Tx, tenantId: string, list: PeopleSettingsList, ids: string[]) {
    return tx.settingsEntry.findMany({
      where: { tenantId, list, id: { in: ids } },
      select: ENTRY_ROW,
    });
  }

  /** Entries whose text equals one of `texts`, ignoring case (compared by PostgreSQL's lower()). */
  findByTexts(
    tx: Tx,
    tenantId: string,
    list: PeopleSettingsList,
    texts: string[],
  ): Promise<{ id: string; text: string }[]> {
    return tx.$queryRaw`
      SELECT "id"::text AS "id", "text" FROM "SettingsEntry"
      WHERE "tenantId" = ${tenantId} AND "list" = ${list}::"PeopleSettingsList"
        AND lower("text") IN (SELECT lower(t) FROM unnest(${texts}::text[]) AS t)`;
  }

  /** Next free position at the end of the tenant's list. */
  async nextPosition(tx: Tx, tenantId: string, list: PeopleSettingsList): Promise<number> {
    const max = await tx.settingsEntry.aggregate({
      where: { tenantId, list },
      _max: { position: true },
    });
    return max._max.position === null ? 0 : max._max.position + 1;
  }

  createMany(
    tx: Tx,
    rows: Omit<Prisma.SettingsEntryCreateManyInput, 'dateCreated'>[],
  ): Promise<EntryRow[]> {
    return tx.settingsEntry.createManyAndReturn({ data: rows, select: ENTRY_ROW });
  }

  update(
    tx: Tx,
    tenantId: string,
    id: string,
    data: Prisma.SettingsEntryUpdateManyMutationInput,
  ): Promise<EntryRow> {
    // the caller found the entry in this tenant within the same transaction
    return tx.settingsEntry.update({ where: { id, tenantId }, data, select: ENTRY_ROW });
  }

  deleteMany(tx: Tx, tenantId: string, list: PeopleSettingsList, ids: string[]) {
    return tx.settingsEntry.deleteMany({ where: { tenantId, list, id: { in: ids } } });
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
