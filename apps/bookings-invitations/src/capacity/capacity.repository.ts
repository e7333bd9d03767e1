import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client';
import type { FreeSeats } from './seat-admission';
import type { Tx } from '../database/tx';

/** Tickets wanted of one ticket type. */
export interface SeatRequest {
  ticketTypeId: string;
  count: number;
}

/** What stopped a take: the ticket type's quota or the event's capacity. */
export type SoldOut = { kind: 'ticketType'; ticketTypeId: string } | { kind: 'event' };

/**
 * The capacity counters: TicketType.sold (a quota) and EventCopy.sold (the event's capacity),
 * and beside each `held`, the seats of active holds (holds/): free is limit - sold - held.
 * A take is one conditional UPDATE per row, `sold + held + n <= limit`, so the check and the write are
 * one statement and the row lock lasts from that statement to the commit. Callers take last in
 * their transaction (nothing slow after it: mails and messages go to outboxes) and always in
 * the same order (ticket types sorted by id, then the event), so two bookings cannot deadlock.
 */
@Injectable()
export class CapacityRepository {
  /**
   * Takes the seats or nothing: the first counter that cannot take its seats is returned (the
   * caller then rolls back its transaction, which undoes the takes before it).
   */
  async take(
    tx: Tx,
    tenantId: string,
    eventId: string,
    seats: SeatRequest[],
  ): Promise<SoldOut | null> {
    const merged = mergeSeats(seats);
    for (const { ticketTypeId, count } of merged) {
      const n = await tx.$executeRaw`
        UPDATE "TicketType" SET sold = sold + ${count}
         WHERE "tenantId" = ${tenantId} AND id = ${ticketTypeId}::uuid
           AND "eventId" = ${eventId}::uuid
           AND (quota IS NULL OR sold + held + ${count} <= quota)`;
      if (n === 0) return { kind: 'ticketType', ticketTypeId };
    }
    const total = merged.reduce((sum, s) => sum + s.count, 0);
    const n = await tx.$executeRaw`
      UPDATE "EventCopy" SET sold = sold + ${total}
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid AND NOT deleted
         AND (capacity IS NULL OR sold + held + ${total} <= capacity)`;
    return n === 0 ? { kind: 'event' } : null;
  }

  /**
   * For a batch of bookings (BookingBatchWriter): locks the counters of `ticketTypeIds` (sorted by
   * id) and then the event's, and says how many seats each has left; null when the event copy is
   * gone or deleted. The locks are held until the batch commits: one batch of an event at a time,
   * across replicas too. The batch then writes what it admitted with add().
   */
  lockFree(
    tx: Tx,
    tenantId: string,
    eventId: string,
    ticketTypeIds: string[],
  ): Promise<FreeSeats | null> {
    return this.freeSeats(tx, tenantId, eventId, ticketTypeIds, 'UPDATE');
  }

  /**
   * lockFree's answer under SHARE locks, in the same order: for a reader that writes no counter (a
   * waiting-list join) and must see no writer move them until it commits; such readers do not
   * wait for each other.
   */
  shareFree(
    tx: Tx,
    tenantId: string,
    eventId: string,
    ticketTypeIds: string[],
  ): Promise<FreeSeats | null> {
    return this.freeSeats(tx, tenantId, eventId, ticketTypeIds, 'SHARE');
  }

  /** The seats left of the types (sorted by id) and then of the event, locked FOR `lock`. */
  private async freeSeats(
    tx: Tx,
    tenantId: string,
    eventId: string,
    ticketTypeIds: string[],
    lock: 'UPDATE' | 'SHARE',
  ): Promise<FreeSeats | null> {
    const ids = [...new Set(ticketTypeIds.map((id) => id.toLowerCase()))].sort();
    // One statement (a batch waits for each round trip), the locks still in their order: the
    // event's row is locked only once its scan's filter has read `types`, which locks them all.
    const rows = await tx.$queryRaw<{ id: string | null; free: number | null }[]>`
      WITH types AS MATERIALIZED (
        SELECT id, quota - sold - held AS free FROM "TicketType"
         WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
           AND id = ANY(${ids}::uuid[])
         ORDER BY id FOR ${Prisma.raw(lock)}),
      event AS MATERIALIZED (
        SELECT capacity - sold - held AS free FROM "EventCopy"
         WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid AND NOT deleted
           AND (SELECT count(*) FROM types) >= 0
         FOR ${Prisma.raw(lock)})
      SELECT NULL AS id, free FROM event
      UNION ALL
      SELECT id::text, free FROM types`;
    const event = rows.find((r) => r.id === null);
    if (!event) return null;
    const types = rows.filter((r) => r.id !== null);
    return {
      types: new Map(types.map((t) => [t.id!, t.free === null ? null : Math.max(0, t.free)])),
      event: event.free === null ? null : Math.max(0, event.free),
    };
  }

