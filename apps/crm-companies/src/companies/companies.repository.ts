import { Injectable } from '@nestjs/common';
import type { Actor, NewRecordStamps } from '@crm/persistence';
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import type { CompanyScalars } from './company-changes';
import type { Tx } from '../database/tx';

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
/** The columns of a new company that create writes (the rest start empty). */
export type NewCompanyRow = CompanyScalars & NewRecordStamps;

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
   * Inserts a company with its tags and first lifecycle entry in one SQL statement (atomic by
   * itself, one round trip; Prisma's nested create took six). Returns the record as a read would,
   * built from what was written: a new company has no note, contact data or logo.
   */
  async create(
    db: Tx,
    data: NewCompanyRow,
    tags: TagEntry[],
    lifecycle: { lifecycleId: string; dateChanged: Date } | null,
  ): Promise<CompanyRecord> {
    const id = randomUUID();
    const tagRows = tags.map((t, position) => ({
      tenantId: data.tenantId,
      entryId: t.id,
      position,
    }));
    const history = lifecycle ? [{ id: randomUUID(), ...lifecycle }] : [];
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    // Timestamps are stored as UTC without zone, as Prisma writes them; the ISO text's Z is
    // ignored by the cast on purpose.
    await db.$executeRaw`
      WITH company AS (
        INSERT INTO "Company" (
          "id", "tenantId", "name", "nameAddition", "website", "websiteDomain", "customerNumber",
          "vatId", "taxNumber", "foundingDate", "legalFormId", "industrySectorId",
          "employeeCountId", "customerCountId", "referenceNumbers", "socialMedias", "lifecycleId",
          "lifecycleChanged", "createdBy", "modifiedBy", "createdByUserId", "modifiedByUserId",
          "dateCreated", "dateModified")
        VALUES (
          ${id}::uuid, ${data.tenantId}, ${data.name}, ${data.nameAddition}, ${data.website},
          ${data.websiteDomain}, ${data.customerNumber}, ${data.vatId}, ${data.taxNumber},
          ${iso(data.foundingDate)}::date, ${data.legalFormId}::uuid,
          ${data.industrySectorId}::uuid, ${data.employeeCountId}::uuid,
          ${data.customerCountId}::uuid, ${JSON.stringify(data.referenceNumbers)}::jsonb,
          ${JSON.stringify(data.socialMedias)}::jsonb, ${data.lifecycleId}::uuid,
          ${iso(data.lifecycleChanged)}::timestamp(3), ${data.createdBy}, ${data.modifiedBy},
          ${data.createdByUserId}::uuid, ${data.modifiedByUserId}::uuid,
          ${iso(data.dateCreated)}::timestamp(3), ${iso(data.dateCreated)}::timestamp(3))
      ), tags AS (
        INSERT INTO "CompanyTag" ("tenantId", "companyId", "entryId", "position")
        SELECT ${data.tenantId}, ${id}::uuid, t.entry, t.position
        FROM unnest(${tagRows.map((t) => t.entryId)}::uuid[],
          ${tagRows.map((t) => t.position)}::int[]) AS t(entry, position)
      )
      INSERT INTO "CompanyLifecycleHistory" ("id", "tenantId", "companyId", "lifecycleId", "dateChanged")
      SELECT h.id, ${data.tenantId}, ${id}::uuid, h.lifecycle, h.changed
      FROM unnest(${history.map((h) => h.id)}::uuid[], ${history.map((h) => h.lifecycleId)}::uuid[],
        ${history.map((h) => h.dateChanged.toISOString())}::timestamp(3)[]) AS h(id, lifecycle, changed)`;
    return {
      ...data,
      id,
      logo: null,
      logoDateModified: null,
      dateModified: data.dateCreated,
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
    by: Actor,
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
