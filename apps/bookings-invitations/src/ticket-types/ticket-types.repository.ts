import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma, TicketType as TicketTypeRow } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

export const TICKET_TYPE_SORT_FIELDS = [
  'name',
  'price',
  'quota',
  'saleStartsAt',
  'saleEndsAt',
  'active',
  'dateCreated',
  'dateModified',
  'id',
] as const;

/** Who a copy made for a duplicated event is recorded as created by (no request: the service). */
const COPIER = 'bookings-invitations (event duplicated)';

/** TicketType rows; every query is scoped to the tenant. */
@Injectable()
export class TicketTypesRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  page(
    tenantId: string,
    eventId: string,
    opts: {
      skip: number;
      take: number;
      orderBy: Prisma.TicketTypeOrderByWithRelationInput[];
      q?: string;
    },
  ): Promise<[TicketTypeRow[], number]> {
    const where: Prisma.TicketTypeWhereInput = {
      tenantId,
      eventId,
      ...(opts.q ? { name: { contains: opts.q, mode: 'insensitive' } } : {}),
    };
    return this.prisma.$transaction([
      this.prisma.ticketType.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
      }),
      this.prisma.ticketType.count({ where }),
    ]);
  }

  /** How many ticket types the event has, and how many of them are active (one query). */
  async summary(tenantId: string, eventId: string): Promise<{ total: number; active: number }> {
    const [row] = await this.prisma.$queryRaw<{ total: number; active: number }[]>`
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE active))::int AS active
        FROM "TicketType" WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid`;
    return row;
  }

  find(tenantId: string, id: string, db: Tx = this.prisma): Promise<TicketTypeRow | null> {
    return db.ticketType.findFirst({ where: { tenantId, id } });
  }

  /** The event's ticket types among `ids` (a batch of bookings reads them once). */
  findMany(
    tenantId: string,
    eventId: string,
    ids: string[],
    db: Tx = this.prisma,
  ): Promise<TicketTypeRow[]> {
    return db.ticketType.findMany({ where: { tenantId, eventId, id: { in: ids } } });
  }

  /** The row locked until the transaction ends (null: not the tenant's). */
  async lock(tx: Tx, tenantId: string, id: string): Promise<TicketTypeRow | null> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM "TicketType" WHERE "tenantId" = ${tenantId} AND id = ${id}::uuid
      FOR UPDATE`;
    return rows.length ? this.find(tenantId, id, tx) : null;
  }

  create(tx: Tx, data: Prisma.TicketTypeUncheckedCreateInput): Promise<TicketTypeRow> {
    return tx.ticketType.create({ data });
  }

  update(tx: Tx, id: string, data: Prisma.TicketTypeUncheckedUpdateInput): Promise<TicketTypeRow> {
    return tx.ticketType.update({ where: { id }, data });
  }

  /**
   * Locks the events' ticket types in id order, the order a booking takes them in before the
   * event's capacity row, so a deletion and a booking of the event never wait on each other.
   */
  async lockOfEvents(tx: Tx, tenantId: string, eventIds: string[]): Promise<void> {
    await tx.$queryRaw`
      SELECT id FROM "TicketType"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
       ORDER BY id FOR UPDATE`;
  }

  /** Deletes the ticket types of the events (deleted events). */
  async deleteOfEvents(tx: Tx, tenantId: string, eventIds: string[]): Promise<void> {
    await tx.ticketType.deleteMany({ where: { tenantId, eventId: { in: eventIds } } });
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<number> {
    return (await tx.ticketType.deleteMany({ where: { tenantId, id } })).count;
  }

  /**
   * Copies the source event's ticket types to `targetEventId` in one statement; a type already
   * copied (same copiedFromId) is not copied again, so a redelivered duplicate copies nothing twice.
   * A copy deleted meanwhile (its deletion applied first) gets nothing.
   */
  copyAll(tx: Tx, tenantId: string, sourceEventId: string, targetEventId: string): Promise<number> {
    return tx.$executeRaw`
      INSERT INTO "TicketType" (id, "tenantId", "eventId", name, description, price, currency,
        "taxRateId", quota, "saleStartsAt", "saleEndsAt", "minPerBooking", "maxPerBooking", active,
        "copiedFromId", "dateCreated", "dateModified", "createdBy", "modifiedBy")
      SELECT gen_random_uuid(), "tenantId", ${targetEventId}::uuid, name, description, price,
        currency, "taxRateId", quota, "saleStartsAt", "saleEndsAt", "minPerBooking",
        "maxPerBooking", active, id, now(), now(), ${COPIER}, ${COPIER}
        FROM "TicketType"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${sourceEventId}::uuid
         AND NOT EXISTS (SELECT 1 FROM "EventCopy" c WHERE c."tenantId" = ${tenantId}
               AND c."eventId" = ${targetEventId}::uuid AND c.deleted)
       ORDER BY "dateCreated", id
      ON CONFLICT ("tenantId", "eventId", "copiedFromId") DO NOTHING`;
  }
}
