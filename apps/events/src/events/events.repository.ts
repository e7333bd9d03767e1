import { Injectable } from '@nestjs/common';
import { likePattern, SortField } from '@crm/paging';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

export type Db = Tx | PrismaService;

/**
 * What a read of an event loads with it: its tags (with their entries) and its websites (with
 * what the snapshot says of each: the invitation link).
 */
export const EVENT_INCLUDE = {
  tags: {
    select: { entry: { select: { id: true, list: true, text: true, color: true } } },
  },
  websites: {
    select: { websiteId: true, website: { select: { url: true, invitationLinkTemplate: true } } },
  },
} satisfies Prisma.EventInclude;

export type EventRecord = Prisma.EventGetPayload<{ include: typeof EVENT_INCLUDE }>;

export type EventSortKey = 'startsAt' | 'title' | 'dateCreated' | 'id';

/** Filters of the event list; each one given narrows the list (AND). */
export interface EventsFilter {
  from?: Date;
  to?: Date;
  categoryId?: string;
  published?: boolean;
  websiteId?: string;
  /** Substring (any case) of title or subtitle. */
  q?: string;
}

/** ORDER BY over alias `t`; events without a start sort last either way. */
const sortSql = (sort: SortField<EventSortKey>[], t: string) =>
  Prisma.raw(
    sort
      .map(
        (s) =>
          `${t}."${s.field}" ${s.direction === 'desc' ? 'DESC' : 'ASC'}${s.field === 'startsAt' ? ' NULLS LAST' : ''}`,
      )
      .join(', '),
  );

/** Reads and writes of the Event table and its tag and website rows; tenantId in every query. */
@Injectable()
export class EventsRepository {
  constructor(readonly client: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.client.$transaction(fn, { timeout: 30000 });
  }

  /** The tenant's events among `ids` with tags and websites: one query (joins). */
  findByIds(tenantId: string, ids: string[], db: Db = this.client): Promise<EventRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return db.event.findMany({
      where: { tenantId, id: { in: ids } },
      include: EVENT_INCLUDE,
      relationLoadStrategy: 'join',
    });
  }

  /** The ids among `ids` that are events of the tenant: one query. */
  async existing(tenantId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.client.event.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  async findById(tenantId: string, id: string, db: Db = this.client) {
    return (await this.findByIds(tenantId, [id], db))[0] ?? null;
  }

  /**
   * Locks the tenant's events among `ids` until the transaction ends (in id order, so two
   * batches cannot deadlock) and answers the ids found.
   */
  async lock(tx: Tx, tenantId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM "Event"
      WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
      ORDER BY id
      FOR UPDATE`;
    return new Set(rows.map((r) => r.id));
  }

  /**
   * E1: one query for the ids of the page and the total, one for those events with their tags
   * and websites (joins): two queries whatever the page size.
   */
  async page(
    tenantId: string,
    filter: EventsFilter,
    sort: SortField<EventSortKey>[],
    skip: number,
    take: number,
  ): Promise<{ records: EventRecord[]; total: number }> {
    const conds = [Prisma.sql`e."tenantId" = ${tenantId}`];
    // overlap with [from, to): an event without dates overlaps nothing
    if (filter.from) conds.push(Prisma.sql`coalesce(e."endsAt", e."startsAt") >= ${filter.from}`);
    if (filter.to) conds.push(Prisma.sql`e."startsAt" < ${filter.to}`);
    if (filter.categoryId) conds.push(Prisma.sql`e."categoryId" = ${filter.categoryId}::uuid`);
    if (filter.published !== undefined) conds.push(Prisma.sql`e.published = ${filter.published}`);
    if (filter.q) {
      const like = likePattern(filter.q);
      conds.push(Prisma.sql`(e.title ILIKE ${like} OR coalesce(e.subtitle, '') ILIKE ${like})`);
    }
    if (filter.websiteId) {
      conds.push(Prisma.sql`e.id IN (
        SELECT "eventId" FROM "EventWebsite"
        WHERE "tenantId" = ${tenantId} AND "websiteId" = ${filter.websiteId}::uuid)`);
    }
    const [row] = await this.client.$queryRaw<{ total: number; ids: string[] | null }[]>`
      WITH m AS MATERIALIZED (
        SELECT e.id, e.title, e."startsAt", e."dateCreated"
        FROM "Event" e WHERE ${Prisma.join(conds, ' AND ')}
      )
      SELECT (SELECT count(*)::int FROM m) AS total,
             ARRAY(SELECT m.id::text FROM m ORDER BY ${sortSql(sort, 'm')}
                   LIMIT ${take} OFFSET ${skip}) AS ids`;
    const ids = row?.ids ?? [];
    if (!ids.length) return { records: [], total: row?.total ?? 0 };
    const found = await this.findByIds(tenantId, ids);
    const byId = new Map(found.map((r) => [r.id, r]));
    return { records: ids.flatMap((id) => byId.get(id) ?? []), total: row.total };
  }

  create(tx: Tx, data: Prisma.EventUncheckedCreateInput) {
    return tx.event.create({ data, select: { id: true } });
  }

  update(tx: Tx, tenantId: string, id: string, data: Prisma.EventUncheckedUpdateManyInput) {
    return tx.event.updateMany({ where: { tenantId, id }, data });
  }

  /** Replaces the tags (orga and portal tags alike: the entry's list tells them apart). */
  async replaceTags(tx: Tx, tenantId: string, eventId: string, entryIds: string[]) {
    await tx.eventTag.deleteMany({ where: { tenantId, eventId } });
    const unique = [...new Set(entryIds)];
    if (unique.length) {
      await tx.eventTag.createMany({
        data: unique.map((entryId) => ({ tenantId, eventId, entryId })),
      });
    }
  }

  async replaceWebsites(tx: Tx, tenantId: string, eventId: string, websiteIds: string[]) {
    await tx.eventWebsite.deleteMany({ where: { tenantId, eventId } });
    const unique = [...new Set(websiteIds)];
    if (unique.length) {
      await tx.eventWebsite.createMany({
        data: unique.map((websiteId) => ({ tenantId, eventId, websiteId })),
      });
    }
  }

  /** The tenant's websites among `ids`: id -> { url, published }. */
  async websites(tenantId: string, ids: string[], db: Db = this.client) {
    if (!ids.length) return new Map<string, { url: string; published: boolean }>();
    const rows = await db.website.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true, url: true, published: true },
    });
    return new Map(rows.map((r) => [r.id, { url: r.url, published: r.published }]));
  }

  /** Deletes the tenant's events among `ids` (tags, websites, file rows by cascade). */
  async delete(tx: Tx, tenantId: string, ids: string[]): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      DELETE FROM "Event" WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
      RETURNING id::text AS id`;
    return rows.map((r) => r.id);
  }

  /** A contact person template of the tenant, or null. */
  template(tenantId: string, id: string, db: Db = this.client) {
    return db.contactPersonTemplate.findFirst({
      where: { tenantId, id },
      select: {
        id: true,
        salutation: true,
        firstname: true,
        lastname: true,
        position: true,
        email: true,
        phone: true,
      },
    });
  }
}
