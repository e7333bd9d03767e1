import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { addOutboxEvent, PeopleCreatedEvent, PeopleDeletedEvent, Subjects } from '@crm/messaging';
import type { Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

export type TagKind = 'ORGA' | 'PERSONALITY';

/** Writes of updates, batches and deletes; every method runs in the caller's transaction. */
@Injectable()
export class PeopleWriteRepository {
  /**
   * Locks the tenant's people among `ids` until the transaction ends and returns their current
   * lifecycle: concurrent updates of one person then see each other's lifecycle change. Rows are
   * locked in id order, so two batches over the same people cannot deadlock.
   */
  async lock(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, string | null>> {
    const rows = await tx.$queryRaw<{ id: string; lifecycleId: string | null }[]>`
      SELECT id::text AS id, "lifecycleId"::text AS "lifecycleId" FROM "Person"
      WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
      ORDER BY id
      FOR UPDATE`;
    return new Map(rows.map((r) => [r.id, r.lifecycleId]));
  }

  update(tx: Tx, tenantId: string, id: string, data: Prisma.PersonUncheckedUpdateManyInput) {
    return tx.person.updateMany({ where: { tenantId, id }, data });
  }

  /** Inserts the people and, in the same transaction, their PeopleCreatedEvent (one per batch). */
  async createPeople(tx: Tx, tenantId: string, rows: Prisma.PersonCreateManyInput[]) {
    await tx.person.createMany({ data: rows });
    if (!rows.length) return;
    const payload: PeopleCreatedEvent = { tenantId, personIds: rows.map((r) => r.id!) };
    await addOutboxEvent(tx, { tenantId, subject: Subjects.crmPeople.peopleCreated, payload });
  }

  addHistories(
    tx: Tx,
    rows: { tenantId: string; personId: string; lifecycleId: string; dateChanged: Date }[],
  ) {
    if (!rows.length) return;
    return tx.lifecycleHistory.createMany({
      data: rows.map((r) => ({ id: randomUUID(), ...r })),
    });
  }

  /** Replaces the tags of one kind of the given people (entry ids in order; [] clears). */
  async replaceTags(tx: Tx, tenantId: string, kind: TagKind, byPerson: Map<string, string[]>) {
    if (!byPerson.size) return;
    await tx.personTag.deleteMany({
      where: { tenantId, kind, personId: { in: [...byPerson.keys()] } },
    });
    await this.addTags(tx, tenantId, kind, byPerson);
  }

  async addTags(tx: Tx, tenantId: string, kind: TagKind, byPerson: Map<string, string[]>) {
    const data = [...byPerson].flatMap(([personId, entryIds]) =>
      entryIds.map((entryId, position) => ({ tenantId, personId, entryId, kind, position })),
    );
    if (data.length) await tx.personTag.createMany({ data });
  }

  /**
   * Deletes the tenant's people among `ids` (cards, notes, tags, history, relations in both
   * directions and touchpoint participations go with them by cascade) and, in the same
   * transaction, writes the PeopleDeletedEvent for the other services. Returns the deleted ids.
   */
  async deleteWithEvent(tx: Tx, tenantId: string, ids: string[]): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      DELETE FROM "Person" WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
      RETURNING id::text AS id`;
    const personIds = rows.map((r) => r.id);
    if (personIds.length) {
      const payload: PeopleDeletedEvent = { tenantId, personIds };
      await addOutboxEvent(tx, { tenantId, subject: Subjects.crmPeople.peopleDeleted, payload });
    }
    return personIds;
  }
}
