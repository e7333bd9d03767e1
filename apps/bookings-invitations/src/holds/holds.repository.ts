import { Injectable } from '@nestjs/common';
import type { SeatRequest } from '../capacity/capacity.repository';
import { PrismaService } from '../database/prisma.service';
import { utcTimestamp } from '../database/utc-timestamp';
import { TX_OPTIONS } from '../bookings/bookings.repository';
import type { Tx } from '../database/tx';

export interface HoldRow {
  id: string;
  tenantId: string;
  eventId: string;
  token: string;
  /** Sorted by ticketTypeId, counts > 0. */
  seats: SeatRequest[];
  status: string;
  expiresAt: Date;
  bookingId: string | null;
}

/** A hold locked for a decision: `live` is the database clock's word on its expiry. */
export interface LockedHold extends HoldRow {
  live: boolean;
}

export type NewHoldRow = Omit<HoldRow, 'status' | 'bookingId'>;

const COLUMNS = `id::text, "tenantId", "eventId"::text, token, seats, status, "expiresAt",
  "bookingId"::text`;

/**
 * SeatHold rows. Status leaves `active` only under the row's lock (a booking's batch, a release,
 * the sweeper), each by an UPDATE that requires `active`: a hold ends exactly once. Expiry is
 * judged by the database's clock, so replicas agree on it.
 */
@Injectable()
export class HoldsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Holds of every tenant still holding seats (the operator's metrics). */
  countActive(): Promise<number> {
    return this.prisma.seatHold.count({ where: { status: 'active' } });
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, TX_OPTIONS);
  }

  /** A batch's new holds in one statement. */
  async insertMany(tx: Tx, rows: NewHoldRow[]): Promise<void> {
    if (!rows.length) return;
    await tx.$executeRaw`
      INSERT INTO "SeatHold" (id, "tenantId", "eventId", token, seats, status, "expiresAt",
        "dateCreated", "dateModified")
      SELECT x.id, x.tenant, x.event, x.token, x.seats, 'active', x.expires, now(), now()
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.tenantId)}::text[],
               ${rows.map((r) => r.eventId)}::uuid[], ${rows.map((r) => r.token)}::text[],
               ${rows.map((r) => JSON.stringify(r.seats))}::jsonb[],
               ${rows.map((r) => utcTimestamp(r.expiresAt))}::timestamp[])
          AS x(id, tenant, event, token, seats, expires)`;
  }

  /** The tenant's hold with this token, unlocked (null: none of the tenant's). */
  async find(tenantId: string, token: string): Promise<HoldRow | null> {
    const rows = await this.prisma.$queryRawUnsafe<HoldRow[]>(
      `SELECT ${COLUMNS} FROM "SeatHold" WHERE "tenantId" = $1 AND token = $2`,
      tenantId,
      token,
    );
    return rows[0] ?? null;
  }

  /** Holds of the event by token, unlocked: what a batch's checks may assume before locking. */
  async peek(tx: Tx, tenantId: string, eventId: string, tokens: string[]): Promise<HoldRow[]> {
    if (!tokens.length) return [];
    return tx.$queryRawUnsafe<HoldRow[]>(
      `SELECT ${COLUMNS} FROM "SeatHold"
        WHERE "tenantId" = $1 AND "eventId" = $2::uuid AND token = ANY($3::text[])`,
      tenantId,
      eventId,
      tokens,
    );
  }

  /** Holds of the event by token, locked in id order until the transaction ends. */
  async lock(tx: Tx, tenantId: string, eventId: string, tokens: string[]): Promise<LockedHold[]> {
    if (!tokens.length) return [];
    return tx.$queryRawUnsafe<LockedHold[]>(
      `SELECT ${COLUMNS}, "expiresAt" > (clock_timestamp() AT TIME ZONE 'UTC') AS live
         FROM "SeatHold"
        WHERE "tenantId" = $1 AND "eventId" = $2::uuid AND token = ANY($3::text[])
        ORDER BY id FOR UPDATE`,
      tenantId,
      eventId,
      tokens,
    );
  }

  /** Locked active holds that became bookings. */
  async confirm(tx: Tx, taken: { holdId: string; bookingId: string }[]): Promise<void> {
    if (!taken.length) return;
    await tx.$executeRaw`
      UPDATE "SeatHold" h SET status = 'confirmed', "bookingId" = x.booking, "dateModified" = now()
        FROM unnest(${taken.map((t) => t.holdId)}::uuid[], ${taken.map((t) => t.bookingId)}::uuid[])
          AS x(id, booking)
       WHERE h.id = x.id AND h.status = 'active'`;
  }

  /** Ends the tenant's active hold early; the hold as it was, null when it was not active. */
  async release(tx: Tx, tenantId: string, token: string): Promise<HoldRow | null> {
    const rows = await tx.$queryRawUnsafe<HoldRow[]>(
      `UPDATE "SeatHold" SET status = 'released', "dateModified" = now()
        WHERE "tenantId" = $1 AND token = $2 AND status = 'active'
        RETURNING ${COLUMNS}`,
      tenantId,
      token,
    );
    return rows[0] ?? null;
  }

  /**
   * Marks up to `limit` active holds past their expiry as expired and returns them, oldest
   * first. Holds locked elsewhere (a batch deciding on one) are skipped: the next sweep sees
   * them if they are still active then.
   */
  expireDue(tx: Tx, limit: number): Promise<HoldRow[]> {
    return tx.$queryRawUnsafe<HoldRow[]>(
      // picked once (a materialised CTE): a subquery may be rescanned, claiming more than `limit`
      `WITH due AS MATERIALIZED (SELECT id FROM "SeatHold"
                      WHERE status = 'active'
                        AND "expiresAt" <= (clock_timestamp() AT TIME ZONE 'UTC')
                      ORDER BY "expiresAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE "SeatHold" SET status = 'expired', "dateModified" = now()
        WHERE id IN (SELECT id FROM due)
        RETURNING ${COLUMNS}`,
      limit,
    );
  }
}
