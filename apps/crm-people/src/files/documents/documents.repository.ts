import { Injectable } from '@nestjs/common';
import type { DocumentPageQuery, DocumentRecord, DocumentStore, NewDocumentRow } from '@crm/files';
import { PrismaService } from '../../database/prisma.service';
import type { Prisma } from '../../generated/prisma/client';
import type { PersonDocument } from './dto/person-document.dto';
import { toDocument } from './documents.mapper';
import type { Tx } from '../../database/tx';

/** PersonDocument rows for @crm/files; every query is scoped to the tenant and the person. */
@Injectable()
export class DocumentsRepository implements DocumentStore<PersonDocument, Tx> {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  ownerExists(tenantId: string, personId: string, db: Tx = this.prisma): Promise<boolean> {
    return db.person.count({ where: { tenantId, id: personId } }).then((n) => n > 0);
  }

  async page(
    tenantId: string,
    personId: string,
    opts: DocumentPageQuery,
  ): Promise<[PersonDocument[], number]> {
    const where: Prisma.PersonDocumentWhereInput = {
      tenantId,
      personId,
      ...(opts.q ? { fileName: { contains: opts.q, mode: 'insensitive' } } : {}),
    };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.personDocument.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
      }),
      this.prisma.personDocument.count({ where }),
    ]);
    return [rows.map(toDocument), total];
  }

  async find(
    tenantId: string,
    personId: string,
    id: string,
    db: Tx = this.prisma,
  ): Promise<DocumentRecord<PersonDocument> | null> {
    const row = await db.personDocument.findFirst({ where: { tenantId, personId, id } });
    return row
      ? {
          document: toDocument(row),
          storageKey: row.storageKey,
          fileName: row.fileName,
          contentType: row.contentType,
        }
      : null;
  }

  insert(tx: Tx, { ownerId, createdBy, ...row }: NewDocumentRow): Promise<PersonDocument> {
    return tx.personDocument
      .create({ data: { ...row, personId: ownerId, createdBy: createdBy.name } })
      .then(toDocument);
  }

  async delete(tx: Tx, tenantId: string, personId: string, id: string): Promise<void> {
    await tx.personDocument.deleteMany({ where: { tenantId, personId, id } });
  }
}
