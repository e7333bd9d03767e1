import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import { EventsExistReply, EventsExistRequest, MessageBus, Subjects } from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';
import { EventCopiesRepository, EventCopyRecord } from './event-copies.repository';
import type { Tx } from '../database/tx';

/**
 * Whether an event is the tenant's: this service's copy answers first; an event whose copy has
 * not arrived yet (just created) is asked of the events service over NATS (no answer in time:
 * 503 naming events). A deleted or unknown event, or another tenant's, is a 404.
 */
@Injectable()
export class EventLookup {
  constructor(
    private readonly copies: EventCopiesRepository,
    private readonly bus: MessageBus,
    private readonly i18n: I18nService,
  ) {}

  notFound(ctx: RequestContext, eventId: string): AppException {
    const resource = this.i18n.t('tickets.resource.event', { lang: ctx.language });
    return AppException.notFound(resource as string, eventId);
  }

  /** The copy of the event (null when the events service confirmed an event not yet copied). */
  async require(ctx: RequestContext, eventId: string): Promise<EventCopyRecord | null> {
    if (!isUuid(eventId)) throw this.notFound(ctx, eventId);
    const id = eventId.toLowerCase();
    const copy = await this.copies.find(ctx.tenantId, id);
    if (copy) {
      if (copy.deleted) throw this.notFound(ctx, eventId);
      return copy;
    }
    const ask: EventsExistRequest = { tenantId: ctx.tenantId, eventIds: [id] };
    const reply = await this.bus.request<EventsExistReply>(Subjects.events.eventsExist, ask);
    if (!Array.isArray(reply?.missingEventIds)) {
      throw new AppException(
        // an answer this service cannot read is no confirmation
        ErrorCode.SERVICE_UNAVAILABLE,
        'errors.dependency.unavailable',
        { service: 'events' },
      );
    }
    if (reply.missingEventIds.map((m) => m.toLowerCase()).includes(id)) {
      throw this.notFound(ctx, eventId);
    }
    return null;
  }

  /**
   * In the transaction of a write for the event: 404 when the event was deleted since require(),
   * and the copy held so that a deletion arriving now waits and then removes what was written.
   */
  async holdInTx(tx: Tx, ctx: RequestContext, eventId: string): Promise<void> {
    if (await this.copies.deletedForShare(tx, ctx.tenantId, eventId.toLowerCase())) {
      throw this.notFound(ctx, eventId);
    }
  }

  /** The copy, if any (reads of ticket types need no confirmation from events). */
  find(tenantId: string, eventId: string): Promise<EventCopyRecord | null> {
    return this.copies.find(tenantId, eventId.toLowerCase());
  }
}
