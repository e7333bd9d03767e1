import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../generated/prisma/client';

export type Tx = Prisma.TransactionClient;

export const EVENT_TICKET_SORT_FIELDS = [
  'participantLastname',
  'participantFirstname',
  'participantEmail',
  'ticketTypeName',
  'status',
  'dateCreated',
  'dateModified',
  'id',
] as const;

/** A ticket with what its views need of its booking and check-in. */
export const TICKET_INCLUDE = {
  checkIn: true,
  booking: {
    select: {
      currency: true,
      language: true,
      bookerEmail: true,
      bookerFirstname: true,
      bookerLastname: true,
      bookerPersonId: true,
      status: true,
    },
  },
} satisfies Prisma.EventTicketInclude;

export type TicketRecord = Prisma.EventTicketGetPayload<{ include: typeof TICKET_INCLUDE }>;

export interface TicketFilter {
  eventId?: string;
  status?: string;
  bookingId?: string;
  ticketTypeId?: string;
  checkedIn?: boolean;
  q?: string;
}

export interface SummaryRow {
  ticketTypeId: string;
  ticketTypeName: string;
  status: string;
  total: number;
  checkedIn: number;
}

/** A row of the export (ET11), read in keyset pages. */
export interface ExportRow {
  id: string;
  bookingId: string;
  ticketTypeId: string;
  ticketTypeName: string;
  status: string;
  participantFirstname: string;
  participantLastname: string;
  participantEmail: string | null;
  priceGross: string;
  currency: string;
  bookerFirstname: string;
  bookerLastname: string;
  bookerEmail: string;
  checkedInAt: Date | null;
  checkInLocation: string | null;
  revokedAt: Date | null;
  dateCreated: Date;
}

/** EventTicket rows; every query is scoped to the tenant. */
@Injectable()
export class EventTicketsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  static where(tenantId: string, f: TicketFilter): Prisma.EventTicketWhereInput {
    const q = f.q?.trim();
    return {
      tenantId,
      ...(f.eventId ? { eventId: f.eventId } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(f.bookingId ? { bookingId: f.bookingId } : {}),
      ...(f.ticketTypeId ? { ticketTypeId: f.ticketTypeId } : {}),
      ...(f.checkedIn === true ? { checkIn: { isNot: null } } : {}),
      ...(f.checkedIn === false ? { checkIn: { is: null } } : {}),
      ...(q
        ? {
            OR: [
              { participantFirstname: { contains: q, mode: 'insensitive' } },
              { participantLastname: { contains: q, mode: 'insensitive' } },
              { participantEmail: { contains: q, mode: 'insensitive' } },
              { ticketTypeName: { contains: q, mode: 'insensitive' } },
            ],
          }
        : {}),
    };
  }

  page(
    tenantId: string,
    filter: TicketFilter,
    opts: { skip: number; take: number; orderBy: Prisma.EventTicketOrderByWithRelationInput[] },
  ): Promise<[TicketRecord[], number]> {
    const where = EventTicketsRepository.where(tenantId, filter);
    return this.prisma.$transaction([
      this.prisma.eventTicket.findMany({
        where,
        include: TICKET_INCLUDE,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
      }),
      this.prisma.eventTicket.count({ where }),
    ]);
  }

  find(tenantId: string, id: string, db: Tx = this.prisma): Promise<TicketRecord | null> {
    return db.eventTicket.findFirst({ where: { tenantId, id }, include: TICKET_INCLUDE });
  }

  findMany(tenantId: string, ids: string[], db: Tx = this.prisma): Promise<TicketRecord[]> {
    return db.eventTicket.findMany({
      where: { tenantId, id: { in: ids } },
      include: TICKET_INCLUDE,
    });
  }

