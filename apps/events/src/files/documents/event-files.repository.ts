import { Injectable } from '@nestjs/common';
import type { DocumentPageQuery, DocumentRecord, DocumentStore, NewDocumentRow } from '@crm/files';
import { PrismaService } from '../../database/prisma.service';
import type { EventFile as FileRow, Prisma } from '../../generated/prisma/client';
import type { EventFileOutput } from './dto/event-file.output';
import type { Tx } from '../../database/tx';

export const eventFileUrl = (eventId: string, id: string) =>
  `/v1/crm/events/${eventId}/files/${id}`;

export function toEventFile(r: FileRow): EventFileOutput {
  return {
    id: r.id,
    eventId: r.eventId,
    fileName: r.fileName,
    contentType: r.contentType,
    size: r.size,
    url: eventFileUrl(r.eventId, r.id),
    createdBy: r.createdBy,
    dateCreated: r.dateCreated.toISOString(),
  };
}

/** EventFile rows for @crm/files; every query is scoped to the tenant and the event. */
@Injectable()
export class EventFilesRepository implements DocumentStore<EventFileOutput, Tx> {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  ownerExists(tenantId: string, eventId: string, db: Tx = this.prisma): Promise<boolean> {
    return db.event.count({ where: { tenantId, id: eventId } }).then((n) => n > 0);
  }

  async page(
    tenantId: string,
    eventId: string,
    opts: DocumentPageQuery,
  ): Promise<[EventFileOutput[], number]> {
    const where: Prisma.EventFileWhereInput = {
      tenantId,
      eventId,
      ...(opts.q ? { fileName: { contains: opts.q, mode: 'insensitive' } } : {}),
    };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.eventFile.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
      }),
      this.prisma.eventFile.count({ where }),
    ]);
    return [rows.map(toEventFile), total];
  }

  async find(
    tenantId: string,
    eventId: string,
    id: string,
    db: Tx = this.prisma,
  ): Promise<DocumentRecord<EventFileOutput> | null> {
    const row = await db.eventFile.findFirst({ where: { tenantId, eventId, id } });
    return row
      ? {
          document: toEventFile(row),
          storageKey: row.storageKey,
          fileName: row.fileName,
          contentType: row.contentType,
        }
      : null;
  }

  insert(tx: Tx, { ownerId, createdBy, ...row }: NewDocumentRow): Promise<EventFileOutput> {
    return tx.eventFile
      .create({ data: { ...row, eventId: ownerId, createdBy: createdBy.name } })
      .then(toEventFile);
  }

  async delete(tx: Tx, tenantId: string, eventId: string, id: string): Promise<void> {
    await tx.eventFile.deleteMany({ where: { tenantId, eventId, id } });
  }
}
