import { Injectable } from '@nestjs/common';
import type { MessageArgs } from '@crm/errors';
import { SettingsReferences, SettingsStore } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import { CompanySettingsList, Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** A client or transaction of this service, as the settings engine runs its queries on. */
export type Db = Tx | PrismaService;

/** The table of the company settings lists, for the engine. */
export function companySettingsStore(
  prisma: PrismaService,
): SettingsStore<CompanySettingsList, Db> {
  return {
    client: prisma,
    transaction: (fn) => prisma.$transaction(fn),
    table: (db) => db.companySettingsEntry,
    sql: { table: 'CompanySettingsEntry', listEnum: 'CompanySettingsList' },
  };
}

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

type Counted = { id: string; n: number }[];

/**
 * `referenceNumbers` as an array even if a row holds something else, so jsonb_array_elements
 * never fails on it (the column is written by the companies domain as `[{ typeId, number }]`).
 */
const REFERENCE_NUMBERS = Prisma.sql`(CASE WHEN jsonb_typeof(c."referenceNumbers") = 'array'
  THEN c."referenceNumbers" ELSE '[]'::jsonb END)`;

/**
 * What uses the entries of the company settings lists, for the engine's S4/S5: companies (tags
 * and their own columns, reference numbers), e-mail addresses and company relations. Every query
 * is scoped to the tenant.
 */
@Injectable()
export class SettingsRepository implements SettingsReferences<CompanySettingsList, Db, number> {
  /** "used by N companies" (e-mail addresses, company relations), as USAGE_KIND says. */
  usageMessage(
    list: CompanySettingsList,
    count: number,
  ): { messageKey: string; args: MessageArgs } {
    return { messageKey: `settings.entry.usage.${USAGE_KIND[list]}`, args: { count } };
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
