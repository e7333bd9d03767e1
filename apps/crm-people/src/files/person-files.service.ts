import { Inject, Injectable, Logger } from '@nestjs/common';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { PrismaService } from '../database/prisma.service';
import type { Tx } from '../database/tx';
import { profileImageFolder } from './files.storage';
import { isUuid } from '@crm/errors';

/** The stored files of people about to be deleted, to remove once the delete has committed. */
export interface PeopleFiles {
  tenantId: string;
  folders: string[];
  keys: string[];
}

/**
 * For person delete (P6, P10) and merge (P20): the bytes are not in the database, so the
 * cascade that removes PersonDocument rows cannot remove them. Call `collect` inside the delete's
 * transaction (before the rows go) and `remove` after it commits. Documents moved to another
 * person before the delete keep their files (they are no longer rows of the deleted person).
 */
@Injectable()
export class PersonFilesService {
  private readonly logger = new Logger('PersonFiles');

  constructor(
    private readonly prisma: PrismaService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  async collect(tenantId: string, personIds: string[], db: Tx = this.prisma): Promise<PeopleFiles> {
    const ids = personIds.filter((id) => isUuid(id));
    if (!ids.length) return { tenantId, folders: [], keys: [] };
    const [people, documents] = await Promise.all([
      db.person.findMany({
        where: { tenantId, id: { in: ids }, profileImage: { not: null } },
        select: { id: true, profileImage: true },
      }),
      db.personDocument.findMany({
        where: { tenantId, personId: { in: ids } },
        select: { storageKey: true },
      }),
    ]);
    return {
      tenantId,
      folders: people
        .filter((p) => isUuid(p.profileImage ?? ''))
        .map((p) => profileImageFolder(tenantId, p.id, p.profileImage!)),
      keys: documents.map((d) => d.storageKey),
    };
  }

  /** Best effort: a failure leaves unreachable bytes (logged), never a broken row. */
  async remove(files: PeopleFiles): Promise<void> {
    const jobs = [
      ...files.folders.map((f) => this.storage.deletePrefix(f)),
      ...files.keys.map((k) => this.storage.delete(k)),
    ];
    for (const r of await Promise.allSettled(jobs)) {
      if (r.status === 'rejected') this.logger.warn(`file clean-up failed: ${String(r.reason)}`);
    }
  }
}
