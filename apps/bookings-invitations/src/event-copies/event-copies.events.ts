import { Injectable, Logger } from '@nestjs/common';
import {
  ConsumeEvent,
  EventChangedEvent,
  EventContext,
  EventsDeletedEvent,
  Subjects,
  WebsiteMigratedEvent,
} from '@crm/messaging';
import { EventCopiesRepository, Tx } from './event-copies.repository';

const lower = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

/**
 * Feeds EventCopy from the events service's outbox events (each applied once: the handler runs
 * in the transaction that records the event id in ProcessedEvent).
 */
@Injectable()
export class EventCopiesEvents {
  private readonly logger = new Logger(EventCopiesEvents.name);

  constructor(private readonly copies: EventCopiesRepository) {}

  @ConsumeEvent(Subjects.events.eventChanged, EventChangedEvent)
  async onChanged(event: EventChangedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const applied = await this.copies.applySnapshot(tx, {
      ...event,
      eventId: event.eventId.toLowerCase(),
      websiteIds: lower(event.websiteIds).sort(),
    });
    if (!applied) {
      this.logger.debug(`event ${event.eventId}: snapshot ${event.sequence} is not newer, dropped`);
    }
  }

  /**
   * Events deleted: the copies are marked deleted and their ticket types go. Stage 2: bookings
   * are cancelled, tickets revoked and invitations withdrawn here as well.
   */
  @ConsumeEvent(Subjects.events.eventsDeleted, EventsDeletedEvent)
  async onDeleted(event: EventsDeletedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const ids = lower(event.eventIds);
    await this.copies.markDeleted(tx, event.tenantId, ids);
    await tx.ticketType.deleteMany({ where: { tenantId: event.tenantId, eventId: { in: ids } } });
  }

  @ConsumeEvent(Subjects.events.websiteMigrated, WebsiteMigratedEvent)
  async onWebsiteMigrated(event: WebsiteMigratedEvent, { tx }: EventContext<Tx>): Promise<void> {
    await this.copies.migrateWebsite(
      tx,
      event.tenantId,
      lower(event.eventIds),
      event.websiteId.toLowerCase(),
      event.targetWebsiteId.toLowerCase(),
    );
  }
}