  /**
   * Seats left of ticket types of the event, unlocked (null: no quota): under lockFree's lock of
   * the event, another type's counter changes only by a writer that also updates the event row
   * and so waits for this transaction; what is read here is what that row counts.
   */
  async peekFree(
    tx: Tx,
    tenantId: string,
    eventId: string,
    ticketTypeIds: string[],
  ): Promise<Map<string, number | null>> {
    if (!ticketTypeIds.length) return new Map();
    const rows = await tx.$queryRaw<{ id: string; free: number | null }[]>`
      SELECT id::text, quota - sold - held AS free FROM "TicketType"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
         AND id = ANY(${ticketTypeIds}::uuid[])`;
    return new Map(rows.map((t) => [t.id, t.free === null ? null : Math.max(0, t.free)]));
  }

  /** Counts seats decided under lockFree's locks as sold. */
  add(tx: Tx, tenantId: string, eventId: string, seats: SeatRequest[]): Promise<void> {
    return this.shift(tx, tenantId, eventId, { sold: seats }, true);
  }

  /**
   * Moves seats between sold and held under lockFree's locks (or taking the counters' locks in
   * the same order: ticket types by id, then the event): `held` seats are added to the holds'
   * count (negative: a hold confirmed, released or expired gives them back), `sold` to the sold
   * count. A hold that becomes a booking is `sold: n, held: -n` in one call. `locked`: the
   * caller holds lockFree's locks; else they are taken here first, in their order (a multi-row
   * UPDATE locks in no defined order, which could deadlock with a batch's lockFree).
   */
  async shift(
    tx: Tx,
    tenantId: string,
    eventId: string,
    change: { sold?: SeatRequest[]; held?: SeatRequest[] },
    locked = false,
  ): Promise<void> {
    const byType = new Map<string, { sold: number; held: number }>();
    const add = (seats: SeatRequest[] | undefined, k: 'sold' | 'held') => {
      for (const s of seats ?? []) {
        const id = s.ticketTypeId.toLowerCase();
        const e = byType.get(id) ?? { sold: 0, held: 0 };
        e[k] += s.count;
        byType.set(id, e);
      }
    };
    add(change.sold, 'sold');
    add(change.held, 'held');
    const rows = [...byType.entries()]
      .filter(([, e]) => e.sold !== 0 || e.held !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (!rows.length) return;
    if (!locked)
      await this.lockFree(
        tx,
        tenantId,
        eventId,
        rows.map(([id]) => id),
      );
    const sold = rows.reduce((n, [, e]) => n + e.sold, 0);
    const held = rows.reduce((n, [, e]) => n + e.held, 0);
    // Both counters in one statement (every row is locked already, so their order is free); the
    // event's is left alone when its seats do not change.
    await tx.$executeRaw`
      WITH types AS (
        UPDATE "TicketType" t SET sold = t.sold + s.sold, held = t.held + s.held
          FROM unnest(${rows.map(([id]) => id)}::uuid[], ${rows.map(([, e]) => e.sold)}::int[],
                      ${rows.map(([, e]) => e.held)}::int[]) AS s(id, sold, held)
         WHERE t."tenantId" = ${tenantId} AND t.id = s.id)
      UPDATE "EventCopy" SET sold = sold + ${sold}, held = held + ${held}
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
         AND (${sold}::int <> 0 OR ${held}::int <> 0)`;
  }

  /**
   * Gives seats back (cancelled tickets). Counters of a deleted ticket type or event copy are
   * simply gone; GREATEST keeps a counter from going below zero after a repair.
   */
  async release(tx: Tx, tenantId: string, eventId: string, seats: SeatRequest[]): Promise<void> {
    const merged = mergeSeats(seats);
    for (const { ticketTypeId, count } of merged) {
      await tx.$executeRaw`
        UPDATE "TicketType" SET sold = GREATEST(sold - ${count}, 0)
         WHERE "tenantId" = ${tenantId} AND id = ${ticketTypeId}::uuid`;
    }
    const total = merged.reduce((sum, s) => sum + s.count, 0);
    if (total > 0) {
      await tx.$executeRaw`
        UPDATE "EventCopy" SET sold = GREATEST(sold - ${total}, 0)
         WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid`;
    }
  }

  /**
   * BK15's repair: locks the counters of `ticketTypeIds` (sorted by id) and then the event's, in
   * the bookings' lock order, until the transaction ends.
   */
  async lockCounters(
    tx: Tx,
    tenantId: string,
    eventId: string,
    ticketTypeIds: string[],
  ): Promise<void> {
    await tx.$queryRaw`SELECT id FROM "TicketType" WHERE "tenantId" = ${tenantId}
        AND id = ANY(${ticketTypeIds}::uuid[]) ORDER BY id FOR UPDATE`;
    await tx.$queryRaw`SELECT 1 FROM "EventCopy" WHERE "tenantId" = ${tenantId}
        AND "eventId" = ${eventId}::uuid FOR UPDATE`;
  }

  /**
   * BK15: the counters of the ticket types and of the event next to what they count: `sold`
   * beside the valid tickets, `held` beside the seats of the active holds. `event` undefined when
   * the event copy is gone.
   */
  async soldAndValid(
    db: Tx,
    tenantId: string,
    eventId: string,
    ticketTypeIds: string[],
  ): Promise<{
    types: { id: string; sold: number; valid: number; held: number; holding: number }[];
    event: { sold: number; valid: number; held: number; holding: number } | undefined;
  }> {
    const types = await db.$queryRaw<
      { id: string; sold: number; valid: number; held: number; holding: number }[]
    >`
      SELECT tt.id::text, tt.sold, (SELECT count(*)::int FROM "EventTicket" t
          WHERE t."tenantId" = ${tenantId} AND t."ticketTypeId" = tt.id AND t.status = 'valid') AS valid,
             tt.held, (SELECT coalesce(sum((s->>'count')::int), 0)::int
                         FROM "SeatHold" h, jsonb_array_elements(h.seats) s
                        WHERE h."tenantId" = ${tenantId} AND h."eventId" = tt."eventId"
                          AND h.status = 'active' AND s->>'ticketTypeId' = tt.id::text) AS holding
        FROM "TicketType" tt WHERE tt."tenantId" = ${tenantId} AND tt.id = ANY(${ticketTypeIds}::uuid[])
       ORDER BY tt.id`;
    const [event] = await db.$queryRaw<
      { sold: number; valid: number; held: number; holding: number }[]
    >`
      SELECT c.sold, (SELECT count(*)::int FROM "EventTicket" t
          WHERE t."tenantId" = ${tenantId} AND t."eventId" = c."eventId" AND t.status = 'valid') AS valid,
             c.held, (SELECT coalesce(sum((s->>'count')::int), 0)::int
                        FROM "SeatHold" h, jsonb_array_elements(h.seats) s
                       WHERE h."tenantId" = ${tenantId} AND h."eventId" = c."eventId"
                         AND h.status = 'active') AS holding
        FROM "EventCopy" c WHERE c."tenantId" = ${tenantId} AND c."eventId" = ${eventId}::uuid`;
    return { types, event };
  }

  /** BK15's repair of a ticket type's held counter (under lockCounters' lock). */
  async setTypeHeld(tx: Tx, ticketTypeId: string, held: number): Promise<void> {
    await tx.ticketType.update({ where: { id: ticketTypeId }, data: { held } });
  }

  /** BK15's repair of the event's held counter (under lockCounters' lock). */
  async setEventHeld(tx: Tx, tenantId: string, eventId: string, held: number): Promise<void> {
    await tx.$executeRaw`UPDATE "EventCopy" SET held = ${held}
          WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid`;
  }

  /** BK15's repair of a ticket type's counter (under lockCounters' lock). */
  async setTypeSold(tx: Tx, ticketTypeId: string, sold: number): Promise<void> {
    await tx.ticketType.update({ where: { id: ticketTypeId }, data: { sold } });
  }

  /** BK15's repair of the event's counter (under lockCounters' lock). */
  async setEventSold(tx: Tx, tenantId: string, eventId: string, sold: number): Promise<void> {
    await tx.$executeRaw`UPDATE "EventCopy" SET sold = ${sold}
          WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid`;
  }
}

/** One entry per ticket type, sorted by id (the lock order), counts > 0 only. */
export function mergeSeats(seats: SeatRequest[]): SeatRequest[] {
  const byType = new Map<string, number>();
  for (const s of seats) {
    const id = s.ticketTypeId.toLowerCase();
    byType.set(id, (byType.get(id) ?? 0) + s.count);
  }
  return [...byType.entries()]
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([ticketTypeId, count]) => ({ ticketTypeId, count }));
}
