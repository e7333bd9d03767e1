import { Injectable } from '@nestjs/common';
import type { Actor } from '@crm/persistence';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import { PERSON_INCLUDE } from '../people/people.repository';
import type { Participation, RelationsPlan } from './merge-links.plan';
import type { FilledData, TagRow } from './merge-fields.plan';
import type { Tx } from '../database/tx';

/** A person as a merge reads it: as P4 does, plus what points at it (one query with joins). */
export const MERGE_INCLUDE = {
  ...PERSON_INCLUDE,
  relatedBy: true,
  touchpoints: { select: { touchpointId: true, personId: true } },
  _count: { select: { documents: true } },
} satisfies Prisma.PersonInclude;

export type MergeRecord = Prisma.PersonGetPayload<{ include: typeof MERGE_INCLUDE }>;

/** Every write of one merge; the repository applies it inside the caller's transaction. */
export interface MergeWrite {
  tenantId: string;
  targetId: string;
  sourceIds: string[];
  demoteCardIds: string[];
  relations: RelationsPlan;
  touchpointDrops: Participation[];
  addTags: TagRow[];
  moveHistoryIds: string[];
  /** undefined: the note stays as it is. */
  note: string | null | undefined;
  person: FilledData & {
    importantDates: Prisma.InputJsonValue;
    socialMedias: Prisma.InputJsonValue;
  };
  by: Actor;
}

const CHUNK = 500;
const chunks = <T>(list: T[]) =>
  Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) =>
    list.slice(i * CHUNK, (i + 1) * CHUNK),
  );

@Injectable()
export class MergeRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Up to 51 people with everything that moves: a long transaction is allowed. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, { timeout: 60_000, maxWait: 10_000 });
  }

  /** For the preview: one statement, so one consistent snapshot without a transaction. */
  load(tenantId: string, ids: string[]): Promise<MergeRecord[]> {
    return this.prisma.person.findMany({
      where: { tenantId, id: { in: ids } },
      include: MERGE_INCLUDE,
    });
  }

  /**
   * Locks the people (in id order, so two merges over the same people wait instead of
   * deadlocking), then reads them: nobody changes them until the merge commits.
   */
  async lockAndLoad(tx: Tx, tenantId: string, ids: string[]): Promise<MergeRecord[]> {
    await tx.$queryRaw`
      SELECT "id" FROM "Person"
       WHERE "tenantId" = ${tenantId} AND "id" = ANY(${ids}::uuid[])
       ORDER BY "id" FOR UPDATE`;
    return tx.person.findMany({ where: { tenantId, id: { in: ids } }, include: MERGE_INCLUDE });
  }

  /** Moves everything to the target, then deletes the sources (their leftovers cascade). */
  async apply(tx: Tx, w: MergeWrite): Promise<number> {
    const { tenantId, targetId, sourceIds } = w;
    const ofSources = { tenantId, personId: { in: sourceIds } };

    await tx.businessCard.updateMany({ where: ofSources, data: { personId: targetId } });
    if (w.demoteCardIds.length) {
      await tx.businessCard.updateMany({
        where: { tenantId, id: { in: w.demoteCardIds } },
        data: { isFavorite: false, markAsFavorite: false },
      });
    }

    // Drops first: the re-pointed rows then never meet a row they would repeat.
    const r = w.relations;
    if (r.deleteIds.length) {
      await tx.personRelation.deleteMany({ where: { tenantId, id: { in: r.deleteIds } } });
    }
    if (r.repointFromIds.length) {
      await tx.personRelation.updateMany({
        where: { tenantId, id: { in: r.repointFromIds } },
        data: { fromPersonId: targetId },
      });
    }
    if (r.repointToIds.length) {
      await tx.personRelation.updateMany({
        where: { tenantId, id: { in: r.repointToIds } },
        data: { toPersonId: targetId },
      });
    }
    for (const { id, ...data } of r.updates) {
      await tx.personRelation.updateMany({ where: { tenantId, id }, data });
    }

    for (const part of chunks(w.touchpointDrops)) {
      await tx.touchpointPerson.deleteMany({ where: { tenantId, OR: part } });
    }
    await tx.touchpointPerson.updateMany({ where: ofSources, data: { personId: targetId } });

    await tx.personDocument.updateMany({ where: ofSources, data: { personId: targetId } });

    if (w.addTags.length) {
      await tx.personTag.createMany({
        data: w.addTags.map((t) => ({
          tenantId,
          personId: targetId,
          entryId: t.entryId,
          kind: t.kind,
          position: t.position,
        })),
      });
    }
    if (w.moveHistoryIds.length) {
      await tx.lifecycleHistory.updateMany({
        where: { tenantId, id: { in: w.moveHistoryIds } },
        data: { personId: targetId },
      });
    }

    if (w.note !== undefined) {
      await tx.personNote.upsert({
        where: { personId: targetId },
        create: {
          personId: targetId,
          tenantId,
          note: w.note,
          createdBy: w.by.name,
          createdByUserId: w.by.userId,
          modifiedBy: w.by.name,
          modifiedByUserId: w.by.userId,
        },
        update: { note: w.note, modifiedBy: w.by.name, modifiedByUserId: w.by.userId },
      });
    }
    await tx.person.updateMany({
      where: { tenantId, id: targetId },
      data: { ...w.person, modifiedBy: w.by.name, modifiedByUserId: w.by.userId },
    });
    const deleted = await tx.person.deleteMany({ where: { tenantId, id: { in: sourceIds } } });
    return deleted.count;
  }
}
