import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { acrossTenants, asTenant } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { BookingMails } from '../bookings/booking-mails';
import { CapacityRepository } from '../capacity/capacity.repository';
import { SweepLoop } from '../common/sweep-loop';
import type { BookingsInvitationsConfig } from '../config';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import type { EventCopy } from '../generated/prisma/client';
import { HoldsRepository, NewHoldRow } from '../holds/holds.repository';
import { linkTemplateOf, publicLink } from '../invitations/invitation-mail-text';
import { MailsRepository } from '../mails/mails.repository';
import { TicketTypesRepository } from '../ticket-types/ticket-types.repository';
import { ListAllocations } from './list-allocations';
import { LockedEntry, WaitingListRepository } from './waiting-list.repository';
import type { Tx } from '../database/tx';

/** Events offered to per sweep (each in its own transaction). */
const EVENTS_PER_SWEEP = 20;

/**
 * Offers free seats to the waiting lists, with the holds' sweep (SALE_SWEEP_INTERVAL_MS) on every
 * replica. It looks at the counters, not at what freed a seat (a cancellation, an expired or
 * released hold, a payment deadline, a raised quota or capacity): an event whose counters leave
 * room for a waiting entry is decided under the counters' locks, as a booking's batch would be,
 * and each entry allocateToList picks gets a hold of its quantity (the offer, expiring after the
 * event's waitingListOfferMinutes, never after its start) and a mail with its link. The holds
 * count as held at once; an offer not booked in time expires with the holds' sweep and its seats
 * go to the next entry on the following sweep. Everything is in the database: a restart loses
 * nothing, and two replicas sweeping at once wait on the same locks (never offer a seat twice).
 */
@Injectable()
export class WaitingListOffers implements OnModuleInit, OnModuleDestroy {
  private readonly loop: SweepLoop;

  constructor(
    private readonly entries: WaitingListRepository,
    private readonly lists: ListAllocations,
    private readonly capacity: CapacityRepository,
    private readonly holds: HoldsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly types: TicketTypesRepository,
    private readonly mails: BookingMails,
    private readonly mailbox: MailsRepository,
    @Inject(SERVICE_CONFIG) private readonly config: BookingsInvitationsConfig,
  ) {
    this.loop = new SweepLoop(
      new Logger(WaitingListOffers.name),
      config.SALE_SWEEP_INTERVAL_MS,
      async () => (await this.sweep()).events === EVENTS_PER_SWEEP,
    );
  }

  onModuleInit(): void {
    this.loop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One sweep: the events with room for an entry (found across tenants), each offered to as its
   * tenant; how many were looked at and offers made.
   */
  async sweep(): Promise<{ events: number; offers: number }> {
    const due = await acrossTenants(
      'lookup of events with seats for their waiting list',
      async () => this.entries.eventsToOffer(EVENTS_PER_SWEEP),
    );
    let offers = 0;
    for (const { tenantId, eventId } of due)
      offers += await asTenant(tenantId, async () =>
        this.entries.transaction((tx) => this.offer(tx, tenantId, eventId)),
      );
    return { events: due.length, offers };
  }

  /** Under the event's counters' locks: offers what the list can use; how many offers. */
  private async offer(tx: Tx, tenantId: string, eventId: string): Promise<number> {
    const event = await this.copies.find(tenantId, eventId, tx);
    if (!event || event.deleted) return 0;
    const typeIds = [
      ...new Set((await this.entries.waitingOf(tx, tenantId, eventId)).map((e) => e.ticketTypeId)),
    ];
    const free = await this.capacity.lockFree(tx, tenantId, eventId, typeIds);
    if (!free) return 0;
    const waiting = await this.entries.lockWaiting(tx, tenantId, eventId);
    const split = await this.lists.split(tx, tenantId, eventId, free, waiting);
    // a type that got its first entry since waitingOf is not locked: the next sweep offers it
    const offers = split.offers.filter((o) => free.types.has(o.ticketTypeId));
    if (!offers.length) return 0;
    const byId = new Map(waiting.map((w) => [w.id, w]));
    const chosen = offers.map((o) => byId.get(o.id)!);
    const expiresAt = offerExpiry(event, new Date());
    const holds: NewHoldRow[] = chosen.map((e) => ({
      id: randomUUID(),
      tenantId,
      eventId,
      token: randomBytes(16).toString('base64url'),
      seats: [{ ticketTypeId: e.ticketTypeId, count: e.quantity }],
      expiresAt,
    }));
    await this.holds.insertMany(tx, holds);
    await this.capacity.shift(tx, tenantId, eventId, { held: holds.flatMap((h) => h.seats) }, true);
    await this.entries.markOffered(
      tx,
      chosen.map((e, i) => ({ id: e.id, holdId: holds[i].id })),
    );
    await this.mailbox.enqueueMany(tx, await this.offerMails(tx, event, chosen, expiresAt));
    return chosen.length;
  }

  private async offerMails(tx: Tx, event: EventCopy, chosen: LockedEntry[], until: Date) {
    const ids = [...new Set(chosen.map((e) => e.ticketTypeId))];
    const names = new Map(
      (await this.types.findMany(event.tenantId, event.eventId, ids, tx)).map((t) => [
        t.id,
        t.name,
      ]),
    );
    return chosen.map((e) => {
      // PUBLIC_WAITING_LIST_URL is never empty: an offer is made by the sweeper, nobody to refuse
      const template =
        linkTemplateOf(e, event.waitingListLinks, this.config.PUBLIC_WAITING_LIST_URL) ??
        this.config.PUBLIC_WAITING_LIST_URL;
      return this.mails.waitingListOffer(
        {
          tenantId: event.tenantId,
          language: e.language,
          email: e.email,
          name: `${e.firstname} ${e.lastname}`,
          quantity: e.quantity,
          typeName: names.get(e.ticketTypeId) ?? '',
        },
        event,
        until,
        publicLink(template, e.token),
      );
    });
  }
}

/** An offer waits the event's waitingListOfferMinutes, but never past the event's start. */
export function offerExpiry(
  event: Pick<EventCopy, 'waitingListOfferMinutes' | 'startsAt'>,
  now: Date,
): Date {
  const at = now.getTime() + event.waitingListOfferMinutes * 60_000;
  return new Date(event.startsAt ? Math.min(at, event.startsAt.getTime()) : at);
}
