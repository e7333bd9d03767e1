import { Inject, Injectable, Logger } from '@nestjs/common';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { websiteFilesPrefix } from '../files/files.storage';

const AT_ONCE = 20;

/**
 * After a website delete has committed, its stored images go. A failure leaves bytes nobody
 * can reach any more (logged), never a website without its files, so the delete still succeeds.
 */
@Injectable()
export class WebsiteFilesCleanup {
  private readonly logger = new Logger(WebsiteFilesCleanup.name);

  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async removeWebsites(tenantId: string, websiteIds: string[]): Promise<void> {
    for (let i = 0; i < websiteIds.length; i += AT_ONCE) {
      const chunk = websiteIds.slice(i, i + AT_ONCE);
      const results = await Promise.allSettled(
        chunk.map((id) => this.storage.deletePrefix(websiteFilesPrefix(tenantId, id))),
      );
      results.forEach((r, j) => {
        if (r.status === 'rejected') {
          const reason = r.reason instanceof Error ? r.reason.message : String(r.reason);
          this.logger.warn(`files of website ${chunk[j]} not removed: ${reason}`);
        }
      });
    }
  }
}
