import { Injectable } from '@nestjs/common';
import { likePattern, SortField } from '@crm/paging';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import { PERSON_INCLUDE, PersonRecord } from './people.repository';

export type PeopleSortKey =
  'lastname' | 'firstname' | 'dateCreated' | 'dateModified' | 'customerNumber' | 'id';

/** Filters of the people lists; each one given narrows the list (AND). */
export interface PeopleFilter {
  /** Text search over names, customer number, user e-mail and the cards' business and e-mails. */
  q?: string;
  /** Whole e-mail address, any case: userMail or an e-mail of a card. */
  email?: string;
  employeeStatus?: string;
}

export interface PeoplePageRecords {
  records: PersonRecord[];
  total: number;
}

/** A quicklook: the person's header fields, tags and the favorite (else oldest) card. */
export const QUICKLOOK_SELECT = {
  id: true,
  firstname: true,
  lastname: true,
  profileImage: true,
  lifecycleId: true,
  lifecycleChanged: true,
  tags: {
    orderBy: { position: 'asc' },
    include: { entry: { select: { text: true, category: true } } },
  },
  cards: {
    orderBy: [{ isFavorite: 'desc' }, { dateCreated: 'asc' }, { id: 'asc' }],
    take: 1,
    select: {
      id: true,
      companyId: true,
      business: true,
      emails: true,
      phones: true,
      businessPositions: true,
    },
  },
} satisfies Prisma.PersonSelect;

export type QuicklookRecord = Prisma.PersonGetPayload<{ select: typeof QUICKLOOK_SELECT }>;

/** ORDER BY of a page over table alias `t` (qualified: a bare "id" would name the id::text output). */
const sortSql = (sort: SortField<PeopleSortKey>[], t: string) =>
  Prisma.raw(
    sort.map((s) => `${t}."${s.field}" ${s.direction === 'desc' ? 'DESC' : 'ASC'}`).join(', '),
  );

interface PageIds {
  total: number;
  ids: string[] | null;
}

/**
 * Reads of people lists and the quicklook. A page is two queries: one finds the ids of the page
 * and the total (from indexes only), one loads those people with their relations (joins). Loading
 * with joins before LIMIT/OFFSET would join every skipped row too: page 1000 took 50 s that way.
 */
@Injectable()
export class PeopleReadRepository {
  constructor(private readonly prisma: PrismaService) {}

  async page(
    tenantId: string,
    filter: PeopleFilter,
    sort: SortField<PeopleSortKey>[],
    skip: number,
    take: number,
  ): Promise<PeoplePageRecords> {
    const filtered = Boolean(filter.q || filter.email || filter.employeeStatus);
    const row = filtered
      ? await this.filteredIds(tenantId, filter, sort, skip, take)
      : await this.allIds(tenantId, sort, skip, take);
    const ids = row?.ids ?? [];
    if (!ids.length) return { records: [], total: row?.total ?? 0 };
    const found = await this.prisma.person.findMany({
      where: { tenantId, id: { in: ids } },
      include: PERSON_INCLUDE,
    });
    const byId = new Map(found.map((r) => [r.id, r]));
    return { records: ids.flatMap((id) => byId.get(id) ?? []), total: row.total };
  }

  private async allIds(
    tenantId: string,
    sort: SortField<PeopleSortKey>[],
    skip: number,
    take: number,
  ): Promise<PageIds> {
    const [row] = await this.prisma.$queryRaw<PageIds[]>`
      SELECT (SELECT count(*)::int FROM "Person" WHERE "tenantId" = ${tenantId}) AS total,
             ARRAY(SELECT p.id::text FROM "Person" p WHERE p."tenantId" = ${tenantId}
                   ORDER BY ${sortSql(sort, 'p')} LIMIT ${take} OFFSET ${skip}) AS ids`;
    return row;
  }

  /** The filters use the trigram, e-mail and status indexes; the matches are counted once. */
  private async filteredIds(
    tenantId: string,
    filter: PeopleFilter,
    sort: SortField<PeopleSortKey>[],
    skip: number,
    take: number,
  ): Promise<PageIds> {
    const conds = [Prisma.sql`p."tenantId" = ${tenantId}`];
    if (filter.q) {
      const pattern = likePattern(filter.q);
      // UNION of two index scans; an OR across the tables could use neither index.
      conds.push(Prisma.sql`p.id IN (
        SELECT id FROM "Person" WHERE "tenantId" = ${tenantId}
          AND crm_people_person_search("firstname", "lastname", "customerNumber", "userMail") ILIKE ${pattern}
        UNION
        SELECT "personId" FROM "BusinessCard" WHERE "tenantId" = ${tenantId}
          AND crm_people_card_search("business", "emails") ILIKE ${pattern})`);
    }
    if (filter.email) {
      conds.push(Prisma.sql`p.id IN (
        SELECT id FROM "Person" WHERE "tenantId" = ${tenantId}
          AND lower("userMail") = lower(${filter.email})
        UNION
        SELECT "personId" FROM "BusinessCard" WHERE "tenantId" = ${tenantId}
          AND crm_people_card_mails("emails") @> ARRAY[lower(${filter.email})])`);
    }
    if (filter.employeeStatus) {
      conds.push(Prisma.sql`p."employeeStatus" = ${filter.employeeStatus}`);
    }
    const [row] = await this.prisma.$queryRaw<PageIds[]>`
      WITH m AS MATERIALIZED (
        SELECT p.id, p."lastname", p."firstname", p."dateCreated", p."dateModified", p."customerNumber"
        FROM "Person" p WHERE ${Prisma.join(conds, ' AND ')}
      )
      SELECT (SELECT count(*)::int FROM m) AS total,
             ARRAY(SELECT m.id::text FROM m ORDER BY ${sortSql(sort, 'm')} LIMIT ${take} OFFSET ${skip}) AS ids`;
    return row;
  }

  quicklook(tenantId: string, id: string): Promise<QuicklookRecord | null> {
    return this.prisma.person.findFirst({ where: { tenantId, id }, select: QUICKLOOK_SELECT });
  }
}
