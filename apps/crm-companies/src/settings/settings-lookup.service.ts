import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import type { Language } from '@crm/i18n';
import { PrismaService } from '../database/prisma.service';
import type { CompanySettingsList, Prisma } from '../generated/prisma/client';

import { LIST_I18N_NAMESPACE, SYSTEM_ENTRIES, systemEntry, systemTextKey } from './system-entries';

export interface EntryView {
  id: string;
  text: string;
  color: string | null;
  category: string | null;
}

export type Tx = Prisma.TransactionClient;

/**
 * Serializes the writers of one tenant's settings lists until the transaction ends, so "unique
 * ignoring case" (which the case-sensitive unique index cannot enforce) holds under concurrency.
 * One key per tenant, not per list: a transaction that locks two lists cannot deadlock another.
 */
export async function lockSettings(tx: Tx, tenantId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`company-settings:${tenantId}`}, 0))`;
}
const ENTRY_VIEW = { id: true, text: true, color: true, category: true } as const;

/** Reads and checks entries of the company settings lists (system entries merged with the tenant's). */
@Injectable()
export class SettingsLookupService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly i18n: I18nService,
  ) {}

  private systemText(list: CompanySettingsList, key: string, lang: Language): string {
    return this.i18n.t(systemTextKey(list, key), { lang }) as string;
  }

  /** Entries by id, in one query for the tenant's part; unknown ids are absent from the map. */
  async entries(
    tenantId: string,
    list: CompanySettingsList,
    ids: Iterable<string>,
    lang: Language,
    db: Tx | PrismaService = this.prisma,
  ): Promise<Map<string, EntryView>> {
    const out = new Map<string, EntryView>();
    const wanted = new Set(ids);
    for (const id of wanted) {
      const sys = systemEntry(list, id);
      if (sys) {
        out.set(id, {
          id,
          text: this.systemText(list, sys.key, lang),
          color: sys.color ?? null,
          category: null,
        });
        wanted.delete(id);
      }
    }
    if (wanted.size) {
      const rows = await db.companySettingsEntry.findMany({
        where: { tenantId, list, id: { in: [...wanted] } },
        select: ENTRY_VIEW,
      });
      for (const r of rows) out.set(r.id, r);
    }
    return out;
  }

  /** Entries of any list by id, system and tenant ones, in one query (for mapping many records). */
  async anyEntries(
    tenantId: string,
    ids: Iterable<string>,
    lang: Language,
  ): Promise<Map<string, EntryView>> {
    const out = new Map<string, EntryView>();
    const wanted = new Set<string>();
    for (const id of ids) {
      const sys = (Object.keys(SYSTEM_ENTRIES) as CompanySettingsList[])
        .map((list) => ({ list, e: systemEntry(list, id) }))
        .find((x) => x.e);
      if (sys?.e) {
        out.set(id, {
          id,
          text: this.systemText(sys.list, sys.e.key, lang),
          color: sys.e.color ?? null,
          category: null,
        });
      } else wanted.add(id);
    }
    if (wanted.size) {
      const rows = await this.prisma.companySettingsEntry.findMany({
        where: { tenantId, id: { in: [...wanted] } },
        select: ENTRY_VIEW,
      });
      for (const r of rows) out.set(r.id, r);
    }
    return out;
  }

  /** Throws 400 on `field` when `id` is not an entry of the list. */
  async requireEntry(
    tenantId: string,
    list: CompanySettingsList,
    id: string,
    field: string,
    lang: Language,
    db?: Tx,
  ): Promise<EntryView> {
    const found = (await this.entries(tenantId, list, [id], lang, db)).get(id);
    if (!found) {
      throw AppException.invalidField(field, 'unknownEntry', {
        list: this.i18n.t(`settings.lists.${LIST_I18N_NAMESPACE[list]}`, { lang }) as string,
      });
    }
    return found;
  }

  /**
   * Resolves tags given by id (must exist) or by text (found case-insensitively, else created as
   * a tenant entry). Returns the entries in input order, without duplicates.
   */
  async resolveTags(
    tx: Tx,
    tenantId: string,
    list: CompanySettingsList,
    inputs: { id?: string | null; text?: string | null; category?: string | null }[],
    field: string,
    lang: Language,
  ): Promise<EntryView[]> {
    const byId = inputs.filter((t) => t.id).map((t) => t.id!);
    const known = await this.entries(tenantId, list, byId, lang, tx);
    const problems = inputs
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => t.id && !known.has(t.id))
      .map(({ i }) => ({
        field: `${field}[${i}].id`,
        rule: 'unknownEntry',
        args: {
          list: this.i18n.t(`settings.lists.${LIST_I18N_NAMESPACE[list]}`, { lang }) as string,
        },
      }));
    if (problems.length) throw AppException.validation(problems);

    // Same lock as the settings writes (S2-S5): "unique ignoring case" holds under concurrency.
    if (inputs.some((t) => !t.id)) {
      await lockSettings(tx, tenantId);
    }
    const out = new Map<string, EntryView>();
    for (const t of inputs) {
      if (t.id) {
        out.set(t.id, known.get(t.id)!);
        continue;
      }
      const text = t.text!.trim();
      const existing = await tx.companySettingsEntry.findFirst({
        where: { tenantId, list, text: { equals: text, mode: 'insensitive' } },
        select: ENTRY_VIEW,
      });
      const entry =
        existing ??
        // upsert: two requests adding the same new tag at once both end up with one entry
        (await tx.companySettingsEntry.upsert({
          where: { tenantId_list_text: { tenantId, list, text } },
          create: { tenantId, list, text, category: t.category ?? null },
          update: {},
          select: ENTRY_VIEW,
        }));
      out.set(entry.id, entry);
    }
    return [...out.values()];
  }

  systemEntries(list: CompanySettingsList) {
    return SYSTEM_ENTRIES[list] ?? [];
  }
}
