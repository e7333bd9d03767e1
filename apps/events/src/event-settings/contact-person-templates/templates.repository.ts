import { Injectable } from '@nestjs/common';
import type { ImageState, ImageStore } from '@crm/files';
import type { Actor } from '@crm/persistence';
import type { SortField } from '@crm/paging';
import { PrismaService } from '../../database/prisma.service';
import type { ContactPersonTemplate, Prisma } from '../../generated/prisma/client';
import type { Tx } from '../../database/tx';

export type TemplateRow = ContactPersonTemplate;
export const TEMPLATE_SORT_FIELDS = ['name', 'lastname', 'dateCreated', 'dateModified'] as const;
export type TemplateSortField = (typeof TEMPLATE_SORT_FIELDS)[number];

/** ContactPersonTemplate rows, every query scoped to the tenant; the image column for @crm/files. */
@Injectable()
export class TemplatesRepository implements ImageStore<Tx> {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** One page and the total: `q` searches name, first and last name and e-mail. */
  async page(
    tenantId: string,
    q: string | undefined,
    sort: SortField<TemplateSortField | 'id'>[],
    skip: number,
    take: number,
  ): Promise<[TemplateRow[], number]> {
    const where: Prisma.ContactPersonTemplateWhereInput = {
      tenantId,
      ...(q
        ? {
            OR: (['name', 'firstname', 'lastname', 'email'] as const).map((f) => ({
              [f]: { contains: q, mode: 'insensitive' as const },
            })),
          }
        : {}),
    };
    const orderBy = sort.map((s) => ({ [s.field]: s.direction }));
    return Promise.all([
      this.prisma.contactPersonTemplate.findMany({ where, orderBy, skip, take }),
      this.prisma.contactPersonTemplate.count({ where }),
    ]);
  }

  find(tenantId: string, id: string, db: Tx = this.prisma): Promise<TemplateRow | null> {
    return db.contactPersonTemplate.findFirst({ where: { tenantId, id } });
  }

  create(
    data: Prisma.ContactPersonTemplateUncheckedCreateInput,
    db: Tx = this.prisma,
  ): Promise<TemplateRow> {
    return db.contactPersonTemplate.create({ data });
  }

  /** Answers false when the tenant has no such template (nothing written). */
  async update(
    tenantId: string,
    id: string,
    data: Prisma.ContactPersonTemplateUpdateManyMutationInput,
  ): Promise<boolean> {
    const { count } = await this.prisma.contactPersonTemplate.updateMany({
      where: { tenantId, id },
      data,
    });
    return count > 0;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.contactPersonTemplate.deleteMany({
      where: { tenantId, id },
    });
    return count > 0;
  }

  // ImageStore: ContactPersonTemplate.image (the version folder) and imageDateModified

  async state(tenantId: string, id: string, db: Tx = this.prisma): Promise<ImageState | null> {
    const row = await db.contactPersonTemplate.findFirst({
      where: { tenantId, id },
      select: { image: true, imageDateModified: true },
    });
    return row ? { version: row.image, dateModified: row.imageDateModified } : null;
  }

  async lock(tx: Tx, tenantId: string, id: string): Promise<boolean> {
    const rows = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM "ContactPersonTemplate" WHERE "tenantId" = ${tenantId} AND "id" = ${id}::uuid
      FOR UPDATE`;
    return rows.length > 0;
  }

  async set(tx: Tx, tenantId: string, id: string, image: string | null, by: Actor): Promise<Date> {
    const now = new Date();
    await tx.contactPersonTemplate.updateMany({
      where: { tenantId, id },
      data: { image, imageDateModified: now, modifiedBy: by.name, modifiedByUserId: by.userId },
    });
    return now;
  }
}
