import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';

/**
 * What a company is read with: note, tags (with their entry), contact data in position order.
 * One SQL query with joins (relationJoins), for one company or a whole page.
 */
export const COMPANY_INCLUDE = {
  note: true,
  tags: {
    orderBy: [{ position: 'asc' }, { entryId: 'asc' }],
    include: { entry: { select: { text: true, color: true } } },
  },
  addresses: { orderBy: [{ position: 'asc' }, { dateCreated: 'asc' }] },
  phones: { orderBy: [{ position: 'asc' }, { dateCreated: 'asc' }] },
  emails: { orderBy: [{ position: 'asc' }, { dateCreated: 'asc' }] },
} satisfies Prisma.CompanyInclude;

export type CompanyRecord = Prisma.CompanyGetPayload<{ include: typeof COMPANY_INCLUDE }>;
export type NoteRecord = Prisma.CompanyNoteGetPayload<object>;
export type Tx = Prisma.TransactionClient;

/** A tag entry as written with a company: the output needs its text and color. */
export interface TagEntry {
  id: string;
  text: string;
  color: string | null;
}

@Injectable()
export class CompaniesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** `long`: batches of up to 1000 companies need more than Prisma's default 5 s. */
  transaction<T>(fn: (tx: Tx) => Promise<T>, long = false): Promise<T> {
    return this.prisma.$transaction(fn, long ? { timeout: 60_000, maxWait: 10_000 } : undefined);
  }

  /** The client outside a transaction (a nested write is atomic by itself). */
  get client(): Tx {
    return this.prisma;
  }

  findById(tenantId: string, id: string, db: Tx | PrismaService = this.prisma) {
    return db.company.findFirst({
      where: { tenantId, id },
      include: COMPANY_INCLUDE,
      relationLoadStrategy: 'join',
    });
  }

  /** One query for many ids (pages, federation references, batches); order not kept. */
  findByIds(tenantId: string, ids: string[], db: Tx | PrismaService = this.prisma) {
    return db.company.findMany({
      where: { tenantId, id: { in: ids } },
      include: COMPANY_INCLUDE,
      relationLoadStrategy: 'join',
    });
  }

  /** Which of `ids` are companies of the tenant (one query). */
  async existingIds(tenantId: string, ids: string[], db: Tx | PrismaService = this.prisma) {
    if (!ids.length) return new Set<string>();
    const rows = await db.company.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  /** C3 / NATS: the name of a company of the tenant, or null. */
  async nameOf(tenantId: string, id: string): Promise<string | null> {
    const row = await this.prisma.company.findFirst({
      where: { tenantId, id },
      select: { name: true },
    });
    return row?.name ?? null;
  }

  /**
   * Inserts a company with its tags and first lifecycle entry. Returns the record as a read
   * would, built from what was written: a new company has no note and no contact data yet.
   */
  async create(
    db: Tx,
    data: Omit<Prisma.CompanyUncheckedCreateInput, 'id' | 'tags' | 'lifecycleHistories'> & {
      tenantId: string;
      dateCreated: Date;
    },
    tags: TagEntry[],
    lifecycle: { lifecycleId: string; dateChanged: Date } | null,
  ): Promise<CompanyRecord> {
    const id = randomUUID();
    const tagRows = tags.map((t, position) => ({
      tenantId: data.tenantId,
      entryId: t.id,
      position,
    }));
    const company = await db.company.create({
      data: {
        ...data,
        id,
        dateModified: data.dateCreated,
        tags: tagRows.length ? { create: tagRows } : undefined,
        lifecycleHistories: lifecycle
          ? { create: [{ id: randomUUID(), tenantId: data.tenantId, ...lifecycle }] }
          : undefined,
      },
    });
    return {
      ...company,
      note: null,
      tags: tagRows.map((row, i) => ({
        ...row,
        companyId: id,
        entry: { text: tags[i].text, color: tags[i].color },
      })),
      addresses: [],
      phones: [],
      emails: [],
    };
  }

  upsertNote(
    tx: Tx,
    tenantId: string,
    companyId: string,
    note: string | null,
    by: { name: string; userId: string | null },
  ): Promise<NoteRecord> {
    return tx.companyNote.upsert({
      where: { companyId },
      create: {
        companyId,
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
