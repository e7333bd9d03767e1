import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { TX_OPTIONS } from '../bookings/bookings.repository';
import type { WaitingSeats } from './list-allocation';
import type { Tx } from '../database/tx';

/** What an entry is, its offer's hold read with it (status derived, see STATUS). */
export interface EntryRow {
  id: string;
  tenantId: string;
  eventId: string;
  ticketTypeId: string;
  token: string;
  email: string;
  firstname: string;
  lastname: string;
  quantity: number;
  language: string;
  websiteId: string | null;
  /** The stored status: waiting | offered | left | removed. */
  stored: string;
  /** waiting | offered | booked | declined | expired | left | removed */
  status: string;
  /** 1-based among the type's waiting entries; null when not waiting. */
  position: number | null;
  holdToken: string | null;
  offerExpiresAt: Date | null;
  bookingId: string | null;
  dateCreated: Date;
}

/** An entry locked by the offer sweeper: what its offer and mail need. */
export interface LockedEntry extends WaitingSeats {
  token: string;
  email: string;
  firstname: string;
  lastname: string;
  language: string;
  websiteId: string | null;
}

export type NewEntryRow = Pick<
  EntryRow,
  | 'id'
  | 'tenantId'
  | 'eventId'
  | 'ticketTypeId'
  | 'token'
  | 'email'
  | 'firstname'
  | 'lastname'
  | 'quantity'
  | 'language'
  | 'websiteId'
>;

/**
 * An offered entry's status is its hold's: active offered, confirmed booked (a booking took the
 * offer), released declined (the visitor gave it back), expired expired (it passed on).
 */
const STATUS = `CASE WHEN w.status <> 'offered' THEN w.status
    WHEN h.status = 'active' THEN 'offered' WHEN h.status = 'confirmed' THEN 'booked'
    WHEN h.status = 'released' THEN 'declined' ELSE 'expired' END`;

const POSITION = `CASE WHEN w.status = 'waiting' THEN (SELECT count(*)::int FROM "WaitingListEntry" x
    WHERE x."tenantId" = w."tenantId" AND x."ticketTypeId" = w."ticketTypeId"
      AND x.status = 'waiting' AND x.rank <= w.rank) END`;

const COLUMNS = `w.id::text, w."tenantId", w."eventId"::text, w."ticketTypeId"::text, w.token,
  w.email, w.firstname, w.lastname, w.quantity, w.language, w."websiteId"::text,
  w.status AS stored, ${STATUS} AS status, ${POSITION} AS position, h.token AS "holdToken",
  CASE WHEN h.status = 'active' THEN h."expiresAt" END AS "offerExpiresAt",
  h."bookingId"::text AS "bookingId", w."dateCreated"`;

const FROM = `"WaitingListEntry" w LEFT JOIN "SeatHold" h ON h.id = w."holdId"`;

/**
 * Waiting types whose seats may be offered: active and not past their sale (the public could not
 * book them either). The offer sweeper and the public's admission both read entries through it,
 * so they agree on what the list takes.
 */
const OFFERABLE = `JOIN "TicketType" t ON t.id = w."ticketTypeId" AND t."tenantId" = w."tenantId"
  AND t.active AND (t."saleEndsAt" IS NULL OR t."saleEndsAt" > (now() AT TIME ZONE 'UTC'))`;

/**
 * WaitingListEntry rows. An entry's place is its `rank` among the type's entries; its position is
 * counted among the waiting ones. Locks: the counters of the type (CapacityRepository) before any
 * entry, entries in id order: a join, the offer sweeper and a booking's batch take the counters
 * first; a leave of an offered entry takes its hold (SeatHold) before both, as every hold path does.
 */
