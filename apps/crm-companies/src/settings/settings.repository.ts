import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { CompanySettingsList, Prisma } from '../generated/prisma/client';
import type { CompanySettingsEntry } from './dto/settings-entry.output';
import { lockSettings, Tx } from './settings-lookup.service';
import { ENTRY_ROW, EntryRow, toSettingsEntry } from './settings.mapper';

/** What the records using an entry are: the 409 of S4/S5 counts them in these words. */
export type UsageKind = 'companies' | 'emails' | 'relations';

export const USAGE_KIND: Record<CompanySettingsList, UsageKind> = {
  TAGS: 'companies',
  EMPLOYEE_COUNTS: 'companies',
  CUSTOMER_COUNTS: 'companies',
  LEGAL_FORMS: 'companies',
  REFERENCE_NUMBER_TYPES: 'companies',
  INDUSTRY_SECTORS: 'companies',
  LIFECYCLES: 'companies',
  EMAIL_TYPES: 'emails',
  RELATION_TYPES: 'relations',
};

/** Lists whose entry a company holds in one column of its own. */
const COMPANY_COLUMN = {
  LIFECYCLES: 'lifecycleId',
  LEGAL_FORMS: 'legalFormId',
  INDUSTRY_SECTORS: 'industrySectorId',
  EMPLOYEE_COUNTS: 'employeeCountId',
  CUSTOMER_COUNTS: 'customerCountId',
} as const satisfies Partial<Record<CompanySettingsList, keyof Prisma.CompanyWhereInput>>;

type ColumnList = keyof typeof COMPANY_COLUMN;
const isColumnList = (list: CompanySettingsList): list is ColumnList => list in COMPANY_COLUMN;

const ORDER: Prisma.CompanySettingsEntryOrderByWithRelationInput[] = [
  { position: 'asc' },
  { dateCreated: 'asc' },
  { id: 'asc' },
];

type Counted = { id: string; n: number }[];

/**
 * `referenceNumbers` as an array even if a row holds something else, so jsonb_array_elements
 * never fails on it (the column is written by the companies domain as `[{ typeId, number }]`).
 */
const REFERENCE_NUMBERS = Prisma.sql`(CASE WHEN jsonb_typeof(c."referenceNumbers") = 'array'
  THEN c."referenceNumbers" ELSE '[]'::jsonb END)`;

