import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { utcTimestamp as utc } from '../database/utc-timestamp';
import type { Prisma } from '../generated/prisma/client';
import type { BookingWithTickets } from './booking.mapper';
import type { Tx } from '../database/tx';

/** A public booking as BookingBatchWriter writes it (status confirmed, by `public`). */
export interface NewBookingRow {
  id: string;
  tenantId: string;
  eventId: string;
  paymentStatus: string;
  bookerFirstname: string;
  bookerLastname: string;
  bookerEmail: string;
  bookerPersonId: string | null;
  language: string;
  answers: unknown;
  invitationId: string | null;
  websiteId: string | null;
  currency: string;
  totalNet: string;
  totalTax: string;
  totalGross: string;
  cancellationTiers: unknown;
  confirmationToken: string;
  /** An unpaid booking is cancelled when this passes (the event's payment deadline). */
  paymentDueAt: Date | null;
}

/** An open booking whose payment reminder is due, with what the mail says. */
export interface DueReminder {
  bookingId: string;
  tenantId: string;
  eventId: string;
  language: string;
  bookerName: string;
  bookerEmail: string;
  currency: string;
  totalGross: string;
  paymentDueAt: Date;
  title: string;
  startsAt: Date | null;
  timeZone: string;
}

export const BOOKING_SORT_FIELDS = [
  'dateCreated',
  'dateModified',
  'bookerLastname',
  'bookerFirstname',
  'bookerEmail',
  'totalGross',
  'status',
  'paymentStatus',
  'invoiceNumber',
  'id',
] as const;

/** BK13: one day of an event's bookings (in its zone), revenue as numeric text. */
export interface DayStatistics {
  day: string;
  booked: number;
  cancelled: number;
  tickets: number;
  net: string;
  gross: string;
}

/** Who a change made by another service's event is recorded as made by. */
const SYSTEM = 'system';

/** A booking whose booker reference changed: what its history entry needs. */
export interface ChangedBooking {
  id: string;
  eventId: string;
  personId: string;
}

