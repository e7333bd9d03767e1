import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConsumeEvent, EventsDeletedEvent, Subjects } from '@crm/messaging';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { eventFilesPrefix } from './files.storage';

const AT_ONCE = 20;

/**
 * E5, E6: deleted events lose their rows of files and images by cascade in the delete's
 * transaction; their bytes go here, once the deletion is announced through the outbox (so the
 * events domain needs to know nothing of the storage). A failure leaves unreachable bytes
 * (logged); the event is not redelivered for it.
 */
@Injectable()
export class EventFilesCleanup {
  private readonly logger = new Logger(EventFilesCleanup.name);

  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  @ConsumeEvent(Subjects.events.eventsDeleted, EventsDeletedEvent)
  async onEventsDeleted(event: EventsDeletedEvent): Promise<void> {
    const ids = event.eventIds.map((id) => id.toLowerCase());
    for (let i = 0; i < ids.length; i += AT_ONCE) {
      const chunk = ids.slice(i, i + AT_ONCE);
      const results = await Promise.allSettled(
        chunk.map((id) => this.storage.deletePrefix(eventFilesPrefix(event.tenantId, id))),
      );
      results.forEach((r, j) => {
        if (r.status === 'rejected') {
          const reason = r.reason instanceof Error ? r.reason.message : String(r.reason);
          this.logger.warn(`files of event ${chunk[j]} not removed: ${reason}`);
        }
      });
    }
  }
}
