import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ConsumeEvent, EventContext, EventDuplicatedEvent, Subjects } from '@crm/messaging';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { eventFileKey } from './files.storage';
import { EventImagesService } from './images/gallery.services';
import type { Tx } from '../database/tx';

/** Who the copies are recorded as created by (no request: the service itself). */
const COPIER = { name: 'events (duplicate)', userId: null };

/**
 * E9: a duplicated event gets copies of its source's files and images, under new ids and new
 * storage keys (the copy can be changed or deleted without touching the source). Runs in the
 * transaction that records the event as processed, so a redelivery copies nothing twice; bytes
 * written before a failed commit are removed again.
 */
@Injectable()
export class EventCopyFiles {
  private readonly logger = new Logger(EventCopyFiles.name);

  constructor(
    private readonly images: EventImagesService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  // Alone in its transaction: the copies' bytes go to storage outside it, and a neighbour failing
  // in a shared batch would roll back their rows but leave the bytes behind.
  @ConsumeEvent(Subjects.events.eventDuplicated, EventDuplicatedEvent, { maxBatch: 1 })
  async onDuplicated(event: EventDuplicatedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const tenantId = event.tenantId;
    const source = event.sourceEventId.toLowerCase();
    const target = event.eventId.toLowerCase();
    if (source === target) return;
    // The copy locked (a concurrent upload waits); deleted meanwhile: nothing to copy to.
    const locked = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM "Event" WHERE "tenantId" = ${tenantId} AND "id" = ${target}::uuid FOR UPDATE`;
    if (!locked.length) return;
    const written: string[] = [];
    const folders: string[] = [];
    try {
      const files = await tx.eventFile.findMany({
        where: { tenantId, eventId: source },
        orderBy: { dateCreated: 'asc' },
      });
      for (const f of files) {
        const stored = await this.storage.get(f.storageKey);
        if (!stored) {
          this.logger.warn(`file ${f.id} of event ${source} has no bytes: not copied`);
          continue;
        }
        const id = randomUUID();
        const key = eventFileKey(tenantId, target, id);
        written.push(key);
        await this.storage.put(key, stored.stream, f.contentType);
        await tx.eventFile.create({
          data: {
            id,
            tenantId,
            eventId: target,
            fileName: f.fileName,
            contentType: f.contentType,
            size: f.size,
            storageKey: key,
            createdBy: COPIER.name,
          },
        });
      }
      const copied = await this.images.gallery.copyAll(tx, tenantId, source, target, COPIER);
      folders.push(...copied.folders);
      if (files.length || copied.copied) {
        this.logger.log(
          `event ${source} duplicated to ${target}: ${files.length} file(s), ${copied.copied} image(s) copied`,
        );
      }
    } catch (err) {
      await Promise.allSettled([
        ...written.map((k) => this.storage.delete(k)),
        ...folders.map((f) => this.images.gallery.removeFolder(f)),
      ]);
      throw err;
    }
  }
}
