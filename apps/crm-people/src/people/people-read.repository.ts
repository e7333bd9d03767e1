import { Inject, Injectable } from '@nestjs/common';
import { CursorFieldKind, CursorValue, likePattern, SortField } from '@crm/paging';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { CrmPeopleConfig } from '../config';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import { PersonRecord } from './people.repository';
import { loadPersonRecords } from './person-records.sql';

export type PeopleSortKey =
  'lastname' | 'firstname' | 'dateCreated' | 'dateModified' | 'customerNumber' | 'id';

/** The sort columns' types in prisma/crm-people/schema.prisma: what a cursor holds for each. */
export const PEOPLE_SORT_KINDS: Record<PeopleSortKey, CursorFieldKind> = {
  lastname: { type: 'text', nullable: true },
  firstname: { type: 'text', nullable: true },
  customerNumber: { type: 'text', nullable: true },
  dateCreated: { type: 'timestamp', nullable: false },
  dateModified: { type: 'timestamp', nullable: false },
  id: { type: 'uuid', nullable: false },
};

/**
 * Where a page starts: after `skip` rows (offset paging), or right after the row whose sort key
 * values (one per sort field, the id last) a cursor holds (keyset paging).
 */
export type PageStart = { skip: number } | { after: CursorValue[] };

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
  /** false: `total` is PostgreSQL's estimate (a long unfiltered list, see totalOf). */
  totalExact: boolean;
  /** Whether rows follow the page (it was read with one row more than asked). */
  hasMore: boolean;
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

/** ORDER BY of a page over table alias `t` (qualified, as every column here). */
const sortSql = (sort: SortField<PeopleSortKey>[], t: string) =>
  Prisma.raw(
    sort.map((s) => `${t}."${s.field}" ${s.direction === 'desc' ? 'DESC' : 'ASC'}`).join(', '),
  );

const column = (t: string, field: PeopleSortKey) => Prisma.raw(`${t}."${field}"`);

/** A cursor value as SQL of its column's type. */
function sqlValue(field: PeopleSortKey, v: string): Prisma.Sql {
  const type = PEOPLE_SORT_KINDS[field].type;
  if (type === 'uuid') return Prisma.sql`${v}::uuid`;
  // ISO 8601 in UTC, as Prisma reads and writes timestamp(3) without time zone
  if (type === 'timestamp') return Prisma.sql`${v}::timestamp(3)`;
  return Prisma.sql`${v}`;
}

/**
 * The rows after the cursor row in the order of `sort`, as disjoint conditions over alias `t`
 * whose union is exactly those rows, in PostgreSQL's order: ASC puts NULLs last, DESC first.
 * For each sort field k: equal to the cursor on the fields before k (IS NULL for a NULL), and
 * strictly after it on k: ASC `> v` or, in a second condition, `IS NULL` (nothing comes after a
 * NULL); DESC `< v`, or `IS NOT NULL` after a NULL. The last field is the id (unique, never
 * NULL), so the cursor row itself is in none. Each condition is an equality prefix plus one
 * range: on an index led by "tenantId" and the first sort field, one index descent each.
 */
export function keysetConditions(
  sort: SortField<PeopleSortKey>[],
  values: CursorValue[],
  t: string,
): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  for (let k = 0; k < sort.length; k++) {
    const equalBefore = sort.slice(0, k).map((s, i) => {
      const v = values[i];
      return v === null
        ? Prisma.sql`${column(t, s.field)} IS NULL`
        : Prisma.sql`${column(t, s.field)} = ${sqlValue(s.field, v)}`;
    });
    const { field, direction } = sort[k];
    const col = column(t, field);
    const v = values[k];
    const after: Prisma.Sql[] = [];
    if (direction === 'asc') {
      if (v !== null) {
        after.push(Prisma.sql`${col} > ${sqlValue(field, v)}`);
        if (PEOPLE_SORT_KINDS[field].nullable) after.push(Prisma.sql`${col} IS NULL`);
      }
    } else if (v !== null) after.push(Prisma.sql`${col} < ${sqlValue(field, v)}`);
    else after.push(Prisma.sql`${col} IS NOT NULL`);
    for (const a of after) out.push(Prisma.join([...equalBefore, a], ' AND '));
  }
  return out;
}

/**
 * First sort fields an index led by ("tenantId", field) serves (migrations: lastname, firstname[,
 * id]; lastname, id; dateCreated). A keyset page of such a sort reads each condition of
 * keysetConditions as its own index range (UNION ALL, merged in order); any other sort reads the
 * tenant's rows once with the conditions OR-ed, as an offset page of it does.
 */
const INDEX_LED_SORT_FIELDS: ReadonlySet<PeopleSortKey> = new Set(['lastname', 'dateCreated']);

/**
 * How long a tenant's estimated total is reused: it moves only when ANALYZE (autovacuum) renews
 * the statistics, so asking on every page would cost a round trip for the same number.
 */