  /** Every ticket matching the filter (ET8), with its booking's contact data. */
  findAll(tenantId: string, filter: TicketFilter, max: number): Promise<TicketRecord[]> {
    return this.prisma.eventTicket.findMany({
      where: EventTicketsRepository.where(tenantId, filter),
      include: TICKET_INCLUDE,
      orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }],
      take: max,
    });
  }

  /** The tickets' rows locked until the transaction ends, in id order (no deadlock). */
  async lock(tx: Tx, tenantId: string, ids: string[]): Promise<{ id: string; status: string }[]> {
    return tx.$queryRaw<{ id: string; status: string }[]>`
      SELECT id::text, status FROM "EventTicket"
       WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
       ORDER BY id FOR UPDATE`;
  }

  /** The bookings of the tickets locked until the transaction ends, in id order. */
  async lockBookingsOf(tx: Tx, tenantId: string, ticketIds: string[]): Promise<void> {
    await tx.$queryRaw`
      SELECT b.id FROM "Booking" b
       WHERE b."tenantId" = ${tenantId}
         AND b.id IN (SELECT t."bookingId" FROM "EventTicket" t
                       WHERE t."tenantId" = ${tenantId} AND t.id = ANY(${ticketIds}::uuid[]))
       ORDER BY b.id FOR UPDATE`;
  }

  /** ET4: counts by ticket type and status, with check-ins, in one aggregation. */
  summary(tenantId: string, eventId: string): Promise<SummaryRow[]> {
    return this.prisma.$queryRaw<SummaryRow[]>`
      SELECT t."ticketTypeId"::text AS "ticketTypeId",
             (array_agg(t."ticketTypeName" ORDER BY t."dateCreated" DESC))[1] AS "ticketTypeName",
             t.status, count(*)::int AS total, count(c.id)::int AS "checkedIn"
        FROM "EventTicket" t LEFT JOIN "CheckIn" c ON c."ticketId" = t.id
       WHERE t."tenantId" = ${tenantId} AND t."eventId" = ${eventId}::uuid
       GROUP BY t."ticketTypeId", t.status
       ORDER BY 2, 1, 3`;
  }

  /** ET13: revocations of the event from `from` on (null: all). */
  revoked(
    tenantId: string,
    eventId: string,
    from: Date | null,
  ): Promise<{ ticketId: string; revokedAt: Date }[]> {
    return this.prisma.$queryRaw`
      SELECT id::text AS "ticketId", "revokedAt" FROM "EventTicket"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
         AND "revokedAt" IS NOT NULL AND (${from}::timestamp IS NULL OR "revokedAt" >= ${from}::timestamp)
       ORDER BY "revokedAt", id`;
  }

  /** The database's clock (one clock for revokedAt and `since`, whatever the app servers' are). */
  async now(): Promise<Date> {
    const [row] = await this.prisma.$queryRaw<{ now: Date }[]>`SELECT now()::timestamp AS now`;
    return row.now;
  }

  /** ET11: one keyset page after (dateCreated, id). */
  exportPage(
    tenantId: string,
    eventId: string,
    after: { dateCreated: Date; id: string } | null,
    take: number,
  ): Promise<ExportRow[]> {
    return this.prisma.$queryRaw<ExportRow[]>`
      SELECT t.id::text, t."bookingId"::text AS "bookingId", t."ticketTypeId"::text AS "ticketTypeId",
             t."ticketTypeName", t.status, t."participantFirstname", t."participantLastname",
             t."participantEmail", t."priceGross"::text AS "priceGross", b.currency,
             b."bookerFirstname", b."bookerLastname", b."bookerEmail",
             c."checkedInAt", c.location AS "checkInLocation", t."revokedAt", t."dateCreated"
        FROM "EventTicket" t
        JOIN "Booking" b ON b.id = t."bookingId"
        LEFT JOIN "CheckIn" c ON c."ticketId" = t.id
       WHERE t."tenantId" = ${tenantId} AND t."eventId" = ${eventId}::uuid
         AND (${after?.dateCreated ?? null}::timestamp IS NULL
              OR (t."dateCreated", t.id) > (${after?.dateCreated ?? null}::timestamp, ${after?.id ?? null}::uuid))
       ORDER BY t."dateCreated", t.id
       LIMIT ${take}`;
  }
}
