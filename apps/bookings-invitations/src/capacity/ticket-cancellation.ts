import { Injectable } from '@nestjs/common';
import { EventTicketsRepository } from '../event-tickets/event-tickets.repository';
import { CapacityRepository, SeatRequest } from './capacity.repository';
import type { Tx } from '../database/tx';

export interface CancelledTickets {
  /** The tickets this call cancelled (valid before), by id. */
  ticketIds: string[];
  /** Their booking ids (distinct). */
  bookingIds: string[];
}

/**
 * Cancels tickets and frees their seats at once, in the caller's transaction: used by a
 * booking's cancellation (BK8), a status change of tickets (ET5), a rejected invitation (IN2)
 * and a deleted event. Only valid tickets change (a second call frees nothing twice); each
 * cancelled ticket is revoked (ET13's list) from now.
 */
@Injectable()
export class TicketCancellation {
  constructor(
    private readonly capacity: CapacityRepository,
    private readonly tickets: EventTicketsRepository,
  ) {}

  async cancel(tx: Tx, tenantId: string, ticketIds: string[]): Promise<CancelledTickets> {
    if (!ticketIds.length) return { ticketIds: [], bookingIds: [] };
    const rows = await this.tickets.cancelValid(tx, tenantId, ticketIds);
    const byEvent = new Map<string, SeatRequest[]>();
    for (const r of rows) {
      const seats = byEvent.get(r.eventId) ?? [];
      seats.push({ ticketTypeId: r.ticketTypeId, count: 1 });
      byEvent.set(r.eventId, seats);
    }
    for (const [eventId, seats] of [...byEvent.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await this.capacity.release(tx, tenantId, eventId, seats);
    }
    return {
      ticketIds: rows.map((r) => r.id),
      bookingIds: [...new Set(rows.map((r) => r.bookingId))],
    };
  }
}