const ESTIMATE_TTL_MS = 60_000;

/** The selectivity PostgreSQL gives an equality it has no statistics for (selfuncs.h). */
const DEFAULT_EQ_SEL = 0.005;

interface PageIds {
  /** Exact up to the cap, else cap + 1 (unfiltered) or the exact count (filtered). */
  counted: number;
  ids: string[] | null;
}

/**
 * Reads of people lists and the quicklook. A page is two queries: one finds the ids of the page
 * and the total (from indexes only), one loads those people with their relations (joins, see
 * loadPersonRecords). Loading with joins before LIMIT/OFFSET would join every skipped row too:
 * page 1000 took 50 s that way.
 * A page reads one id more than asked, to know whether another page follows.
 */
@Injectable()
export class PeopleReadRepository {
  /** Longer unfiltered lists report an estimated total (config PEOPLE_LIST_EXACT_TOTAL_MAX). */
  private readonly exactTotalMax: number;
  /** The planner's estimates per tenant, kept for ESTIMATE_TTL_MS. */
  private readonly estimates = new Map<string, { rows: number; until: number }>();

  constructor(
    private readonly prisma: PrismaService,
    @Inject(SERVICE_CONFIG) config: CrmPeopleConfig,
  ) {
    this.exactTotalMax = config.PEOPLE_LIST_EXACT_TOTAL_MAX;
  }

  async page(
    tenantId: string,
    filter: PeopleFilter,
    sort: SortField<PeopleSortKey>[],
    start: PageStart,
    take: number,
  ): Promise<PeoplePageRecords> {
    if ('after' in start && start.after.length !== sort.length)
      throw new Error('a cursor holds one value per sort field');
    const filtered = Boolean(filter.q || filter.email || filter.employeeStatus);
    const row = filtered
      ? await this.filteredIds(tenantId, filter, sort, start, take)
      : await this.allIds(tenantId, sort, start, take);
    const found = row?.ids ?? [];
    const hasMore = found.length > take;
    const ids = found.slice(0, take);
    const { total, totalExact } = filtered
      ? { total: row?.counted ?? 0, totalExact: true }
      : await this.totalOf(tenantId, row?.counted ?? 0, start, found.length, hasMore);
    if (!ids.length) return { records: [], total, totalExact, hasMore };
    const records = await loadPersonRecords(this.prisma, tenantId, ids);
    return { records, total, totalExact, hasMore };
  }

  /**
   * The total of an unfiltered list. count(*) over a tenant of a million people costs 60-90 ms of
   * index-only scan in parallel workers on every page, more than the page itself. So the id query
   * counts at most exactTotalMax + 1 rows (~1 ms); a list longer than that reports PostgreSQL's
   * planner estimate of the tenant's rows (EXPLAIN, ~0.5 ms, from the statistics ANALYZE keeps:
   * 0.1-0.6 % off at 200,000 and 1,000,000 people; reused for a minute), at least what is known
   * to exist, and totalExact false. An offset page that reaches the end knows the total exactly.
   */
  private async totalOf(
    tenantId: string,
    counted: number,
    start: PageStart,
    found: number,
    hasMore: boolean,
  ): Promise<{ total: number; totalExact: boolean }> {
    if (counted <= this.exactTotalMax) return { total: counted, totalExact: true };
    const skip = 'skip' in start ? start.skip : undefined;
    if (skip !== undefined && found > 0 && !hasMore)
      return { total: skip + found, totalExact: true };
    const estimate = await this.estimatedCount(tenantId);
    const known = Math.max(this.exactTotalMax + 1, (skip ?? 0) + found);
    return { total: Math.max(estimate, known), totalExact: false };
  }