@Injectable()
export class WaitingListRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Entries of every tenant waiting, and those with an offer open (the operator's metrics). */
  async countOpen(): Promise<{ waiting: number; offered: number }> {
    const rows = await this.prisma.waitingListEntry.groupBy({
      by: ['status'],
      where: { status: { in: ['waiting', 'offered'] } },
      _count: { _all: true },
    });
    const n = (status: string) => rows.find((r) => r.status === status)?._count._all ?? 0;
    return { waiting: n('waiting'), offered: n('offered') };
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, TX_OPTIONS);
  }

  /**
   * A new waiting entry at the end of its type's list (its rank from the sequence). A second
   * waiting entry of the e-mail (any case) for the type fails on a unique index.
   */
  async insert(tx: Tx, r: NewEntryRow): Promise<void> {
    await tx.$executeRaw`
      INSERT INTO "WaitingListEntry" (id, "tenantId", "eventId", "ticketTypeId", token, email,
        firstname, lastname, quantity, language, "websiteId", status, "dateCreated",
        "dateModified")
      VALUES (${r.id}::uuid, ${r.tenantId}, ${r.eventId}::uuid, ${r.ticketTypeId}::uuid, ${r.token},
        ${r.email}, ${r.firstname}, ${r.lastname}, ${r.quantity}, ${r.language},
        ${r.websiteId}::uuid, 'waiting', now(), now())`;
  }

  /** Whether the e-mail (any case) already waits for the type. */
  async isWaiting(tx: Tx, tenantId: string, ticketTypeId: string, email: string): Promise<boolean> {
    const rows = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM "WaitingListEntry"
       WHERE "tenantId" = ${tenantId} AND "ticketTypeId" = ${ticketTypeId}::uuid
         AND status = 'waiting' AND lower(email) = lower(${email}) LIMIT 1`;
    return rows.length > 0;
  }

  async findByToken(tenantId: string, token: string, db: Tx = this.prisma) {
    const rows = await db.$queryRawUnsafe<EntryRow[]>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE w."tenantId" = $1 AND w.token = $2`,
      tenantId,
      token,
    );
    return rows[0] ?? null;
  }

  async findById(tenantId: string, id: string, db: Tx = this.prisma): Promise<EntryRow | null> {
    const rows = await db.$queryRawUnsafe<EntryRow[]>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE w."tenantId" = $1 AND w.id = $2::uuid`,
      tenantId,
      id,
    );
    return rows[0] ?? null;
  }

  /** The event's entries (of one type), by type and list order. */
  list(tenantId: string, eventId: string, ticketTypeId: string | null): Promise<EntryRow[]> {
    return this.prisma.$queryRawUnsafe<EntryRow[]>(
      `SELECT ${COLUMNS} FROM ${FROM}
        WHERE w."tenantId" = $1 AND w."eventId" = $2::uuid
          AND ($3::uuid IS NULL OR w."ticketTypeId" = $3::uuid)
        ORDER BY w."ticketTypeId", w.rank`,
      tenantId,
      eventId,
      ticketTypeId,
    );
  }

  /** The event's waiting entries of offerable types, by type and list order (unlocked). */
  waitingOf(tx: Tx, tenantId: string, eventId: string): Promise<WaitingSeats[]> {
    return tx.$queryRawUnsafe<WaitingSeats[]>(
      `SELECT w.id::text, w."ticketTypeId"::text, w.quantity FROM "WaitingListEntry" w ${OFFERABLE}
        WHERE w."tenantId" = $1 AND w."eventId" = $2::uuid AND w.status = 'waiting'
        ORDER BY w."ticketTypeId", w.rank`,
      tenantId,
      eventId,
    );
  }

  /** The same entries locked (in id order), with what an offer needs; by type and list order. */
  async lockWaiting(tx: Tx, tenantId: string, eventId: string): Promise<LockedEntry[]> {
    const rows = await tx.$queryRawUnsafe<(LockedEntry & { rank: number })[]>(
      `SELECT w.id::text, w."ticketTypeId"::text, w.quantity, w.token, w.email, w.firstname,
              w.lastname, w.language, w."websiteId"::text, w.rank
         FROM "WaitingListEntry" w ${OFFERABLE}
        WHERE w."tenantId" = $1 AND w."eventId" = $2::uuid AND w.status = 'waiting'
        ORDER BY w.id FOR UPDATE OF w`,
      tenantId,
      eventId,
    );
    return rows
      .sort((a, b) =>
        a.ticketTypeId === b.ticketTypeId
          ? a.rank - b.rank
          : a.ticketTypeId < b.ticketTypeId
            ? -1
            : 1,
      )
      .map(({ rank: _rank, ...e }) => e);
  }

  /**
   * Events with seats the list can use: a waiting entry of an offerable type that fits into its
   * type's free quota and the event's free capacity, the event open. Unlocked: the sweeper
   * decides under the counters' locks.
   */
  eventsToOffer(limit: number): Promise<{ tenantId: string; eventId: string }[]> {
    return this.prisma.$queryRawUnsafe<{ tenantId: string; eventId: string }[]>(
      `SELECT w."tenantId", w."eventId"::text FROM "WaitingListEntry" w ${OFFERABLE}
         JOIN "EventCopy" c ON c."tenantId" = w."tenantId" AND c."eventId" = w."eventId"
        WHERE w.status = 'waiting' AND NOT c.deleted AND c.published
          AND c.status NOT IN ('cancelled', 'completed', 'deleted')
          AND (c."startsAt" IS NULL OR c."startsAt" > (now() AT TIME ZONE 'UTC'))
          AND (t.quota IS NULL OR t.quota - t.sold - t.held >= w.quantity)
          AND (c.capacity IS NULL OR c.capacity - c.sold - c.held >= w.quantity)
        GROUP BY w."tenantId", w."eventId" ORDER BY w."tenantId", w."eventId" LIMIT $1`,
      limit,
    );
  }

  /** The locked entries got their offers. */
  async markOffered(tx: Tx, offers: { id: string; holdId: string }[]): Promise<void> {
    if (!offers.length) return;
    await tx.$executeRaw`
      UPDATE "WaitingListEntry" w SET status = 'offered', "holdId" = x.hold,
             "offeredAt" = now(), "dateModified" = now()
        FROM unnest(${offers.map((o) => o.id)}::uuid[], ${offers.map((o) => o.holdId)}::uuid[])
          AS x(id, hold)
       WHERE w.id = x.id AND w.status = 'waiting'`;
  }

  /**
   * The seats offered to each buyer (`<eventId>/<e-mail in lower case>`) by holds still open
   * (active, not expired), but those of `exceptHolds` (the holds a booking is taking now): what
   * the buyer holds towards the event's maxTicketsPerBuyer. Read under the buyers' locks.
   */
  async offeredTo(
    tx: Tx,
    tenantId: string,
    buyers: string[],
    exceptHolds: string[],
  ): Promise<Map<string, number>> {
    const rows = await tx.$queryRaw<{ buyer: string; n: number }[]>`
      SELECT w."eventId"::text || '/' || lower(w.email) AS buyer, sum(w.quantity)::int AS n
        FROM "WaitingListEntry" w
        JOIN "SeatHold" h ON h.id = w."holdId" AND h."tenantId" = w."tenantId"
       WHERE w."tenantId" = ${tenantId}
         AND w."eventId" = ANY(${[...new Set(buyers.map((k) => k.split('/')[0]))]}::uuid[])
         AND (w."eventId"::text || '/' || lower(w.email)) = ANY(${buyers}::text[])
         AND h.status = 'active' AND h."expiresAt" > (clock_timestamp() AT TIME ZONE 'UTC')
         AND h.token <> ALL(${exceptHolds}::text[])
       GROUP BY 1`;
    return new Map(rows.map((r) => [r.buyer, r.n]));
  }

  /** Ends an entry in one of the `from` statuses (left, removed); false when it was in none. */
  async end(
    tx: Tx,
    tenantId: string,
    id: string,
    status: 'left' | 'removed',
    from: string[],
  ): Promise<boolean> {
    const n = await tx.$executeRaw`
      UPDATE "WaitingListEntry" SET status = ${status}, "dateModified" = now()
       WHERE "tenantId" = ${tenantId} AND id = ${id}::uuid AND status = ANY(${from}::text[])`;
    return n > 0;
  }

  /** The type's waiting entries locked (in id order); their ids in list order. */
  async lockTypeWaiting(tx: Tx, tenantId: string, ticketTypeId: string): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string; rank: number }[]>`
      SELECT id::text, rank FROM "WaitingListEntry"
       WHERE "tenantId" = ${tenantId} AND "ticketTypeId" = ${ticketTypeId}::uuid
         AND status = 'waiting'
       ORDER BY id FOR UPDATE`;
    return rows.sort((a, b) => a.rank - b.rank).map((r) => r.id);
  }

  /** Gives the locked waiting entries the ranks 1..n in the order of `ids` (a move). */
  async rerank(tx: Tx, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await tx.$executeRaw`
      UPDATE "WaitingListEntry" w SET rank = x.rank, "dateModified" = now()
        FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS x(id, rank)
       WHERE w.id = x.id`;
  }
}
