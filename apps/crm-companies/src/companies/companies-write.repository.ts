import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ModifiedStamps } from '@crm/persistence';
import { addOutboxEvent, CompaniesDeletedEvent, Subjects } from '@crm/messaging';
import { BATCH_MAX } from '@crm/errors';
import type { Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

export interface HistoryRow {
  tenantId: string;
  companyId: string;
  lifecycleId: string;
  dateChanged: Date;
}

/** Who changed a company (X-Integration-Name, X-Caller-Id). */
export type Author = ModifiedStamps;

/** Writes of updates, batches, tag selections and deletes; every method runs in the caller's tx. */
@Injectable()
export class CompaniesWriteRepository {
  /**
   * Locks the tenant's companies among `ids` until the transaction ends and returns their
   * current lifecycle: concurrent updates of one company then see each other's lifecycle change.
   * Rows are locked in id order, so two batches over the same companies cannot deadlock.
   */
  async lock(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, string | null>> {
    const rows = await tx.$queryRaw<{ id: string; lifecycleId: string | null }[]>`
      SELECT id::text AS id, "lifecycleId"::text AS "lifecycleId" FROM "Company"
      WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
      ORDER BY id
      FOR UPDATE`;
    return new Map(rows.map((r) => [r.id, r.lifecycleId]));
  }

  update(tx: Tx, tenantId: string, id: string, data: Prisma.CompanyUncheckedUpdateManyInput) {
    return tx.company.updateMany({ where: { tenantId, id }, data });
  }

  /** Marks companies as modified by the caller (tag selections change no column of their own). */
  touch(tx: Tx, tenantId: string, ids: string[], by: Author) {
    return tx.company.updateMany({
      where: { tenantId, id: { in: ids } },
      data: { ...by, dateModified: new Date() },
    });
  }

  createCompanies(tx: Tx, rows: Prisma.CompanyCreateManyInput[]) {
    return tx.company.createMany({ data: rows });
  }

  async addHistories(tx: Tx, rows: HistoryRow[]) {
    if (!rows.length) return;
    await tx.companyLifecycleHistory.createMany({
      data: rows.map((r) => ({ id: randomUUID(), ...r })),
    });
  }

  /** Replaces the tags of the given companies (entry ids in order; [] clears). */
  async replaceTags(tx: Tx, tenantId: string, byCompany: Map<string, string[]>) {
    if (!byCompany.size) return;
    await tx.companyTag.deleteMany({
      where: { tenantId, companyId: { in: [...byCompany.keys()] } },
    });
    const data = [...byCompany].flatMap(([companyId, entryIds]) =>
      entryIds.map((entryId, position) => ({ tenantId, companyId, entryId, position })),
    );
    if (data.length) await tx.companyTag.createMany({ data });
  }

  /**
   * C12: appends the tags each company lacks after its current last one; pairs that exist stay
   * where they are. Two queries whatever the number of companies.
   */
  async appendTags(tx: Tx, tenantId: string, companyIds: string[], entryIds: string[]) {
    const current = await tx.companyTag.findMany({
      where: { tenantId, companyId: { in: companyIds } },
      select: { companyId: true, entryId: true, position: true },
    });
    const has = new Map<string, { entries: Set<string>; next: number }>();
    for (const id of companyIds) has.set(id, { entries: new Set(), next: 0 });
    for (const t of current) {
      const c = has.get(t.companyId)!;
      c.entries.add(t.entryId);
      c.next = Math.max(c.next, t.position + 1);
    }
    const data = companyIds.flatMap((companyId) => {
      const c = has.get(companyId)!;
      return entryIds
        .filter((e) => !c.entries.has(e))
        .map((entryId) => ({ tenantId, companyId, entryId, position: c.next++ }));
    });
    if (data.length) await tx.companyTag.createMany({ data, skipDuplicates: true });
  }

  /** C13: removes the pairs; the order of the remaining tags is kept. */
  async removeTags(tx: Tx, tenantId: string, companyIds: string[], entryIds: string[]) {
    await tx.companyTag.deleteMany({
      where: { tenantId, companyId: { in: companyIds }, entryId: { in: entryIds } },
    });
  }

  /**
   * Deletes the tenant's companies among `ids` (note, tags, history, contact data, bank
   * accounts, documents, relations both ways and managers go with them by cascade) and, in the
   * same transaction, writes CompaniesDeletedEvents (at most 1000 ids each) for the other
   * services. Returns the deleted ids.
   */
  async deleteWithEvent(tx: Tx, tenantId: string, ids: string[]): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      DELETE FROM "Company" WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
      RETURNING id::text AS id`;
    const companyIds = rows.map((r) => r.id);
    for (let i = 0; i < companyIds.length; i += BATCH_MAX) {
      const payload: CompaniesDeletedEvent = {
        tenantId,
        companyIds: companyIds.slice(i, i + BATCH_MAX),
      };
      await addOutboxEvent(tx, {
        tenantId,
        subject: Subjects.crmCompanies.companiesDeleted,
        payload,
      });
    }
    return companyIds;
  }
}
