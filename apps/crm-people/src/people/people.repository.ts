import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
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
export type Tx = Prisma.TransactionClient;

@Injectable()
export class PeopleRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** `long`: batches of up to 1000 people need more than Prisma's default 5 s. */
  transaction<T>(fn: (tx: Tx) => Promise<T>, long = false): Promise<T> {
    return this.prisma.$transaction(fn, long ? { timeout: 60_000, maxWait: 10_000 } : undefined);
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

  /** Which of `ids` are people of the tenant (one query). */
  async existingIds(tenantId: string, ids: string[]): Promise<string[]> {
    const rows = await this.prisma.person.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  exists(tenantId: string, id: string, db: Tx | PrismaService = this.prisma) {
    return db.person.count({ where: { tenantId, id } }).then((n) => n > 0);
  }

  /** The client outside a transaction (a nested write is atomic by itself). */
  get client(): Tx {
    return this.prisma;
  }

  /**
   * Inserts a person with its tags and first lifecycle entry. Returns the record as a read would,
   * built from what was written: a new person has no note, cards or relations, so reading it back
   * would only repeat the input (and cost a join over five tables on the hottest write).
   */
  async create(
    db: Tx,
    data: Omit<Prisma.PersonUncheckedCreateInput, 'id' | 'tags' | 'lifecycleHistories'>,
    tags: {
      kind: 'ORGA' | 'PERSONALITY';
      entry: { id: string; text: string; category: string | null };
    }[],
    lifecycle: { lifecycleId: string; dateChanged: Date } | null,
  ): Promise<PersonRecord> {
    const id = randomUUID();
    const tagRows = tags.map((t, position) => ({
      tenantId: data.tenantId,
      personId: id,
      entryId: t.entry.id,
      kind: t.kind,
      position,
    }));
    const history = lifecycle
      ? [{ id: randomUUID(), tenantId: data.tenantId, personId: id, ...lifecycle }]
      : [];
    const person = await db.person.create({
      data: {
        ...data,
        id,
        tags: tagRows.length
          ? { create: tagRows.map(({ personId: _p, ...row }) => row) }
          : undefined,
        lifecycleHistories: history.length
          ? { create: history.map(({ personId: _p, ...row }) => row) }
          : undefined,
      },
    });
    return {
      ...person,
      note: null,
      tags: tagRows.map((row, i) => ({
        ...row,
        entry: { text: tags[i].entry.text, category: tags[i].entry.category },
      })),
      lifecycleHistories: history,
      cards: [],
      relations: [],
    };
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
