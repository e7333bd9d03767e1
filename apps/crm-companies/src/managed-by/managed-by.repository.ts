import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../generated/prisma/client';
import type { CompanyManager } from './dto/company-manager.output';
import { toCompanyManager } from './managed-by.mapper';
import type { Tx } from '../database/tx';

export type ManagerOrder = Prisma.CompanyManagerOrderByWithRelationInput;

/** The columns a relation is mapped from (and compared by: person, role, dates). */
export const MANAGER_SELECT = {
  id: true,
  companyId: true,
  personId: true,
  managerRoleId: true,
  since: true,
  until: true,
  createdBy: true,
  modifiedBy: true,
  dateCreated: true,
  dateModified: true,
} satisfies Prisma.CompanyManagerSelect;

/** A relation as stored (dates as dates), for the rules that compare and merge. */
export interface ManagerRecord {
  id: string;
  companyId: string;
  personId: string;
  managerRoleId: string;
  since: Date | null;
  until: Date | null;
  createdBy: string | null;
  modifiedBy: string | null;
  dateCreated: Date;
  dateModified: Date;
}

export interface NewManager {
  id: string;
  personId: string;
  managerRoleId: string;
  since: Date | null;
  until: Date | null;
}

export interface ManagerChange {
  id: string;
  personId: string;
  managerRoleId: string;
  since: Date | null;
  until: Date | null;
}

/** Managed-by relations (CompanyManager); every query is scoped to the tenant. */
@Injectable()
export class ManagedByRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Batches may carry 1000 items: give them time (the default is 5 s). */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, { timeout: 60_000, maxWait: 10_000 });
  }

  /** The client outside a transaction (reads that need no lock). */
  get client(): Tx {
    return this.prisma;
  }

  async page(
    tenantId: string,
    companyId: string,
    filter: { personId?: string; managerRoleId?: string },
    orderBy: ManagerOrder[],
    skip: number,
    take: number,
  ): Promise<[CompanyManager[], number]> {
    const where: Prisma.CompanyManagerWhereInput = {
      tenantId,
      companyId,
      ...(filter.personId ? { personId: filter.personId } : {}),
      ...(filter.managerRoleId ? { managerRoleId: filter.managerRoleId } : {}),
    };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.companyManager.findMany({ where, select: MANAGER_SELECT, orderBy, skip, take }),
      this.prisma.companyManager.count({ where }),
    ]);
    return [rows.map(toCompanyManager), total];
  }

  /** The relations of many companies in one query (Company.managedBy of a whole list). */
  async ofCompanies(tenantId: string, companyIds: readonly string[]): Promise<CompanyManager[][]> {
    const rows = await this.prisma.companyManager.findMany({
      where: { tenantId, companyId: { in: [...companyIds] } },
      select: MANAGER_SELECT,
      orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }],
    });
    const byCompany = new Map<string, CompanyManager[]>();
    for (const r of rows) {
      const list = byCompany.get(r.companyId) ?? [];
      list.push(toCompanyManager(r));
      byCompany.set(r.companyId, list);
    }
    return companyIds.map((id) => byCompany.get(id.toLowerCase()) ?? []);
  }

  /** Relations of the company by id (unknown, foreign or another company's ids are absent). */
  findOwn(db: Tx, tenantId: string, companyId: string, ids: string[]): Promise<ManagerRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return db.companyManager.findMany({
      where: { tenantId, companyId, id: { in: ids } },
      select: MANAGER_SELECT,
    });
  }

  /** The (person, role) pairs the company has for these people (duplicate checks). */
  pairsOf(db: Tx, tenantId: string, companyId: string, personIds: string[]) {
    if (!personIds.length) return Promise.resolve([]);
    return db.companyManager.findMany({
      where: { tenantId, companyId, personId: { in: personIds } },
      select: { id: true, personId: true, managerRoleId: true },
    });
  }

  async create(
    tx: Tx,
    tenantId: string,
    companyId: string,
    createdBy: string,
    items: NewManager[],
  ): Promise<CompanyManager[]> {
    const rows = await tx.companyManager.createManyAndReturn({
      data: items.map((it) => ({
        ...it,
        tenantId,
        companyId,
        createdBy,
        modifiedBy: createdBy,
      })),
      select: MANAGER_SELECT,
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return items.map((it) => toCompanyManager(byId.get(it.id)!));
  }

  /** One UPDATE per changed relation (each has its own values), in the caller's transaction. */
  async update(
    tx: Tx,
    tenantId: string,
    companyId: string,
    modifiedBy: string,
    changes: ManagerChange[],
  ): Promise<void> {
    for (const { id, ...data } of changes) {
      await tx.companyManager.updateMany({
        where: { tenantId, companyId, id },
        data: { ...data, modifiedBy },
      });
    }
  }

  async delete(tx: Tx, tenantId: string, companyId: string, ids: string[]): Promise<number> {
    const res = await tx.companyManager.deleteMany({
      where: { tenantId, companyId, id: { in: ids } },
    });
    return res.count;
  }

  /** PeopleDeletedEvent: the people no longer manage anything. */
  async deleteOfPeople(tx: Tx, tenantId: string, personIds: string[]): Promise<number> {
    const res = await tx.companyManager.deleteMany({
      where: { tenantId, personId: { in: personIds } },
    });
    return res.count;
  }

  /**
   * PeopleMergedEvent: the sources' relations move to the target. A relation that would repeat
   * one the target already has (same company and role) is dropped, the target's own is kept;
   * of several sources' relations to the same company in the same role the oldest moves.
   */
  async mergePeople(
    tx: Tx,
    tenantId: string,
    targetId: string,
    sourceIds: string[],
  ): Promise<{ moved: number; dropped: number }> {
    const rows = await tx.companyManager.findMany({
      where: { tenantId, personId: { in: [targetId, ...sourceIds] } },
      select: { id: true, companyId: true, personId: true, managerRoleId: true },
      orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }],
    });
    const target = targetId.toLowerCase();
    const key = (r: { companyId: string; managerRoleId: string }) =>
      `${r.companyId}|${r.managerRoleId}`;
    const taken = new Set(rows.filter((r) => r.personId === target).map(key));
    const move: string[] = [];
    const drop: string[] = [];
    for (const r of rows) {
      if (r.personId === target) continue;
      if (taken.has(key(r))) drop.push(r.id);
      else {
        taken.add(key(r));
        move.push(r.id);
      }
    }
    if (drop.length) await tx.companyManager.deleteMany({ where: { tenantId, id: { in: drop } } });
    if (move.length) {
      await tx.companyManager.updateMany({
        where: { tenantId, id: { in: move } },
        data: { personId: target },
      });
    }
    return { moved: move.length, dropped: drop.length };
  }
}