/** Tenant entries of the company settings lists; every query is scoped to the tenant. */
@Injectable()
export class SettingsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** The lock SettingsLookupService.resolveTags takes too (one per tenant). */
  lockList(tx: Tx, tenantId: string): Promise<void> {
    return lockSettings(tx, tenantId);
  }

  private where(tenantId: string, list: CompanySettingsList, q?: string) {
    return {
      tenantId,
      list,
      ...(q ? { text: { contains: q, mode: 'insensitive' as const } } : {}),
    } satisfies Prisma.CompanySettingsEntryWhereInput;
  }

  /** One page in list order, and the total. */
  async page(
    tenantId: string,
    list: CompanySettingsList,
    q: string | undefined,
    skip: number,
    take: number,
  ): Promise<[CompanySettingsEntry[], number]> {
    const where = this.where(tenantId, list, q);
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.companySettingsEntry.findMany({
        where,
        select: ENTRY_ROW,
        orderBy: ORDER,
        skip,
        take,
      }),
      this.prisma.companySettingsEntry.count({ where }),
    ]);
    return [rows.map(toSettingsEntry), total];
  }

  /** Every matching entry (for sorting by translated text together with the system entries). */
  async all(
    tenantId: string,
    list: CompanySettingsList,
    q: string | undefined,
  ): Promise<CompanySettingsEntry[]> {
    const rows = await this.prisma.companySettingsEntry.findMany({
      where: this.where(tenantId, list, q),
      select: ENTRY_ROW,
      orderBy: ORDER,
    });
    return rows.map(toSettingsEntry);
  }

  async findByIds(
    tx: Tx,
    tenantId: string,
    list: CompanySettingsList,
    ids: string[],
  ): Promise<CompanySettingsEntry[]> {
    const rows = await tx.companySettingsEntry.findMany({
      where: { tenantId, list, id: { in: ids } },
      select: ENTRY_ROW,
    });
    return rows.map(toSettingsEntry);
  }

  /** Entries whose text equals one of `texts`, ignoring case (compared by PostgreSQL's lower()). */
  findByTexts(
    tx: Tx,
    tenantId: string,
    list: CompanySettingsList,
    texts: string[],
  ): Promise<{ id: string; text: string }[]> {
    return tx.$queryRaw`
      SELECT "id"::text AS "id", "text" FROM "CompanySettingsEntry"
      WHERE "tenantId" = ${tenantId} AND "list" = ${list}::"CompanySettingsList"
        AND lower("text") IN (SELECT lower(t) FROM unnest(${texts}::text[]) AS t)`;
  }

  /** Next free position at the end of the tenant's list. */
  async nextPosition(tx: Tx, tenantId: string, list: CompanySettingsList): Promise<number> {
    const max = await tx.companySettingsEntry.aggregate({
      where: { tenantId, list },
      _max: { position: true },
    });
    return max._max.position === null ? 0 : max._max.position + 1;
  }

  async createMany(
    tx: Tx,
    rows: Omit<Prisma.CompanySettingsEntryCreateManyInput, 'dateCreated'>[],
  ): Promise<CompanySettingsEntry[]> {
    const saved = await tx.companySettingsEntry.createManyAndReturn({
      data: rows,
      select: ENTRY_ROW,
    });
    // createManyAndReturn does not promise input order
    const byId = new Map(saved.map((r: EntryRow) => [r.id, r]));
    return rows.map((r) => toSettingsEntry(byId.get(r.id!)!));
  }

  async update(
    tx: Tx,
    tenantId: string,
    id: string,
    data: Prisma.CompanySettingsEntryUpdateManyMutationInput,
  ): Promise<CompanySettingsEntry> {
    // the caller found the entry in this tenant within the same transaction
    const row = await tx.companySettingsEntry.update({
      where: { id, tenantId },
      data,
      select: ENTRY_ROW,
    });
    return toSettingsEntry(row);
  }

  deleteMany(tx: Tx, tenantId: string, list: CompanySettingsList, ids: string[]) {
    return tx.companySettingsEntry.deleteMany({ where: { tenantId, list, id: { in: ids } } });
  }

  /**
   * How many records use each entry (entries nobody uses are absent): companies, e-mail
   * addresses or relations, as USAGE_KIND says. One query per call, whatever the number of ids.
   */
  async usage(
    tx: Tx,
    tenantId: string,
    list: CompanySettingsList,
    ids: string[],
  ): Promise<Map<string, number>> {
    const rows = await this.countUsage(tx, tenantId, list, ids);
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }

  private countUsage(
    tx: Tx,
    tenantId: string,
    list: CompanySettingsList,
    ids: string[],
  ): Promise<Counted> {
    if (isColumnList(list)) {
      const col = Prisma.raw(`"${COMPANY_COLUMN[list]}"`);
      return tx.$queryRaw<Counted>`
        SELECT ${col}::text AS "id", count(*)::int AS "n" FROM "Company"
        WHERE "tenantId" = ${tenantId} AND ${col} = ANY(${ids}::uuid[])
        GROUP BY ${col}`;
    }
    switch (list) {
      case 'TAGS':
        // (companyId, entryId) is the key: one row per company
        return tx.$queryRaw<Counted>`
          SELECT "entryId"::text AS "id", count(*)::int AS "n" FROM "CompanyTag"
          WHERE "tenantId" = ${tenantId} AND "entryId" = ANY(${ids}::uuid[])
          GROUP BY "entryId"`;
      case 'REFERENCE_NUMBER_TYPES':
        return tx.$queryRaw<Counted>`
          SELECT lower(e->>'typeId') AS "id", count(DISTINCT c."id")::int AS "n"
          FROM "Company" c CROSS JOIN LATERAL jsonb_array_elements(${REFERENCE_NUMBERS}) AS e
          WHERE c."tenantId" = ${tenantId} AND c."referenceNumbers" <> '[]'::jsonb
            AND lower(e->>'typeId') = ANY(${ids}::text[])
          GROUP BY 1`;
      case 'EMAIL_TYPES':
        return tx.$queryRaw<Counted>`
          SELECT "emailTypeId"::text AS "id", count(*)::int AS "n" FROM "CompanyEmail"
          WHERE "tenantId" = ${tenantId} AND "emailTypeId" = ANY(${ids}::uuid[])
          GROUP BY "emailTypeId"`;
      case 'RELATION_TYPES':
        return tx.$queryRaw<Counted>`
          SELECT "relationTypeId"::text AS "id", count(*)::int AS "n" FROM "CompanyRelation"
          WHERE "tenantId" = ${tenantId} AND "relationTypeId" = ANY(${ids}::uuid[])
          GROUP BY "relationTypeId"`;
    }
  }

  /**
   * Removes every reference to the entries (S4/S5 with force=true), one statement per list:
   * tags come off the companies, columns become null (the life cycle history keeps the id),
   * reference numbers of those types are dropped, e-mail addresses lose the type, relations of
   * those types are deleted.
   */
  async removeReferences(
    tx: Tx,
    tenantId: string,
    list: CompanySettingsList,
    ids: string[],
  ): Promise<void> {
    if (isColumnList(list)) {
      const col = COMPANY_COLUMN[list];
      await tx.company.updateMany({
        where: { tenantId, [col]: { in: ids } } as Prisma.CompanyWhereInput,
        data: {
          [col]: null,
          ...(list === 'LIFECYCLES' ? { lifecycleChanged: new Date() } : {}),
        } as Prisma.CompanyUpdateManyMutationInput,
      });
      return;
    }
    switch (list) {
      case 'TAGS':
        await tx.companyTag.deleteMany({ where: { tenantId, entryId: { in: ids } } });
        return;
      case 'REFERENCE_NUMBER_TYPES':
        // keeps the other reference numbers in their order; dateModified as Prisma writes it (UTC)
        await tx.$executeRaw`
          UPDATE "Company" c SET
            "referenceNumbers" = COALESCE((
              SELECT jsonb_agg(x.e ORDER BY x.i)
              FROM jsonb_array_elements(c."referenceNumbers") WITH ORDINALITY AS x(e, i)
              WHERE COALESCE(lower(x.e->>'typeId'), '') <> ALL(${ids}::text[])), '[]'::jsonb),
            "dateModified" = (now() AT TIME ZONE 'UTC')
          WHERE c."tenantId" = ${tenantId} AND EXISTS (
            SELECT 1 FROM jsonb_array_elements(${REFERENCE_NUMBERS}) AS e
            WHERE lower(e->>'typeId') = ANY(${ids}::text[]))`;
        return;
      case 'EMAIL_TYPES':
        await tx.companyEmail.updateMany({
          where: { tenantId, emailTypeId: { in: ids } },
          data: { emailTypeId: null },
        });
        return;
      case 'RELATION_TYPES':
        await tx.companyRelation.deleteMany({ where: { tenantId, relationTypeId: { in: ids } } });
        return;
    }
  }
}
