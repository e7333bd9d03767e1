import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** A relation as read: with the related person's name (a join, not a query per row). */
export const RELATION_SELECT = {
  id: true,
  fromPersonId: true,
  toPersonId: true,
  typeIdentifier: true,
  isFavorite: true,
  inverseId: true,
  dateCreated: true,
  to: { select: { firstname: true, lastname: true } },
} satisfies Prisma.PersonRelationSelect;

export type RelationRecord = Prisma.PersonRelationGetPayload<{ select: typeof RELATION_SELECT }>;

export interface NewRelation {
  id: string;
  inverseId: string;
  from: string;
  to: string;
  type: string;
  inverseType: string;
  isFavorite: boolean;
}

/** Relations between people; every query is scoped to the tenant. */
@Injectable()
export class RelationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  get client(): Tx {
    return this.prisma;
  }

  /** Which of `ids` are people of the tenant. */
  async existingPeople(db: Tx, tenantId: string, ids: string[]): Promise<Set<string>> {
    const rows = await db.person.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  page(
    tenantId: string,
    personId: string,
    filter: { types?: string[]; q?: string },
    orderBy: Prisma.PersonRelationOrderByWithRelationInput[],
    skip: number,
    take: number,
  ) {
    const where: Prisma.PersonRelationWhereInput = {
      tenantId,
      fromPersonId: personId,
      ...(filter.types ? { typeIdentifier: { in: filter.types } } : {}),
      ...(filter.q
        ? {
            to: {
              OR: [
                { firstname: { contains: filter.q, mode: 'insensitive' } },
                { lastname: { contains: filter.q, mode: 'insensitive' } },
              ],
            },
          }
        : {}),
    };
    return this.prisma.$transaction([
      this.prisma.personRelation.findMany({ where, select: RELATION_SELECT, orderBy, skip, take }),
      this.prisma.personRelation.count({ where }),
    ]);
  }

  /** Relations of `personId` (its own side) by id. */
  findOwn(db: Tx, tenantId: string, personId: string, ids: string[]): Promise<RelationRecord[]> {
    return db.personRelation.findMany({
      where: { tenantId, fromPersonId: personId, id: { in: ids } },
      select: RELATION_SELECT,
    });
  }

  /** Relations of `personId` to any of `toIds` (for duplicate checks). */
  findTo(db: Tx, tenantId: string, personId: string, toIds: string[]) {
    return db.personRelation.findMany({
      where: { tenantId, fromPersonId: personId, toPersonId: { in: toIds } },
      select: { id: true, toPersonId: true, typeIdentifier: true },
    });
  }

  /**
   * The other direction of each relation: by inverseId, or (rows written before inverseId was
   * kept, or by hand) by the mirrored person pair and the inverse type.
   */
  findInverses(
    db: Tx,
    tenantId: string,
    rows: {
      inverseId: string | null;
      fromPersonId: string;
      toPersonId: string;
      inverseType: string;
    }[],
  ) {
    if (!rows.length) return Promise.resolve([]);
    return db.personRelation.findMany({
      where: {
        tenantId,
        OR: rows.map((r) =>
          r.inverseId
            ? { id: r.inverseId }
            : {
                fromPersonId: r.toPersonId,
                toPersonId: r.fromPersonId,
                typeIdentifier: r.inverseType,
              },
        ),
      },
      select: { id: true, fromPersonId: true, toPersonId: true, typeIdentifier: true },
    });
  }

  /** Writes each relation and its inverse, linked both ways by inverseId. */
  async createPairs(tx: Tx, tenantId: string, relations: NewRelation[]): Promise<void> {
    const now = new Date();
    await tx.personRelation.createMany({
      data: relations.flatMap((r) => [
        {
          id: r.id,
          tenantId,
          fromPersonId: r.from,
          toPersonId: r.to,
          typeIdentifier: r.type,
          isFavorite: r.isFavorite,
          inverseId: r.inverseId,
          dateCreated: now,
        },
        {
          id: r.inverseId,
          tenantId,
          fromPersonId: r.to,
          toPersonId: r.from,
          typeIdentifier: r.inverseType,
          isFavorite: false,
          inverseId: r.id,
          dateCreated: now,
        },
      ]),
    });
  }

  /** Writes the missing other side of `row` and links both. */
  async createInverse(
    tx: Tx,
    tenantId: string,
    row: { id: string; fromPersonId: string; toPersonId: string },
    inverseType: string,
  ): Promise<void> {
    const inverse = await tx.personRelation.create({
      data: {
        tenantId,
        fromPersonId: row.toPersonId,
        toPersonId: row.fromPersonId,
        typeIdentifier: inverseType,
        inverseId: row.id,
      },
      select: { id: true },
    });
    await tx.personRelation.updateMany({
      where: { tenantId, id: row.id },
      data: { inverseId: inverse.id },
    });
  }

  async update(
    tx: Tx,
    tenantId: string,
    id: string,
    data: { typeIdentifier?: string; isFavorite?: boolean; inverseId?: string },
  ): Promise<void> {
    await tx.personRelation.updateMany({ where: { tenantId, id }, data });
  }

  async deleteMany(tx: Tx, tenantId: string, ids: string[]): Promise<void> {
    await tx.personRelation.deleteMany({ where: { tenantId, id: { in: ids } } });
  }
}
