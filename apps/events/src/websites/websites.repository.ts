import { Injectable } from '@nestjs/common';
import { acrossTenants } from '@crm/request-context';
import { PrismaService } from '../database/prisma.service';
import type { Prisma, Website as WebsiteRow } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

export const WEBSITE_SORT_FIELDS = ['name', 'dateCreated', 'dateModified', 'url', 'id'] as const;
export type WebsiteSortField = (typeof WEBSITE_SORT_FIELDS)[number];

/** Website rows; every query is scoped to the tenant (urlKey is unique across all tenants). */
@Injectable()
export class WebsitesRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  async page(
    tenantId: string,
    opts: {
      skip: number;
      take: number;
      orderBy: Prisma.WebsiteOrderByWithRelationInput[];
      q?: string;
      published?: boolean;
    },
  ): Promise<[WebsiteRow[], number]> {
    const where: Prisma.WebsiteWhereInput = {
      tenantId,
      ...(opts.published === undefined ? {} : { published: opts.published }),
      ...(opts.q
        ? {
            OR: [
              { name: { contains: opts.q, mode: 'insensitive' } },
              { url: { contains: opts.q, mode: 'insensitive' } },
              { description: { contains: opts.q, mode: 'insensitive' } },
            ],
          }
        : {}),
    };
    return this.prisma.$transaction([
      this.prisma.website.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
      }),
      this.prisma.website.count({ where }),
    ]);
  }

  find(tenantId: string, id: string, db: Tx = this.prisma): Promise<WebsiteRow | null> {
    return db.website.findFirst({ where: { tenantId, id } });
  }

  findMany(tenantId: string, ids: string[]): Promise<WebsiteRow[]> {
    return this.prisma.website.findMany({ where: { tenantId, id: { in: ids } } });
  }

  /** Locks the tenant's websites among `ids` (in id order: no deadlock); answers the ids found. */
  async lock(tx: Tx, tenantId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id"::text AS id FROM "Website"
      WHERE "tenantId" = ${tenantId} AND "id" = ANY(${ids}::uuid[])
      ORDER BY "id" FOR UPDATE`;
    return new Set(rows.map((r) => r.id));
  }

  /** Whether another website (of any tenant) has this urlKey. */
  async urlKeyTaken(urlKey: string, exceptId?: string): Promise<boolean> {
    // urlKey is unique over every tenant: only the id of the holder is read, nothing of its tenant
    const row = await acrossTenants(
      'website urlKey is unique across tenants',
      async () => await this.prisma.website.findUnique({ where: { urlKey }, select: { id: true } }),
    );
    return !!row && row.id !== exceptId;
  }

  create(
    tx: Tx,
    tenantId: string,
    data: Omit<Prisma.WebsiteUncheckedCreateInput, 'tenantId'>,
  ): Promise<WebsiteRow> {
    return tx.website.create({ data: { ...data, tenantId } });
  }

  update(tx: Tx, id: string, data: Prisma.WebsiteUncheckedUpdateInput): Promise<WebsiteRow> {
    // Called with the row locked and found in the tenant: the id alone names it.
    return tx.website.update({ where: { id }, data });
  }

  async deleteMany(tx: Tx, tenantId: string, ids: string[]): Promise<void> {
    await tx.website.deleteMany({ where: { tenantId, id: { in: ids } } });
  }

  /** The ids of images of the website among `ids` (config.logoImageId must be one). */
  async imageExists(tenantId: string, websiteId: string, imageId: string): Promise<boolean> {
    const n = await this.prisma.websiteImage.count({ where: { tenantId, websiteId, id: imageId } });
    return n > 0;
  }

  /**
   * The tenant's events on any of `websiteIds` (or among `eventIds`) get a new sequence: what
   * other services keep of them (the websites' invitation links) changed and is announced again
   * in this transaction (EventsChangedNotifier). Answers their ids.
   */
  async touchEvents(
    tx: Tx,
    tenantId: string,
    of: { websiteIds?: string[]; eventIds?: string[] },
  ): Promise<string[]> {
    const websiteIds = of.websiteIds ?? [];
    const eventIds = of.eventIds ?? [];
    if (!websiteIds.length && !eventIds.length) return [];
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Event" e SET "sequence" = e."sequence" + 1,
             "dateModified" = (now() AT TIME ZONE 'UTC')
       WHERE e."tenantId" = ${tenantId}
         AND (e."id" = ANY(${eventIds}::uuid[])
              OR EXISTS (SELECT 1 FROM "EventWebsite" ew
                          WHERE ew."eventId" = e."id" AND ew."websiteId" = ANY(${websiteIds}::uuid[])))
      RETURNING e."id"::text AS "id"`;
    return rows.map((r) => r.id);
  }

  /**
   * W11: every event of `from` moves to `to` (call with both locked). An event already on both
   * keeps its one row on `to`. Answers the events moved and how many were on `to` already.
   */
  async moveEvents(
    tx: Tx,
    tenantId: string,
    from: string,
    to: string,
  ): Promise<{ eventIds: string[]; alreadyOnTarget: number }> {
    const rows = await tx.$queryRaw<{ eventId: string; onTarget: boolean }[]>`
      SELECT ew."eventId"::text AS "eventId",
             EXISTS (SELECT 1 FROM "EventWebsite" t
                     WHERE t."eventId" = ew."eventId" AND t."websiteId" = ${to}::uuid) AS "onTarget"
      FROM "EventWebsite" ew
      WHERE ew."tenantId" = ${tenantId} AND ew."websiteId" = ${from}::uuid
      ORDER BY ew."eventId"
      FOR UPDATE OF ew`;
    await tx.$executeRaw`
      INSERT INTO "EventWebsite" ("tenantId", "eventId", "websiteId")
      SELECT "tenantId", "eventId", ${to}::uuid FROM "EventWebsite"
      WHERE "tenantId" = ${tenantId} AND "websiteId" = ${from}::uuid
      ON CONFLICT ("eventId", "websiteId") DO NOTHING`;
    await tx.eventWebsite.deleteMany({ where: { tenantId, websiteId: from } });
    return {
      eventIds: rows.map((r) => r.eventId),
      alreadyOnTarget: rows.filter((r) => r.onTarget).length,
    };
  }
}
