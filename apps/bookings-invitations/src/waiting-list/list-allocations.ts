import { Injectable } from '@nestjs/common';
import { CapacityRepository } from '../capacity/capacity.repository';
import type { FreeSeats } from '../capacity/seat-admission';
import { allocateToList, ListAllocation, WaitingSeats } from './list-allocation';
import { WaitingListRepository } from './waiting-list.repository';
import type { Tx } from '../database/tx';

/**
 * The free seats of an event split between its waiting list and the public (allocateToList),
 * read under lockFree's locks of the event: a public booking's batch, a join and the offer
 * sweeper all decide on the same split.
 */
@Injectable()
export class ListAllocations {
  constructor(
    private readonly entries: WaitingListRepository,
    private readonly capacity: CapacityRepository,
  ) {}

  /**
   * `free` as lockFree answered it for some types of the event; the split over those types (the
   * other waiting types of the event are read too: they share the event's capacity).
   */
  async split(
    tx: Tx,
    tenantId: string,
    eventId: string,
    free: FreeSeats,
    waiting?: WaitingSeats[],
  ): Promise<ListAllocation> {
    const entries = waiting ?? (await this.entries.waitingOf(tx, tenantId, eventId));
    if (!entries.length) return { offers: [], publicFree: free };
    const others = [...new Set(entries.map((e) => e.ticketTypeId))].filter(
      (id) => !free.types.has(id),
    );
    const all: FreeSeats = others.length
      ? {
          types: new Map([
            ...free.types,
            ...(await this.capacity.peekFree(tx, tenantId, eventId, others)),
          ]),
          event: free.event,
        }
      : free;
    const split = allocateToList(all, entries);
    return {
      offers: split.offers,
      publicFree: {
        types: new Map([...free.types.keys()].map((id) => [id, split.publicFree.types.get(id)!])),
        event: split.publicFree.event,
      },
    };
  }
}
