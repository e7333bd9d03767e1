import { Injectable } from '@nestjs/common';
import { OUTBOX_CHANNEL, OUTBOX_TABLE, Subjects, uuidv7 } from '@crm/messaging';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../bookings/booking-history';
import { PrismaService } from '../database/prisma.service';
import { utcTimestamp as utc } from '../database/utc-timestamp';
import type { Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** A valid ticket of a new booking, its price frozen. */
export interface NewTicketRow {
  id: string;
  tenantId: string;
  eventId: string;
  bookingId: string;
  ticketTypeId: string;
  ticketTypeName: string;
  priceGross: string;
  priceNet: string;
  priceTax: string;
  taxRatePercent: string;
  taxRateId: string | null;
  participantFirstname: string;
  participantLastname: string;
  participantEmail: string | null;
  dateCreated: Date;
  dateModified: Date;
}

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

/** What a check-in found, and `checkedInAt` when it checked the ticket in. */
export interface CheckInOutcome {
  id: string;
  eventId: string;
  bookingId: string;
  status: string;
  ticketTypeName: string;
  participantFirstname: string;
  participantLastname: string;
  checkedInAt: Date | null;
  /** The event's zone (null: no copy of the event). */
  timeZone: string | null;
}

/**
 * ET9 in one statement (one round trip, atomic without an interactive transaction): the ticket
 * share-locked (a cancellation waits), the CheckIn row inserted when the ticket is valid and of
 * the code's (and the scanner's) event, unless one exists (the unique ticketId decides between
 * concurrent scans), and with it the booking history entry and the outbox event
 * TicketCheckedInEvent (as addOutboxEvent writes it, notifying the relay on commit).
 */
const CHECK_IN_SQL = `
  WITH t AS (
    SELECT t.id, t."eventId", t."bookingId", t.status, t."ticketTypeName",
           t."participantFirstname", t."participantLastname", b."bookerPersonId",
           b.language, e.title AS "eventTitle", e."timeZone"
      FROM "EventTicket" t
      JOIN "Booking" b ON b.id = t."bookingId"
      LEFT JOIN "EventCopy" e ON e."tenantId" = t."tenantId" AND e."eventId" = t."eventId"
     WHERE t."tenantId" = $1::text AND t.id = $2::uuid
       FOR SHARE OF t),
  ins AS (
    INSERT INTO "CheckIn" (id, "tenantId", "eventId", "ticketId", nonce, location, actor)
    SELECT $3::uuid, $1::text, t."eventId", t.id, $4::text, $5::text, $6::text FROM t
     WHERE t.status = 'valid' AND t."eventId" = $7::uuid
       AND ($8::uuid IS NULL OR t."eventId" = $8::uuid)
    ON CONFLICT ("ticketId") DO NOTHING
    RETURNING "checkedInAt"),
  hist AS (
    INSERT INTO "BookingHistory" (id, "tenantId", "eventId", "bookingId", action, actor,
      "actorUserId", data, at)
    SELECT $9::uuid, $1::text, t."eventId", t."bookingId", 'checked-in', $6::text, $10::text,
           jsonb_build_object('ticketId', t.id, 'location', $5::text), ins."checkedInAt"
      FROM t, ins),
  outbox AS (
    INSERT INTO ${OUTBOX_TABLE} (id, "tenantId", subject, payload)
    SELECT $11::uuid, $1::text, $12::text, jsonb_build_object(
             'tenantId', $1::text, 'eventId', t."eventId", 'eventTitle', coalesce(t."eventTitle", ''),
             'personId', t."bookerPersonId", 'language', t.language,
             'at', to_char(ins."checkedInAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'ticketId', t.id, 'bookingId', t."bookingId", 'location', $5::text)
      FROM t, ins
    RETURNING 1),
  notified AS (SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM outbox)
  SELECT t.id::text, t."eventId"::text AS "eventId", t."bookingId"::text AS "bookingId", t.status,
         t."ticketTypeName", t."participantFirstname", t."participantLastname",
         ins."checkedInAt", t."timeZone", (SELECT count(*) FROM notified)::int AS notified
    FROM t LEFT JOIN ins ON true`;

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

  /**
   * Inserts a batch's tickets in one statement (plain SQL, as BookingsRepository.insertMany: Prisma's
   * createMany compiled each row).
   */
  async insertMany(tx: Tx, rows: NewTicketRow[]): Promise<void> {
    const col = <K extends keyof NewTicketRow>(k: K) => rows.map((r) => r[k]);
    await tx.$executeRaw`
      INSERT INTO "EventTicket" (id, "tenantId", "eventId", "bookingId", "ticketTypeId",
        "ticketTypeName", "priceGross", "priceNet", "priceTax", "taxRatePercent", "taxRateId",
        status, "participantFirstname", "participantLastname", "participantEmail", "dateCreated",
        "dateModified")
      SELECT x.id, x.tenant, x.event, x.booking, x.type, x.name, x.gross, x.net, x.tax, x.rate,
             x.rate_id, 'valid', x.firstname, x.lastname, x.email, x.created, x.modified
        FROM unnest(${col('id')}::uuid[], ${col('tenantId')}::text[], ${col('eventId')}::uuid[],
               ${col('bookingId')}::uuid[], ${col('ticketTypeId')}::uuid[],
               ${col('ticketTypeName')}::text[], ${col('priceGross')}::numeric[],
               ${col('priceNet')}::numeric[], ${col('priceTax')}::numeric[],
               ${col('taxRatePercent')}::numeric[], ${col('taxRateId')}::text[],
               ${col('participantFirstname')}::text[], ${col('participantLastname')}::text[],
               ${col('participantEmail')}::text[], ${rows.map((r) => utc(r.dateCreated))}::timestamp[],
               ${rows.map((r) => utc(r.dateModified))}::timestamp[])
          AS x(id, tenant, event, booking, type, name, gross, net, tax, rate, rate_id, firstname,
               lastname, email, created, modified)`;
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

  /** Sets fields of the tenant's ticket (ET3, ET10); how many rows changed (0 or 1). */
  async updateFields(
    db: Tx,
    tenantId: string,
    id: string,
    data: Prisma.EventTicketUncheckedUpdateManyInput,
  ): Promise<number> {
    return (await db.eventTicket.updateMany({ where: { tenantId, id }, data })).count;
  }

  /** The ids of the bookings' valid tickets. */
  validIdsOf(tx: Tx, tenantId: string, bookingIds: string[]): Promise<{ id: string }[]> {
    return tx.eventTicket.findMany({
      where: { tenantId, bookingId: { in: bookingIds }, status: 'valid' },
      select: { id: true },
    });
  }

  /**
   * Cancels the valid ones among the tickets, revoked from now; the rows changed, with what
   * their seats' release needs.
   */
  cancelValid(
    tx: Tx,
    tenantId: string,
    ids: string[],
  ): Promise<{ id: string; eventId: string; ticketTypeId: string; bookingId: string }[]> {
    return tx.$queryRaw<{ id: string; eventId: string; ticketTypeId: string; bookingId: string }[]>`
      UPDATE "EventTicket" SET status = 'cancelled', "revokedAt" = now(), "dateModified" = now()
       WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[]) AND status = 'valid'
      RETURNING id, "eventId", "ticketTypeId", "bookingId"`;
  }

  /** Valid tickets of the ticket type (sold and not cancelled). */
  validOfType(tx: Tx, tenantId: string, ticketTypeId: string): Promise<number> {
    return tx.eventTicket.count({ where: { tenantId, ticketTypeId, status: 'valid' } });
  }

  /** Repairs a ticket's tax (BK15). */
  async setPriceTax(tx: Tx, id: string, priceTax: string): Promise<void> {
    await tx.eventTicket.update({ where: { id }, data: { priceTax } });
  }

  /**
   * The tenant's tickets among `ids` locked until the transaction ends, in id order, with their
   * booking and whether they are checked in (a check-in share-locks its ticket: it is either
   * done before this lock or waits for the cancellation and then finds the ticket cancelled).
   */
  lockForCancellation(
    tx: Tx,
    tenantId: string,
    ids: string[],
  ): Promise<{ id: string; bookingId: string; status: string; checkedIn: boolean }[]> {
    return tx.$queryRaw<{ id: string; bookingId: string; status: string; checkedIn: boolean }[]>`
      SELECT t.id::text, t."bookingId"::text AS "bookingId", t.status,
             EXISTS (SELECT 1 FROM "CheckIn" c WHERE c."ticketId" = t.id) AS "checkedIn"
        FROM "EventTicket" t
       WHERE t."tenantId" = ${tenantId} AND t.id = ANY(${ids}::uuid[])
       ORDER BY t.id FOR UPDATE OF t`;
  }

  /** ET9: see CHECK_IN_SQL; null when the ticket is not the tenant's. */
  async checkIn(c: {
    tenantId: string;
    ticketId: string;
    codeEventId: string;
    scanEventId: string | null;
    nonce: string | null;
    location: string | null;
    actor: Actor;
  }): Promise<CheckInOutcome | null> {
    const rows = await this.prisma.$queryRawUnsafe<CheckInOutcome[]>(
      CHECK_IN_SQL,
      c.tenantId,
      c.ticketId,
      randomUUID(),
      c.nonce,
      c.location,
      c.actor.actor,
      c.codeEventId,
      c.scanEventId,
      randomUUID(),
      c.actor.actorUserId ?? null,
      uuidv7(),
      Subjects.bookingsInvitations.ticketCheckedIn,
    );
    return rows[0] ?? null;
  }

  /** The check-in of a ticket, if any. */
  checkInOf(ticketId: string) {
    return this.prisma.checkIn.findUnique({ where: { ticketId } });
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
