import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service';
import { Prisma } from '../../generated/prisma/client';

export type DocumentRecord = Prisma.PersonDocumentGetPayload<object>;
export const DOCUMENT_SORT_FIELDS = [
  'fileName',
  'contentType',
  'size',
  'dateCreated',
  'id',
] as const;
export type DocumentSortField = (typeof DOCUMENT_SORT_FIELDS)[number];

/** PersonDocument rows; every query is scoped to the tenant and the person. */
@Injectable()
export class DocumentsRepository {
  constructor(private readonly prisma: PrismaService) {}

  personExists(tenantId: string, personId: string): Promise<boolean> {
    return this.prisma.person.count({ where: { tenantId, id: personId } }).then((n) => n > 0);
  }

  async list(
    tenantId: string,
    personId: string,
    opts: {
      skip: number;
      take: number;
      orderBy: Prisma.PersonDocumentOrderByWithRelationInput[];
      q?: string;
    },
  ): Promise<[DocumentRecord[], number]> {
    const where: Prisma.PersonDocumentWhereInput = {
      tenantId,
      personId,
      ...(opts.q ? { fileName: { contains: opts.q, mode: 'insensitive' } } : {}),
    };
    return this.prisma.$transaction([
      this.prisma.personDocument.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
      }),
      this.prisma.personDocument.count({ where }),
    ]);
  }

  find(tenantId: string, personId: string, id: string): Promise<DocumentRecord | null> {
    return this.prisma.personDocument.findFirst({ where: { tenantId, personId, id } });
  }

  /**
   * Inserts the row if the person belongs to the tenant; null when it does not, also when the
   * person is deleted between the check and the insert (the foreign key refuses the row).
   */
  async create(
    data: Omit<Prisma.PersonDocumentUncheckedCreateInput, 'dateCreated'>,
  ): Promise<DocumentRecord | null> {
    if (!(await this.personExists(data.tenantId, data.personId))) return null;
    try {
      return await this.prisma.personDocument.create({ data });
    } catch (err) {
      if ((err as { code?: string }).code === 'P2003') return null;
      throw err;
    }
  }

  /** Deletes the row and returns it; null when the tenant's person has no such document. */
  delete(tenantId: string, personId: string, id: string): Promise<DocumentRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.personDocument.findFirst({ where: { tenantId, personId, id } });
      if (!row) return null;
      const { count } = await tx.personDocument.deleteMany({ where: { tenantId, personId, id } });
      return count ? row : null;
    });
  }
}
