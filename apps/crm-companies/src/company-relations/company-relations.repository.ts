import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../generated/prisma/client';
import type { RelationDirection } from './dto/company-relation.input';
import type { Tx } from '../database/tx';

/** A relation as read: with both companies' names (joins in the same query, not one per row). */
export const RELATION_SELECT = {
  id: true,
  fromCompanyId: true,
  toCompanyId: true,
  relationTypeId: true,
  since: true,
  until: true,
  note: true,
  dateCreated: true,
  dateModified: true,
  from: { select: { id: true, name: true } },
  to: { select: { id: true, name: true } },
} satisfies Prisma.CompanyRelationSelect;

export type RelationRecord = Prisma.CompanyRelationGetPayload<{ select: typeof RELATION_SELECT }>;

export const RELATION_SORT_FIELDS = [
  'dateCreated',
  'dateModified',
  'since',
  'until',
  'id',
] as const;
export type RelationSortField = (typeof RELATION_SORT_FIELDS)[number];

export interface RelationColumns {
  relationTypeId: string;
  since: Date | null;
  until: Date | null;
  note: string | null;
}

export interface RelationFilter {
  direction?: RelationDirection;
  relationTypeId?: string;
  /** Searched in the other company's name. */
  q?: string;
}

/** CompanyRelation rows; every query is scoped to the tenant. */
@Injectable()
export class CompanyRelationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** The relations of a company in both directions (or one), one page and the total. */
  page(
    tenantId: string,
    companyId: string,
    filter: RelationFilter,
    orderBy: Prisma.CompanyRelationOrderByWithRelationInput[],
    skip: number,
    take: number,
  ): Promise<[RelationRecord[], number]> {
    const name = filter.q ? { name: { contains: filter.q, mode: 'insensitive' as const } } : {};
    const outgoing: Prisma.CompanyRelationWhereInput = {
      fromCompanyId: companyId,
      ...(filter.q ? { to: name } : {}),
    };
    const incoming: Prisma.CompanyRelationWhereInput = {
      toCompanyId: companyId,
      ...(filter.q ? { from: name } : {}),
    };
    const where: Prisma.CompanyRelationWhereInput = {
      tenantId,
      ...(filter.relationTypeId ? { relationTypeId: filter.relationTypeId } : {}),
      OR:
        filter.direction === 'outgoing'
          ? [outgoing]
          : filter.direction === 'incoming'
            ? [incoming]
            : [outgoing, incoming],
    };
    return this.prisma.$transaction([
      this.prisma.companyRelation.findMany({ where, select: RELATION_SELECT, orderBy, skip, take }),
      this.prisma.companyRelation.count({ where }),
    ]);
  }

  /** A relation of the company, either direction; null when the tenant's company has none such. */
  find(db: Tx, tenantId: string, companyId: string, id: string): Promise<RelationRecord | null> {
    return db.companyRelation.findFirst({
      where: { tenantId, id, OR: [{ fromCompanyId: companyId }, { toCompanyId: companyId }] },
      select: RELATION_SELECT,
    });
  }

  /** Is (from, to, type) taken, by another relation than `except`? */
  async exists(
    db: Tx,
    tenantId: string,
    key: { fromCompanyId: string; toCompanyId: string; relationTypeId: string },
    except?: string,
  ): Promise<boolean> {
    const n = await db.companyRelation.count({
      where: { tenantId, ...key, ...(except ? { id: { not: except } } : {}) },
    });
    return n > 0;
  }

  async companyName(db: Tx, tenantId: string, id: string): Promise<string | null> {
    const row = await db.company.findFirst({ where: { tenantId, id }, select: { name: true } });
    return row?.name ?? null;
  }

  async create(
    tx: Tx,
    tenantId: string,
    fromCompanyId: string,
    toCompanyId: string,
    columns: RelationColumns,
  ): Promise<RelationRecord> {
    return tx.companyRelation.create({
      data: { tenantId, fromCompanyId, toCompanyId, ...columns },
      select: RELATION_SELECT,
    });
  }

  async update(
    tx: Tx,
    tenantId: string,
    id: string,
    data: Partial<RelationColumns>,
  ): Promise<void> {
    await tx.companyRelation.updateMany({ where: { tenantId, id }, data });
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.companyRelation.deleteMany({ where: { tenantId, id } });
  }
}
