import { Injectable } from '@nestjs/common';
import type { DocumentPageQuery, DocumentRecord, DocumentStore, NewDocumentRow } from '@crm/files';
import { PrismaService } from '../../database/prisma.service';
import type { Prisma } from '../../generated/prisma/client';
import type { CompanyDocument } from './dto/company-document.output';
import { toDocument } from './documents.mapper';
import type { Tx } from '../../database/tx';

/** CompanyDocument rows for @crm/files; every query is scoped to the tenant and the company. */
@Injectable()
export class DocumentsRepository implements DocumentStore<CompanyDocument, Tx> {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  ownerExists(tenantId: string, companyId: string, db: Tx = this.prisma): Promise<boolean> {
    return db.company.count({ where: { tenantId, id: companyId } }).then((n) => n > 0);
  }

  async page(
    tenantId: string,
    companyId: string,
    opts: DocumentPageQuery,
  ): Promise<[CompanyDocument[], number]> {
    const where: Prisma.CompanyDocumentWhereInput = {
      tenantId,
      companyId,
      ...(opts.q ? { fileName: { contains: opts.q, mode: 'insensitive' } } : {}),
    };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.companyDocument.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
      }),
      this.prisma.companyDocument.count({ where }),
    ]);
    return [rows.map(toDocument), total];
  }

  async find(
    tenantId: string,
    companyId: string,
    id: string,
    db: Tx = this.prisma,
  ): Promise<DocumentRecord<CompanyDocument> | null> {
    const row = await db.companyDocument.findFirst({ where: { tenantId, companyId, id } });
    return row
      ? {
          document: toDocument(row),
          storageKey: row.storageKey,
          fileName: row.fileName,
          contentType: row.contentType,
        }
      : null;
  }

  insert(tx: Tx, { ownerId, createdBy, ...row }: NewDocumentRow): Promise<CompanyDocument> {
    return tx.companyDocument
      .create({ data: { ...row, companyId: ownerId, createdBy: createdBy.name } })
      .then(toDocument);
  }

  async delete(tx: Tx, tenantId: string, companyId: string, id: string): Promise<void> {
    await tx.companyDocument.deleteMany({ where: { tenantId, companyId, id } });
  }
}
