import { Injectable } from '@nestjs/common';
import {
  BookingCancelledEvent,
  BookingCreatedEvent,
  CompaniesDeletedEvent,
  ConsumeEvent,
  ConsumeEventOptions,
  EventContext,
  EventPublishedEvent,
  EventsDeletedEvent,
  InvitationRespondedEvent,
  PeopleCreatedEvent,
  PeopleDeletedEvent,
  requestHeaders,
  Subjects,
  TicketCheckedInEvent,
  VisitorActivity,
  WebsiteMigratedEvent,
} from '@crm/messaging';
import type { Tx } from '../database/tx';
import type { Prisma } from '../generated/prisma/client';
import { messageIdOf, timeOfEventId, WebhookEventType } from './webhook-rules';
import { WebhooksRepository } from './webhooks.repository';

type Ctx = EventContext<Tx>;

/** What every visitor activity of bookings-invitations carries into its webhook's data. */
const visitor = (e: VisitorActivity) => ({
  eventId: e.eventId,
  eventTitle: e.eventTitle,
  personId: e.personId ?? null,
  at: e.at,
});

/** The delivery of an event that happened while its endpoint was disabled: kept for I5. */
const NOT_SENT = 'Not sent: the endpoint was disabled (replay it with I5 once enabled)';

/**
 * A source event of a tenant without an endpoint subscribed to `type` is skipped before any
 * transaction: acked with nothing stored and nothing locked.
 */
const ifSubscribed = (
  type: WebhookEventType,
): ConsumeEventOptions<{ tenantId: string }, WebhookFanout> => ({
  concerns: (e, fanout) => fanout.isSubscribed(e.tenantId, type),
});

/**
 * Turns the platform's outbox events (JetStream, durable consumers: nothing is lost while this
 * service is down) into webhook messages. One source event makes one message of its tenant (id
 * derived from the source event id) and one delivery per endpoint subscribed to the type, in the
 * consumer's transaction: due now for an enabled endpoint; `failed` without an attempt for a
 * disabled one, so that after a fix and I2 enable, I5 replays what it missed. An endpoint gets
 * what happened after it was registered: a backlog consumed late (after a burst, or this service
 * down) does not flood an endpoint registered meanwhile with older events. A tenant without a
 * subscribed endpoint gets nothing stored, and costs no transaction (ifSubscribed).
 */
@Injectable()
export class WebhookFanout {
  /** Lookups under way, by tenant and type (see isSubscribed). */
  private readonly lookups = new Map<string, Promise<boolean>>();

  constructor(private readonly repo: WebhooksRepository) {}

  /**
   * Whether the tenant has an endpoint (enabled or not) subscribed to the type, read from the
   * database each time, never cached: an endpoint registered a moment ago counts for the next
   * event. The checks of one batch run at the same time and share one query per tenant and type;
   * a query is forgotten once it answers, so no check ever uses an answer read before its event
   * arrived (a type has one source subject, whose batches are checked one after the other).
   */
  isSubscribed(tenantId: string, type: WebhookEventType): Promise<boolean> {
    const key = `${tenantId}\n${type}`;
    let lookup = this.lookups.get(key);
    if (!lookup) {
      lookup = this.repo
        .hasSubscribedEndpoint(tenantId, type)
        .finally(() => this.lookups.delete(key));
      this.lookups.set(key, lookup);
    }
    return lookup;
  }

  /**
   * Stores the message and its deliveries in `tx`. Public so that a handler of the same subject
   * written for another purpose (one handler per subject and service) can call it too.
   */
  async fanOut(
    tx: Tx,
    tenantId: string,
    type: WebhookEventType,
    sourceEventId: string,
    data: Prisma.InputJsonObject,
  ): Promise<number> {
    const id = messageIdOf(sourceEventId, type);
    const occurredAt = timeOfEventId(sourceEventId);
    // the consumer applies the event as part of the request that wrote it: its deliveries too
    const headers = requestHeaders();
    return this.repo.fanOut(
      tx,
      {
        id,
        tenantId,
        type,
        payload: { type, timestamp: occurredAt.toISOString(), data },
        headers,
        occurredAt,
      },
      new Date(),
      NOT_SENT,
    );
  }