const withOrderedTickets = {
  tickets: { orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.BookingInclude;

/** A booking with its tickets in their booking order (an invoice lists them so). */
export type BookingWithOrderedTickets = Prisma.BookingGetPayload<{
  include: typeof withOrderedTickets;
}>;

/** Waiting for a pooled connection under a burst of bookings is fine; a 500 is not. */
export const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 } as const;

/** Booking rows; every query is scoped to the tenant. */
@Injectable()
export class BookingsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, TX_OPTIONS);
  }

  /**
   * The limit per buyer: locks each buyer (`event/e-mail`, the e-mail in lower case) against
   * other writers until the commit, in the order given (the caller sorts), and answers the valid
   * tickets of each buyer's earlier bookings of the event (a buyer with none is absent).
   */
  async lockBuyers(tx: Tx, tenantId: string, buyers: string[]): Promise<Map<string, number>> {
    await tx.$queryRaw`
      SELECT count(pg_advisory_xact_lock(hashtextextended(${tenantId} || '/' || k, 0)))
        FROM unnest(${buyers}::text[]) WITH ORDINALITY AS x(k, n)`;
    const rows = await tx.$queryRaw<{ buyer: string; n: number }[]>`
      SELECT b."eventId"::text || '/' || lower(b."bookerEmail") AS buyer, count(*)::int AS n
        FROM "Booking" b JOIN "EventTicket" t ON t."bookingId" = b.id AND t.status = 'valid'
       WHERE b."tenantId" = ${tenantId}
         AND (b."eventId"::text || '/' || lower(b."bookerEmail")) = ANY(${buyers}::text[])
         AND b."eventId" = ANY(${[...new Set(buyers.map((k) => k.split('/')[0]))]}::uuid[])
       GROUP BY 1`;
    return new Map(rows.map((r) => [r.buyer, r.n]));
  }

  /** Runs `fn` with the plain client: the same steps as in a transaction, without one. */
  withoutTransaction<T>(fn: (db: Tx) => Promise<T>): Promise<T> {
    return fn(this.prisma);
  }

  /**
   * Inserts a batch's public bookings in one statement (plain SQL: Prisma's createMany spent
   * milliseconds per batch compiling its rows, a fifth of the service's CPU in an on-sale).
   * `at` is their dateCreated and dateModified, in UTC as Prisma writes dates.
   */
  async insertMany(tx: Tx, rows: NewBookingRow[], at: Date): Promise<void> {
    const col = <K extends keyof NewBookingRow>(k: K) => rows.map((r) => r[k]);
    const json = (v: unknown) => (v == null ? null : JSON.stringify(v));
    await tx.$executeRaw`
      INSERT INTO "Booking" (id, "tenantId", "eventId", status, "paymentStatus", "bookerFirstname",
        "bookerLastname", "bookerEmail", "bookerPersonId", language, answers, "invitationId",
        "websiteId", currency, "totalNet", "totalTax", "totalGross", "cancellationTiers",
        "confirmationToken", "paymentDueAt", "createdBy", "modifiedBy", "dateCreated",
        "dateModified")
      SELECT x.id, x.tenant, x.event, 'confirmed', x.payment, x.firstname, x.lastname, x.email,
             x.person, x.language, x.answers, x.invitation, x.website, x.currency, x.net, x.tax,
             x.gross, x.tiers, x.token, x.due, 'public', 'public', ${utc(at)}::timestamp,
             ${utc(at)}::timestamp
        FROM unnest(${col('id')}::uuid[], ${col('tenantId')}::text[], ${col('eventId')}::uuid[],
               ${col('paymentStatus')}::text[], ${col('bookerFirstname')}::text[],
               ${col('bookerLastname')}::text[], ${col('bookerEmail')}::text[],
               ${col('bookerPersonId')}::uuid[], ${col('language')}::text[],
               ${rows.map((r) => json(r.answers))}::jsonb[], ${col('invitationId')}::uuid[],
               ${col('websiteId')}::uuid[], ${col('currency')}::text[], ${col('totalNet')}::numeric[],
               ${col('totalTax')}::numeric[], ${col('totalGross')}::numeric[],
               ${rows.map((r) => json(r.cancellationTiers))}::jsonb[],
               ${col('confirmationToken')}::text[],
               ${rows.map((r) => (r.paymentDueAt ? utc(r.paymentDueAt) : null))}::timestamp[])
          AS x(id, tenant, event, payment, firstname, lastname, email, person, language, answers,
               invitation, website, currency, net, tax, gross, tiers, token, due)`;
  }

  /** BK21: a new deadline; a reminder is due again for it. */
  async setPaymentDue(
    tx: Tx,
    id: string,
    dueAt: Date | null,
    actor: string,
    actorUserId: string | null,
  ) {
    await tx.booking.update({
      where: { id },
      data: {
        paymentDueAt: dueAt,
        paymentRemindedAt: null,
        modifiedBy: actor,
        modifiedByUserId: actorUserId,
      },
    });
  }

  /** Open bookings past their payment deadline (by the database's clock), oldest first. */
  overdue(limit: number): Promise<{ id: string; tenantId: string }[]> {
    return this.prisma.$queryRaw`
      SELECT id::text, "tenantId" FROM "Booking"
       WHERE status = 'confirmed' AND "paymentStatus" = 'open' AND "paymentDueAt" IS NOT NULL
         AND "paymentDueAt" <= (clock_timestamp() AT TIME ZONE 'UTC')
       ORDER BY "paymentDueAt" LIMIT ${limit}`;
  }

  /**
   * Marks up to `limit` open bookings whose reminder is due (their event's paymentReminderHours
   * before the deadline, not reminded for this deadline yet) as reminded, and returns them with
   * what the reminder says. Rows locked elsewhere are left to the next sweep.
   */
  claimReminders(tx: Tx, limit: number): Promise<DueReminder[]> {
    // picked once (a materialised CTE): a subquery may be rescanned, claiming more than `limit`
    return tx.$queryRaw<DueReminder[]>`
      WITH due AS MATERIALIZED (
               SELECT x.id FROM "Booking" x
                 JOIN "EventCopy" c ON c."tenantId" = x."tenantId" AND c."eventId" = x."eventId"
                WHERE x.status = 'confirmed' AND x."paymentStatus" = 'open'
                  AND x."paymentDueAt" IS NOT NULL AND x."paymentRemindedAt" IS NULL
                  AND c."paymentReminderHours" IS NOT NULL
                  AND x."paymentDueAt" - c."paymentReminderHours" * interval '1 hour'
                      <= (clock_timestamp() AT TIME ZONE 'UTC')
                  AND x."paymentDueAt" > (clock_timestamp() AT TIME ZONE 'UTC')
                ORDER BY x."paymentDueAt" LIMIT ${limit}
                  FOR UPDATE OF x SKIP LOCKED)
      UPDATE "Booking" b SET "paymentRemindedAt" = now()
        FROM "EventCopy" e
       WHERE b.id IN (SELECT id FROM due)
         AND e."tenantId" = b."tenantId" AND e."eventId" = b."eventId"
      RETURNING b.id::text AS "bookingId", b."tenantId", b."eventId"::text, b.language,
                b."bookerFirstname" || ' ' || b."bookerLastname" AS "bookerName",
                b."bookerEmail", b.currency, b."totalGross"::text AS "totalGross",
                b."paymentDueAt", e.title, e."startsAt", e."timeZone"`;
  }

  find(tenantId: string, id: string, db: Tx = this.prisma): Promise<BookingWithTickets | null> {
    return db.booking.findFirst({ where: { tenantId, id }, include: { tickets: true } });
  }

  /** The tenant's bookings among `ids`, locked in id order (two batches cannot deadlock). */
  lockMany(
    tx: Tx,
    tenantId: string,
    ids: string[],
  ): Promise<{ id: string; eventId: string; invoiceNumber: string | null }[]> {
    return tx.$queryRaw<{ id: string; eventId: string; invoiceNumber: string | null }[]>`
        SELECT id::text, "eventId"::text, "invoiceNumber" FROM "Booking"
         WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
         ORDER BY id FOR UPDATE`;
  }

  /** The booking's status, the row locked until the transaction ends (undefined: none). */
  async lockStatus(tx: Tx, tenantId: string, id: string): Promise<{ status: string } | undefined> {
    const [booking] = await tx.$queryRaw<{ status: string }[]>`
      SELECT status FROM "Booking" WHERE "tenantId" = ${tenantId} AND id = ${id}::uuid
      FOR UPDATE`;
    return booking;
  }

  async deleteMany(tx: Tx, tenantId: string, ids: string[]): Promise<void> {
    await tx.booking.deleteMany({ where: { tenantId, id: { in: ids } } });
  }

  update(tx: Tx, id: string, data: Prisma.BookingUncheckedUpdateInput): Promise<unknown> {
    return tx.booking.update({ where: { id }, data });
  }

  /**
   * BK13: per day in the event's zone `tz`, in one SQL aggregation: bookings made (with their
   * tickets and, unless cancelled since, their revenue) and bookings cancelled (on the
   * cancellation day), between the days `from` and `to` (ISO, null: open).
   */
  statistics(
    tenantId: string,
    eventId: string,
    tz: string,
    from: string | null,
    to: string | null,
  ): Promise<DayStatistics[]> {
    return this.prisma.$queryRaw<DayStatistics[]>`
      WITH b AS (
        SELECT b.id, b.status, b."totalNet", b."totalGross",
               ((b."dateCreated" AT TIME ZONE 'UTC') AT TIME ZONE ${tz})::date AS booked_on,
               ((b."cancelledAt" AT TIME ZONE 'UTC') AT TIME ZONE ${tz})::date AS cancelled_on
          FROM "Booking" b
         WHERE b."tenantId" = ${tenantId} AND b."eventId" = ${eventId}::uuid
      ), t AS (
        SELECT "bookingId", count(*)::int AS n FROM "EventTicket"
         WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
         GROUP BY "bookingId"
      ), facts AS (
        SELECT b.booked_on AS day, 1 AS booked, 0 AS cancelled, coalesce(t.n, 0) AS tickets,
               CASE WHEN b.status = 'cancelled' THEN 0 ELSE b."totalNet" END AS net,
               CASE WHEN b.status = 'cancelled' THEN 0 ELSE b."totalGross" END AS gross
          FROM b LEFT JOIN t ON t."bookingId" = b.id
        UNION ALL
        SELECT b.cancelled_on, 0, 1, 0, 0, 0 FROM b WHERE b.cancelled_on IS NOT NULL
      )
      SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(booked)::int AS booked,
             sum(cancelled)::int AS cancelled, sum(tickets)::int AS tickets,
             sum(net)::numeric(14,2)::text AS net, sum(gross)::numeric(14,2)::text AS gross
        FROM facts
       WHERE (${from}::date IS NULL OR day >= ${from}::date)
         AND (${to}::date IS NULL OR day <= ${to}::date)
       GROUP BY day ORDER BY day`;
  }

  /** The confirmed bookings of the events, oldest first (cancelled ones stay as they are). */
  async confirmedOfEvents(tx: Tx, tenantId: string, eventIds: string[]): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM "Booking"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
         AND status = 'confirmed'
       ORDER BY "dateCreated", id`;
    return rows.map((r) => r.id);
  }

  /** W11: bookings of the events made through website `from` now name `to`; how many. */
  migrateWebsite(
    tx: Tx,
    tenantId: string,
    eventIds: string[],
    from: string,
    to: string,
  ): Promise<number> {
    return tx.$executeRaw`
      UPDATE "Booking" SET "websiteId" = ${to}::uuid, "dateModified" = now()
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
         AND "websiteId" = ${from}::uuid`;
  }

  /** P20: bookings of the merged people now name the target (by the system). */
  repointPeople(
    tx: Tx,
    tenantId: string,
    sourceIds: string[],
    targetId: string,
  ): Promise<ChangedBooking[]> {
    // the old value comes from a self-join: RETURNING sees the row as updated
    return tx.$queryRaw<ChangedBooking[]>`
      UPDATE "Booking" b SET "bookerPersonId" = ${targetId}::uuid, "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
        FROM "Booking" old
       WHERE old.id = b.id AND b."tenantId" = ${tenantId}
         AND b."bookerPersonId" = ANY(${sourceIds}::uuid[])
      RETURNING b.id::text, b."eventId"::text AS "eventId", old."bookerPersonId"::text AS "personId"`;
  }

  /** P6, P10: bookings of the people lose the person, keep the booker's name and e-mail. */
  forgetPeople(tx: Tx, tenantId: string, personIds: string[]): Promise<ChangedBooking[]> {
    return tx.$queryRaw<ChangedBooking[]>`
      UPDATE "Booking" b SET "bookerPersonId" = NULL, "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
        FROM "Booking" old
       WHERE old.id = b.id AND b."tenantId" = ${tenantId}
         AND b."bookerPersonId" = ANY(${personIds}::uuid[])
      RETURNING b.id::text, b."eventId"::text AS "eventId", old."bookerPersonId"::text AS "personId"`;
  }

  /** The booking with its tickets in order (one query), null when it is not the tenant's. */
  findWithOrderedTickets(
    tenantId: string,
    id: string,
    db: Tx = this.prisma,
  ): Promise<BookingWithOrderedTickets | null> {
    return db.booking.findFirst({ where: { tenantId, id }, include: withOrderedTickets });
  }

  exists(tenantId: string, id: string): Promise<{ id: string } | null> {
    return this.prisma.booking.findFirst({ where: { tenantId, id }, select: { id: true } });
  }

  /**
   * Sets the number of a booking that has none (count 0: it has one, or is not the tenant's). A
   * number another booking of the tenant holds fails on the unique index (tenantId,
   * invoiceNumber), also when both writes race.
   */
  async setInvoiceNumber(
    tx: Tx,
    tenantId: string,
    id: string,
    invoiceNumber: string,
    stamps: { modifiedBy: string; modifiedByUserId: string | null },
  ): Promise<Date | null> {
    const invoiceDate = new Date();
    const { count } = await tx.booking.updateMany({
      where: { tenantId, id, invoiceNumber: null },
      data: { invoiceNumber, invoiceDate, ...stamps },
    });
    return count ? invoiceDate : null;
  }

  /** The bookings of the tickets `ticketIds` locked until the transaction ends, in id order. */
  async lockOfTickets(tx: Tx, tenantId: string, ticketIds: string[]): Promise<void> {
    await tx.$queryRaw`
      SELECT b.id FROM "Booking" b
       WHERE b."tenantId" = ${tenantId}
         AND b.id IN (SELECT t."bookingId" FROM "EventTicket" t
                       WHERE t."tenantId" = ${tenantId} AND t.id = ANY(${ticketIds}::uuid[]))
       ORDER BY b.id FOR UPDATE`;
  }

  /** The booking row locked until the transaction ends (null: not the tenant's). */
  async lock(tx: Tx, tenantId: string, id: string): Promise<BookingWithTickets | null> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM "Booking" WHERE "tenantId" = ${tenantId} AND id = ${id}::uuid
      FOR UPDATE`;
    return rows.length ? this.find(tenantId, id, tx) : null;
  }

  page(
    where: Prisma.BookingWhereInput,
    opts: { skip: number; take: number; orderBy: Prisma.BookingOrderByWithRelationInput[] },
  ): Promise<[BookingWithTickets[], number]> {
    return this.prisma.$transaction([
      this.prisma.booking.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
        include: { tickets: true },
        relationLoadStrategy: 'join',
      }),
      this.prisma.booking.count({ where }),
    ]);
  }
}