  /**
   * The planner's estimate of the rows of Person the request's tenant sees. Row-level security
   * adds its policy to every plan: `"tenantId" = current_setting('app.tenant')`, which the
   * planner estimates as the tenant's share (it reads the setting when it estimates), OR
   * `current_setting('app.all_tenants') = 'on'`, which it cannot and rates at PostgreSQL's
   * default of 0.5 % (DEFAULT_EQ_SEL). A `"tenantId" = $1` of our own would count the share twice
   * (about share² of the table: 11 for 13 of 16 rows, 1.5 % of the count for a tenant with 1 %
   * of a million rows), so the list is estimated unfiltered, as what the policy lets through,
   * and the default's 0.5 % of the table is taken out again.
   */
  private async estimatedCount(tenantId: string): Promise<number> {
    const now = Date.now();
    const known = this.estimates.get(tenantId);
    if (known && known.until > now) return known.rows;
    const [row] = await this.prisma.$queryRaw<{ 'QUERY PLAN': unknown }[]>`
      EXPLAIN (FORMAT JSON) SELECT 1 FROM "Person"`;
    const plan = row?.['QUERY PLAN'];
    const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
      Plan?: { 'Plan Rows'?: number };
    }[];
    const visible = parsed?.[0]?.Plan?.['Plan Rows'] ?? 0;
    // the table's rows as the planner scales them: the statistics' density times its pages now
    const [table] = await this.prisma.$queryRaw<{ rows: number | null }[]>`
      SELECT (reltuples / NULLIF(relpages, 0)
              * (pg_relation_size(oid) / current_setting('block_size')::int))::float8 AS rows
        FROM pg_class WHERE oid = '"Person"'::regclass AND reltuples >= 0`;
    const all = table?.rows ?? 0;
    const rows = Math.max(0, Math.round((visible - all * DEFAULT_EQ_SEL) / (1 - DEFAULT_EQ_SEL)));
    if (this.estimates.size >= 10_000) this.estimates.clear();
    this.estimates.set(tenantId, { rows, until: now + ESTIMATE_TTL_MS });
    return rows;
  }

  /** Ids of a page of all the tenant's people, and their number up to the cap. */
  private async allIds(
    tenantId: string,
    sort: SortField<PeopleSortKey>[],
    start: PageStart,
    take: number,
  ): Promise<PageIds> {
    const counted = Prisma.sql`(SELECT count(*)::int FROM (
      SELECT 1 FROM "Person" WHERE "tenantId" = ${tenantId} LIMIT ${this.exactTotalMax + 1}) c)`;
    const limit = take + 1;
    let ids: Prisma.Sql;
    if ('skip' in start) {
      // ::text after LIMIT/OFFSET: in the select list it would convert every skipped id too
      // (half the time of page 10,000)
      ids = Prisma.sql`ARRAY(SELECT p.id FROM "Person" p WHERE p."tenantId" = ${tenantId}
        ORDER BY ${sortSql(sort, 'p')} LIMIT ${limit} OFFSET ${start.skip})::text[]`;
    } else if (INDEX_LED_SORT_FIELDS.has(sort[0].field)) {
      // One index range per condition, each cut at the page size; Merge Append reads them in
      // order and stops after `limit` rows.
      const columns = Prisma.raw(
        ['id', ...sort.map((s) => s.field).filter((f) => f !== 'id')]
          .map((f) => `p."${f}"`)
          .join(', '),
      );
      const ranges = keysetConditions(sort, start.after, 'p').map(
        (cond) => Prisma.sql`(SELECT ${columns} FROM "Person" p
          WHERE p."tenantId" = ${tenantId} AND ${cond} ORDER BY ${sortSql(sort, 'p')} LIMIT ${limit})`,
      );
      ids = Prisma.sql`ARRAY(SELECT s.id FROM (${Prisma.join(ranges, ' UNION ALL ')}) s
        ORDER BY ${sortSql(sort, 's')} LIMIT ${limit})::text[]`;
    } else {
      ids = Prisma.sql`ARRAY(SELECT p.id FROM "Person" p WHERE p."tenantId" = ${tenantId}
        AND ${this.afterAny(sort, start.after, 'p')} ORDER BY ${sortSql(sort, 'p')} LIMIT ${limit})::text[]`;
    }
    const [row] = await this.prisma.$queryRaw<
      PageIds[]
    >`SELECT ${counted} AS counted, ${ids} AS ids`;
    return row;
  }

  /** keysetConditions OR-ed into one condition. */
  private afterAny(sort: SortField<PeopleSortKey>[], values: CursorValue[], t: string) {
    const conds = keysetConditions(sort, values, t).map((c) => Prisma.sql`(${c})`);
    return Prisma.sql`(${Prisma.join(conds, ' OR ')})`;
  }

  /**
   * The filters use the trigram, e-mail and status indexes; the matches are counted once, exactly
   * (they are all read to be sorted anyway).
   */
  private async filteredIds(
    tenantId: string,
    filter: PeopleFilter,
    sort: SortField<PeopleSortKey>[],
    start: PageStart,
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
    const where =
      'skip' in start ? Prisma.empty : Prisma.sql`WHERE ${this.afterAny(sort, start.after, 'm')}`;
    const offset = 'skip' in start ? Prisma.sql`OFFSET ${start.skip}` : Prisma.empty;
    const [row] = await this.prisma.$queryRaw<PageIds[]>`
      WITH m AS MATERIALIZED (
        SELECT p.id, p."lastname", p."firstname", p."dateCreated", p."dateModified", p."customerNumber"
        FROM "Person" p WHERE ${Prisma.join(conds, ' AND ')}
      )
      SELECT (SELECT count(*)::int FROM m) AS counted,
             ARRAY(SELECT m.id FROM m ${where}
                   ORDER BY ${sortSql(sort, 'm')} LIMIT ${take + 1} ${offset})::text[] AS ids`;
    return row;
  }

  quicklook(tenantId: string, id: string): Promise<QuicklookRecord | null> {
    return this.prisma.person.findFirst({ where: { tenantId, id }, select: QUICKLOOK_SELECT });
  }
}