  @ConsumeEvent(
    Subjects.crmPeople.peopleCreated,
    PeopleCreatedEvent,
    ifSubscribed('person.created'),
  )
  async onPeopleCreated(e: PeopleCreatedEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'person.created', eventId, { personIds: e.personIds });
  }

  @ConsumeEvent(
    Subjects.crmPeople.peopleDeleted,
    PeopleDeletedEvent,
    ifSubscribed('person.deleted'),
  )
  async onPeopleDeleted(e: PeopleDeletedEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'person.deleted', eventId, { personIds: e.personIds });
  }

  @ConsumeEvent(
    Subjects.crmCompanies.companiesDeleted,
    CompaniesDeletedEvent,
    ifSubscribed('company.deleted'),
  )
  async onCompaniesDeleted(e: CompaniesDeletedEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'company.deleted', eventId, { companyIds: e.companyIds });
  }

  @ConsumeEvent(
    Subjects.events.eventPublished,
    EventPublishedEvent,
    ifSubscribed('event.published'),
  )
  async onEventPublished(e: EventPublishedEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'event.published', eventId, {
      eventId: e.eventId,
      title: e.title,
      startsAt: e.startsAt ?? null,
      websiteIds: e.websiteIds,
    });
  }

  @ConsumeEvent(Subjects.events.eventsDeleted, EventsDeletedEvent, ifSubscribed('event.deleted'))
  async onEventsDeleted(e: EventsDeletedEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'event.deleted', eventId, { eventIds: e.eventIds });
  }

  @ConsumeEvent(
    Subjects.events.websiteMigrated,
    WebsiteMigratedEvent,
    ifSubscribed('website.migrated'),
  )
  async onWebsiteMigrated(e: WebsiteMigratedEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'website.migrated', eventId, {
      websiteId: e.websiteId,
      targetWebsiteId: e.targetWebsiteId,
      eventIds: e.eventIds,
    });
  }

  @ConsumeEvent(
    Subjects.bookingsInvitations.bookingCreated,
    BookingCreatedEvent,
    ifSubscribed('booking.created'),
  )
  async onBookingCreated(e: BookingCreatedEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'booking.created', eventId, {
      bookingId: e.bookingId,
      ...visitor(e),
      tickets: e.tickets,
      totalGross: e.totalGross,
      currency: e.currency,
      invitationId: e.invitationId ?? null,
    });
  }

  @ConsumeEvent(
    Subjects.bookingsInvitations.bookingCancelled,
    BookingCancelledEvent,
    ifSubscribed('booking.cancelled'),
  )
  async onBookingCancelled(e: BookingCancelledEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'booking.cancelled', eventId, {
      bookingId: e.bookingId,
      ...visitor(e),
      cancellationFee: e.cancellationFee,
      refundAmount: e.refundAmount,
      reason: e.reason,
    });
  }

  @ConsumeEvent(
    Subjects.bookingsInvitations.invitationRejected,
    InvitationRespondedEvent,
    ifSubscribed('invitation.rejected'),
  )
  async onInvitationRejected(e: InvitationRespondedEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'invitation.rejected', eventId, {
      invitationId: e.invitationId,
      ...visitor(e),
    });
  }

  @ConsumeEvent(
    Subjects.bookingsInvitations.ticketCheckedIn,
    TicketCheckedInEvent,
    ifSubscribed('ticket.checked_in'),
  )
  async onTicketCheckedIn(e: TicketCheckedInEvent, { tx, eventId }: Ctx) {
    await this.fanOut(tx, e.tenantId, 'ticket.checked_in', eventId, {
      ticketId: e.ticketId,
      bookingId: e.bookingId,
      ...visitor(e),
      location: e.location ?? null,
    });
  }
}
