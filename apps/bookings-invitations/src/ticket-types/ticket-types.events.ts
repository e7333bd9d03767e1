import { Injectable, Logger } from '@nestjs/common';
import { ConsumeEvent, EventContext, EventDuplicatedEvent, Subjects } from '@crm/messaging';
import { SigningKeys } from '../ticket-codes/signing-keys';
import { TicketTypesRepository } from './ticket-types.repository';
import type { Tx } from '../database/tx';

/**
 * E9: a duplicated event gets copies of its source's ticket types. Runs in the transaction that
 * records the event as processed, and each copy remembers its source (unique per target event),
 * so a redelivered or re-sent event copies nothing twice. The copy gets its own signing key.
 */
@Injectable()
export class TicketTypesEvents {
  private readonly logger = new Logger(TicketTypesEvents.name);

  constructor(
    private readonly repo: TicketTypesRepository,
    private readonly keys: SigningKeys,
  ) {}

  @ConsumeEvent(Subjects.events.eventDuplicated, EventDuplicatedEvent)
  async onDuplicated(event: EventDuplicatedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const source = event.sourceEventId.toLowerCase();
    const target = event.eventId.toLowerCase();
    if (source === target) return;
    const copied = await this.repo.copyAll(tx, event.tenantId, source, target);
    // the copy's tickets need the copy's own key, written with its first types (see SigningKeys)
    if (copied) await this.keys.ensure(tx, event.tenantId, target);
    if (copied)
      this.logger.log(`event ${source} duplicated to ${target}: ${copied} ticket type(s)`);
  }
}
