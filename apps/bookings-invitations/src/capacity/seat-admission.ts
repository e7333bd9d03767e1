import { mergeSeats, SeatRequest, SoldOut } from './capacity.repository';

/** Seats still free when a batch starts: per ticket type and for the event; null is no limit. */
export interface FreeSeats {
  /** Ticket types of the event that exist; a type missing here sells nothing. */
  types: Map<string, number | null>;
  event: number | null;
}

/** Whether a booking's seats were admitted, or what stopped them. */
export type Admission = { admitted: true } | { admitted: false; soldOut: SoldOut };

/**
 * Decides a batch of bookings in the order they arrived, as one booking after the other would
 * have been decided: each takes all its seats or none (its quota rows first, sorted by id, then
 * the event's capacity, as CapacityRepository.take). A booking refused leaves its seats to the
 * ones after it. `free` is not changed.
 */
export function admitInOrder(bookings: SeatRequest[][], free: FreeSeats): Admission[] {
  const left = new Map(free.types);
  let eventLeft = free.event;
  return bookings.map((seats) => {
    const wanted = new Map(mergeSeats(seats).map((s) => [s.ticketTypeId, s.count]));
    for (const [ticketTypeId, count] of wanted) {
      if (!left.has(ticketTypeId)) return refuse({ kind: 'ticketType', ticketTypeId });
      const l = left.get(ticketTypeId)!;
      if (l !== null && l < count) return refuse({ kind: 'ticketType', ticketTypeId });
    }
    const total = [...wanted.values()].reduce((s, n) => s + n, 0);
    if (eventLeft !== null && eventLeft < total) return refuse({ kind: 'event' });
    for (const [ticketTypeId, count] of wanted) {
      const l = left.get(ticketTypeId)!;
      if (l !== null) left.set(ticketTypeId, l - count);
    }
    if (eventLeft !== null) eventLeft -= total;
    return { admitted: true };
  });
}

const refuse = (soldOut: SoldOut): Admission => ({ admitted: false, soldOut });
