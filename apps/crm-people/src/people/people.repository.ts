import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';

/** What a person is read with: one query with joins, for one person or a batch. */
export const PERSON_INCLUDE = {
  note: true,
  tags: {
    orderBy: { position: 'asc' },
    include: { entry: { select: { text: true, category: true } } },
  },
  lifecycleHistories: { orderBy: { dateChanged: 'asc' } },
  cards: {
    orderBy: { dateCreated: 'asc' },
    include: { addresses: { orderBy: { position: 'asc' } } },
  },
  relations: { orderBy: { dateCreated: 'asc' } },
} satisfies Prisma.PersonInclude;

export type PersonRecord = Prisma.PersonGetPayload<{ include: typeof PERSON_INCLUDE }>;
export type NoteRecord = Prisma.PersonNoteGetPayload<object>;
type Tx = Prisma.TransactionClient;

@Injectable()
export class PeopleRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  findById(tenantId: string, id: string, db: Tx | PrismaService = this.prisma) {
    return db.person.findFirst({ where: { tenantId, id }, include: PERSON_INCLUDE });
  }

  /** One query for many ids (federation references, DataLoader batches). */
  findByIds(tenantId: string, ids: string[]) {
    return this.prisma.person.findMany({
      where: { tenantId, id: { in: ids } },
      include: PERSON_INCLUDE,
    });
  }

  exists(tenantId: string, id: string, db: Tx | PrismaService = this.prisma) {
    return db.person.count({ where: { tenantId, id } }).then((n) => n > 0);
  }

  create(tx: Tx, data: Prisma.PersonUncheckedCreateInput) {
    return tx.person.create({ data, select: { id: true } });
  }

  replaceTags(
    tx: Tx,
    tenantId: string,
    personId: string,
    kind: 'ORGA' | 'PERSONALITY',
    entryIds: string[],
  ) {
    return tx.personTag.deleteMany({ where: { tenantId, personId, kind } }).then(() =>
      entryIds.length
        ? tx.personTag.createMany({
            data: entryIds.map((entryId, position) => ({
              tenantId,
              personId,
              entryId,
              kind,
              position,
            })),
          })
        : undefined,
    );
  }

  addLifecycleHistory(tx: Tx, tenantId: string, personId: string, lifecycleId: string, at: Date) {
    return tx.lifecycleHistory.create({
      data: { tenantId, personId, lifecycleId, dateChanged: at },
    });
  }

  upsertNote(
    tx: Tx,
    tenantId: string,
    personId: string,
    note: string | null,
    by: { name: string; userId: string | null },
  ): Promise<NoteRecord> {
    return tx.personNote.upsert({
      where: { personId },
      create: {
        personId,
        tenantId,
        note,
        createdBy: by.name,
        createdByUserId: by.userId,
        modifiedBy: by.name,
        modifiedByUserId: by.userId,
      },
      update: { note, modifiedBy: by.name, modifiedByUserId: by.userId },
    });
  }
}
