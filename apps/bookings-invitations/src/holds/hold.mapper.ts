import type { SeatHold } from './dto/hold.output';
import type { HoldRow } from './holds.repository';

/** A hold as the API answers it (the token is the buyer's: only public answers carry holds). */
export function toSeatHold(h: Omit<HoldRow, 'id' | 'tenantId'>): SeatHold {
  return {
    token: h.token,
    eventId: h.eventId,
    status: h.status,
    expiresAt: h.expiresAt.toISOString(),
    tickets: h.seats.map((s) => ({ ticketTypeId: s.ticketTypeId, count: s.count })),
    bookingId: h.bookingId,
  };
}
