import { Injectable, Logger } from '@nestjs/common';
import { ConsumeEvent, EventChangedEvent, EventContext, Subjects } from '@crm/messaging';
import { EventCopiesRepository } from './event-copies.repository';
import type { Tx } from '../database/tx';

const lower = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

/**
 * Feeds EventCopy from the events service's snapshots (each applied once: the handler runs in
 * the transaction that records the event id in ProcessedEvent). Deleted events and migrated
 * websites change more than the copies: src/cross-service handles them.
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
      websites: event.websites?.map((w) => ({ ...w, id: w.id.toLowerCase() })),
    });
    if (!applied) {
      this.logger.debug(`event ${event.eventId}: snapshot ${event.sequence} is not newer, dropped`);
    }
  }
}
