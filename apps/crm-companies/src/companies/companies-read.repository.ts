import { Injectable } from '@nestjs/common';
import { likePattern, SortField } from '@crm/paging';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import { COMPANY_INCLUDE, CompanyRecord } from './companies.repository';

export type CompanySortKey = 'name' | 'dateCreated' | 'dateModified' | 'customerNumber' | 'id';

/** Filters of the company list; each one given narrows the list (AND). */
export interface CompaniesFilter {
  /** Substring (any case) of name, name addition, customer number or website domain. */
  q?: string;
  tagId?: string;
  lifecycleId?: string;
}

export interface CompaniesPageRecords {
  records: CompanyRecord[];
  total: number;
}

/**
 * The search text of a company over table alias `t`: exactly the expression of the trigram
 * index "Company_search_idx" (migration init), or PostgreSQL would not use the index.
 */
const searchText = (t: string) =>
  Prisma.raw(
    `lower(coalesce(${t}."name", '') || ' ' || coalesce(${t}."nameAddition", '') || ' ' || coalesce(${t}."customerNumber", '') || ' ' || coalesce(${t}."websiteDomain", ''))`,
  );

/** ORDER BY of a page over table alias `t` (qualified: a bare "id" would name the id::text output). */
const sortSql = (sort: SortField<CompanySortKey>[], t: string) =>
  Prisma.raw(
    sort.map((s) => `${t}."${s.field}" ${s.direction === 'desc' ? 'DESC' : 'ASC'}`).join(', '),
  );

interface PageIds {
  total: number;
  ids: string[] | null;
}

/**
 * Reads of the company list (C1) and by domain (C3). A page is two queries: one finds the ids
 * of the page and the total (from indexes), one loads those companies with their relations
 * (joins). Loading with joins before LIMIT/OFFSET would join every skipped row too.
 */
@Injectable()
export class CompaniesReadRepository {
  constructor(private readonly prisma: PrismaService) {}

  async page(
    tenantId: string,
    filter: CompaniesFilter,
    sort: SortField<CompanySortKey>[],
    skip: number,
    take: number,
  ): Promise<CompaniesPageRecords> {
    const conds = [Prisma.sql`c."tenantId" = ${tenantId}`];
    if (filter.q) conds.push(Prisma.sql`${searchText('c')} ILIKE ${likePattern(filter.q)}`);
    if (filter.lifecycleId) conds.push(Prisma.sql`c."lifecycleId" = ${filter.lifecycleId}::uuid`);
    if (filter.tagId) {
      conds.push(Prisma.sql`c.id IN (
        SELECT "companyId" FROM "CompanyTag"
        WHERE "tenantId" = ${tenantId} AND "entryId" = ${filter.tagId}::uuid)`);
    }
    const [row] = await this.prisma.$queryRaw<PageIds[]>`
      WITH m AS MATERIALIZED (
        SELECT c.id, c."name", c."dateCreated", c."dateModified", c."customerNumber"
        FROM "Company" c WHERE ${Prisma.join(conds, ' AND ')}
      )
      SELECT (SELECT count(*)::int FROM m) AS total,
             ARRAY(SELECT m.id::text FROM m ORDER BY ${sortSql(sort, 'm')}
                   LIMIT ${take} OFFSET ${skip}) AS ids`;
    const ids = row?.ids ?? [];
    if (!ids.length) return { records: [], total: row?.total ?? 0 };
    const found = await this.prisma.company.findMany({
      where: { tenantId, id: { in: ids } },
      include: COMPANY_INCLUDE,
      relationLoadStrategy: 'join',
    });
    const byId = new Map(found.map((r) => [r.id, r]));
    return { records: ids.flatMap((id) => byId.get(id) ?? []), total: row.total };
  }

  /**
   * C3: the company whose website domain or one of whose e-mail domains is `domain`; a website
   * match before an e-mail match, then the oldest. Both sides use their (tenantId, domain) index.
   */
  async idByDomain(tenantId: string, domain: string): Promise<string | null> {
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      WITH m AS (
        SELECT id, 0 AS rank FROM "Company"
        WHERE "tenantId" = ${tenantId} AND "websiteDomain" = ${domain}
        UNION ALL
        SELECT "companyId", 1 FROM "CompanyEmail"
        WHERE "tenantId" = ${tenantId} AND "domain" = ${domain}
      )
      SELECT c.id::text AS id FROM m JOIN "Company" c ON c.id = m.id
      ORDER BY m.rank, c."dateCreated", c.id
      LIMIT 1`;
    return rows[0]?.id ?? null;
  }
}
