import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Actor } from '@crm/persistence';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** What a touchpoint is read with: people, moods and tag texts joined in one SQL query. */
export const TOUCHPOINT_INCLUDE = {
  people: {
    select: { personId: true },
    orderBy: [
      { person: { lastname: 'asc' } },
      { person: { firstname: 'asc' } },
      { personId: 'asc' },
    ],
  },
  moods: { orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }] },
  tags: {
    select: { entryId: true, entry: { select: { text: true } } },
    orderBy: [{ entry: { text: 'asc' } }, { entryId: 'asc' }],
  },
} satisfies Prisma.TouchpointInclude;

export type TouchpointRecord = Prisma.TouchpointGetPayload<{ include: typeof TOUCHPOINT_INCLUDE }>;
type Db = Tx | PrismaService;
export type Author = Actor;
export type TouchpointFields = Pick<
  Prisma.TouchpointUncheckedCreateInput,
  'type' | 'subject' | 'description' | 'start' | 'end' | 'companyId' | 'priority'
>;

@Injectable()
export class TouchpointsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  get client(): Tx {
    return this.prisma;
  }

  findById(tenantId: string, id: string, db: Db = this.prisma) {
    return db.touchpoint.findFirst({ where: { tenantId, id }, include: TOUCHPOINT_INCLUDE });
  }

  /** Many touchpoints in one query, in the order of `ids` (unknown ids are skipped). */
  async findByIds(tenantId: string, ids: string[], db: Db = this.prisma) {
    const rows = await db.touchpoint.findMany({
      where: { tenantId, id: { in: ids } },
      include: TOUCHPOINT_INCLUDE,
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** A page and the total, read in one snapshot. */
  async list(
    where: Prisma.TouchpointWhereInput & { tenantId: string },
    orderBy: Prisma.TouchpointOrderByWithRelationInput[],
    skip: number,
    take: number,
  ): Promise<[TouchpointRecord[], number]> {
    return this.prisma.$transaction([
      this.prisma.touchpoint.findMany({ where, orderBy, skip, take, include: TOUCHPOINT_INCLUDE }),
      this.prisma.touchpoint.count({ where }),
    ]);
  }

  /** Which of `ids` are touchpoints of the tenant (optionally: with `personId` involved). */
  async existingIds(tenantId: string, ids: string[], db: Db = this.prisma, personId?: string) {
    const rows = await db.touchpoint.findMany({
      where: {
        tenantId,
        id: { in: ids },
        ...(personId ? { people: { some: { personId } } } : {}),
      },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  /** Which of `ids` are people of the tenant. */
  async existingPersonIds(tenantId: string, ids: string[], db: Db = this.prisma) {
    if (!ids.length) return new Set<string>();
    const rows = await db.person.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  async create(
    db: Tx,
    tenantId: string,
    fields: TouchpointFields,
    personIds: string[],
    tagIds: string[],
    mood: { mood: string; comment: string | null } | null,
    by: Author,
  ): Promise<TouchpointRecord> {
    const id = randomUUID();
    await db.touchpoint.create({
      data: {
        ...fields,
        id,
        tenantId,
        createdBy: by.name,
        createdByUserId: by.userId,
        modifiedBy: by.name,
        modifiedByUserId: by.userId,
        people: { create: personIds.map((personId) => ({ tenantId, personId })) },
        tags: tagIds.length
          ? { create: tagIds.map((entryId) => ({ tenantId, entryId })) }
          : undefined,
        moods: mood ? { create: { tenantId, ...mood, createdBy: by.name } } : undefined,
      },
      select: { id: true },
    });
    return (await this.findById(tenantId, id, db))!;
  }

  /** Replaces fields, people and tags (moods are history and stay). */
  async replace(
    db: Tx,
    tenantId: string,
    id: string,
    fields: TouchpointFields,
    personIds: string[],
    tagIds: string[],
    by: Author,
  ): Promise<TouchpointRecord> {
    await db.touchpointPerson.deleteMany({ where: { tenantId, touchpointId: id } });
    await db.touchpointTag.deleteMany({ where: { tenantId, touchpointId: id } });
    await db.touchpoint.update({
      where: { id, tenantId },
      data: {
        ...fields,
        modifiedBy: by.name,
        modifiedByUserId: by.userId,
        people: { create: personIds.map((personId) => ({ tenantId, personId })) },
        tags: tagIds.length
          ? { create: tagIds.map((entryId) => ({ tenantId, entryId })) }
          : undefined,
      },
      select: { id: true },
    });
    return (await this.findById(tenantId, id, db))!;
  }

  async deleteMany(db: Db, tenantId: string, ids: string[]): Promise<number> {
    return (await db.touchpoint.deleteMany({ where: { tenantId, id: { in: ids } } })).count;
  }

  /** Marks touchpoints as changed by `by` (dateModified follows). */
  async touch(db: Db, tenantId: string, ids: string[], by: Author): Promise<void> {
    await db.touchpoint.updateMany({
      where: { tenantId, id: { in: ids } },
      data: { modifiedBy: by.name, modifiedByUserId: by.userId },
    });
  }

  async addTags(db: Tx, tenantId: string, touchpointIds: string[], tagIds: string[]) {
    await db.touchpointTag.createMany({
      data: touchpointIds.flatMap((touchpointId) =>
        tagIds.map((entryId) => ({ tenantId, touchpointId, entryId })),
      ),
      skipDuplicates: true,
    });
  }

  async removeTags(db: Tx, tenantId: string, touchpointIds: string[], tagIds: string[]) {
    await db.touchpointTag.deleteMany({
      where: { tenantId, touchpointId: { in: touchpointIds }, entryId: { in: tagIds } },
    });
  }

  /** Locks the touchpoint row until the transaction ends; false when it is not the tenant's. */
  async lock(db: Tx, tenantId: string, id: string): Promise<boolean> {
    const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Touchpoint" WHERE id = ${id}::uuid AND "tenantId" = ${tenantId} FOR UPDATE`;
    return rows.length > 0;
  }

  async participants(db: Tx, tenantId: string, touchpointId: string): Promise<string[]> {
    const rows = await db.touchpointPerson.findMany({
      where: { tenantId, touchpointId },
      select: { personId: true },
    });
    return rows.map((r) => r.personId);
  }

  async removePerson(db: Tx, tenantId: string, touchpointId: string, personId: string) {
    await db.touchpointPerson.deleteMany({ where: { tenantId, touchpointId, personId } });
  }

  async setPriorities(db: Db, tenantId: string, ids: string[], priority: number, by: Author) {
    await db.touchpoint.updateMany({
      where: { tenantId, id: { in: ids } },
      data: { priority, modifiedBy: by.name, modifiedByUserId: by.userId },
    });
  }

  async addMood(
    db: Tx,
    tenantId: string,
    touchpointId: string,
    mood: { mood: string; comment: string | null },
    by: Author,
  ) {
    await db.touchpointMood.create({
      data: { tenantId, touchpointId, ...mood, createdBy: by.name },
    });
  }

  /**
   * Moves `from`'s participation to `to` on the given touchpoints (all of `from`'s when null).
   * Where `to` is already involved, `from`'s participation is only dropped. Returns how many
   * touchpoints changed.
   */
  async move(
    db: Tx,
    tenantId: string,
    from: string,
    to: string,
    touchpointIds: string[] | null,
  ): Promise<number> {
    const scope = touchpointIds ? { touchpointId: { in: touchpointIds } } : {};
    const mine = await db.touchpointPerson.findMany({
      where: { tenantId, personId: from, ...scope },
      select: { touchpointId: true },
    });
    const ids = mine.map((r) => r.touchpointId);
    if (!ids.length) return 0;
    const both = await db.touchpointPerson.findMany({
      where: { tenantId, personId: to, touchpointId: { in: ids } },
      select: { touchpointId: true },
    });
    const shared = both.map((r) => r.touchpointId);
    if (shared.length) {
      await db.touchpointPerson.deleteMany({
        where: { tenantId, personId: from, touchpointId: { in: shared } },
      });
    }
    const sharedSet = new Set(shared);
    const rest = ids.filter((id) => !sharedSet.has(id));
    if (rest.length) {
      await db.touchpointPerson.updateMany({
        where: { tenantId, personId: from, touchpointId: { in: rest } },
        data: { personId: to },
      });
    }
    return ids.length;
  }
}
