import type { FreeSeats } from '../capacity/seat-admission';

/** A waiting entry as the allocation sees it. */
export interface WaitingSeats {
  id: string;
  ticketTypeId: string;
  quantity: number;
}

export interface ListAllocation {
  /** The entries that get an offer now (a hold of their quantity), in list order. */
  offers: WaitingSeats[];
  /** What is left for the public once the list has taken what it can use. */
  publicFree: FreeSeats;
}

/**
 * Who gets free seats first: the waiting list. Type by type (by id), each waiting entry in list
 * order takes its quantity when it fits into what is left of the type's quota and of the event's
 * capacity (the first entry that fits: a smaller one further down may go first); what no entry
 * can use is the public's. The offer sweeper offers exactly `offers`, and a public booking or hold
 * is admitted against `publicFree` computed the same way, so a freed seat goes to the list and
 * never to a buyer who happened to be faster than the sweeper. `waiting` is in list order per
 * type; types of `waiting` missing from `free` take nothing.
 */
export function allocateToList(free: FreeSeats, waiting: WaitingSeats[]): ListAllocation {
  const types = new Map(free.types);
  let event = free.event;
  const offers: WaitingSeats[] = [];
  const order = [...new Set(waiting.map((w) => w.ticketTypeId))].sort();
  for (const typeId of order) {
    if (!types.has(typeId)) continue;
    for (const w of waiting) {
      if (w.ticketTypeId !== typeId) continue;
      const left = types.get(typeId)!;
      if (left !== null && left < w.quantity) continue;
      if (event !== null && event < w.quantity) continue;
      offers.push(w);
      if (left !== null) types.set(typeId, left - w.quantity);
      if (event !== null) event -= w.quantity;
    }
  }
  return { offers, publicFree: { types, event } };
}
