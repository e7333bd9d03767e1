import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service';
import type { Prisma } from '../../generated/prisma/client';
import type { CompanyDocument } from './dto/company-document.output';
import { toDocument } from './documents.mapper';

export type Tx = Prisma.TransactionClient;

export const DOCUMENT_SORT_FIELDS = [
  'fileName',
  'contentType',
  'size',
  'dateCreated',
  'id',
] as const;

/** A stored document: what the API shows and where its bytes are. */
export interface DocumentRecord {
  document: CompanyDocument;
  storageKey: string;
}

/** CompanyDocument rows; every query is scoped to the tenant and the company. */
@Injectable()
export class DocumentsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  async page(
    tenantId: string,
    companyId: string,
    opts: {
      skip: number;
      take: number;
      orderBy: Prisma.CompanyDocumentOrderByWithRelationInput[];
      q?: string;
    },
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
  ): Promise<DocumentRecord | null> {
    const row = await db.companyDocument.findFirst({ where: { tenantId, companyId, id } });
    return row ? { document: toDocument(row), storageKey: row.storageKey } : null;
  }

  create(
    tx: Tx,
    data: Omit<Prisma.CompanyDocumentUncheckedCreateInput, 'dateCreated'>,
  ): Promise<CompanyDocument> {
    return tx.companyDocument.create({ data }).then(toDocument);
  }

  async delete(tx: Tx, tenantId: string, companyId: string, id: string): Promise<void> {
    await tx.companyDocument.deleteMany({ where: { tenantId, companyId, id } });
  }
}
