import { Inject, Injectable, Logger } from '@nestjs/common';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { eventFilesPrefix } from './files.storage';

const AT_ONCE = 20;

/**
 * E5, E6: deleted events lose their file and image rows by cascade in the delete's transaction;
 * the delete calls this after the commit to remove their bytes (every file of an event lives
 * under eventFilesPrefix). A failure leaves unreachable bytes (logged), never an event without
 * its files, so the delete still succeeds.
 */
@Injectable()
export class EventFilesCleanup {
  private readonly logger = new Logger(EventFilesCleanup.name);

  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async removeEvents(tenantId: string, eventIds: readonly string[]): Promise<void> {
    const ids = eventIds.map((id) => id.toLowerCase());
    for (let i = 0; i < ids.length; i += AT_ONCE) {
      const chunk = ids.slice(i, i + AT_ONCE);
      const results = await Promise.allSettled(
        chunk.map((id) => this.storage.deletePrefix(eventFilesPrefix(tenantId, id))),
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
