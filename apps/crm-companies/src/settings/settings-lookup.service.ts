import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import type { Language } from '@crm/i18n';
import { PrismaService } from '../database/prisma.service';
import type { CompanySettingsList, Prisma } from '../generated/prisma/client';
import { LIST_FIELDS } from './settings-lists';
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
   * Resolves tags given by id (must exist) or by text (found ignoring case among the system and
   * tenant entries, else created as a tenant entry at the end of the list). Returns the entries
   * in input order, without duplicates. A fixed number of queries, however many tags.
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

    const key = (s: string) => s.trim().toLowerCase();
    const named = inputs.filter((t) => !t.id);
    const byText = named.length
      ? await this.entriesByText(tx, tenantId, list, named, lang)
      : new Map<string, EntryView>();
    const out = new Map<string, EntryView>();
    for (const t of inputs) {
      const entry = t.id ? known.get(t.id)! : byText.get(key(t.text!))!;
      out.set(entry.id, entry);
    }
    return [...out.values()];
  }

  /** The entries named by text (lower-cased text -> entry), creating the missing ones. */
  private async entriesByText(
    tx: Tx,
    tenantId: string,
    list: CompanySettingsList,
    named: { text?: string | null; category?: string | null }[],
    lang: Language,
  ): Promise<Map<string, EntryView>> {
    const key = (s: string) => s.trim().toLowerCase();
    // Same lock as the settings writes (S2-S5): "unique ignoring case" holds under concurrency,
    // and a text created by another request is committed (and seen below) before we go on.
    await lockSettings(tx, tenantId);
    const out = new Map<string, EntryView>();
    for (const e of SYSTEM_ENTRIES[list] ?? []) {
      const view = {
        id: e.id,
        text: this.systemText(list, e.key, lang),
        color: e.color ?? null,
        category: null,
      };
      for (const l of ['en', 'de'] as Language[])
        out.set(key(this.systemText(list, e.key, l)), view);
    }
    const texts = [...new Set(named.map((t) => t.text!.trim()))];
    const rows = await tx.$queryRaw<EntryView[]>`
      SELECT "id"::text AS "id", "text", "color", "category" FROM "CompanySettingsEntry"
      WHERE "tenantId" = ${tenantId} AND "list" = ${list}::"CompanySettingsList"
        AND lower("text") IN (SELECT lower(t) FROM unnest(${texts}::text[]) AS t)`;
    for (const r of rows) out.set(key(r.text), r);

    const missing = new Map<string, { text: string; category: string | null }>();
    for (const t of named) {
      const k = key(t.text!);
      if (!out.has(k) && !missing.has(k))
        missing.set(k, {
          text: t.text!.trim(),
          category: LIST_FIELDS[list].category ? t.category?.trim() || null : null,
        });
    }
    if (missing.size) {
      const max = await tx.companySettingsEntry.aggregate({
        where: { tenantId, list },
        _max: { position: true },
      });
      let position = max._max.position === null ? 0 : max._max.position + 1;
      const created = await tx.companySettingsEntry.createManyAndReturn({
        data: [...missing.values()].map((m) => ({
          id: randomUUID(),
          tenantId,
          list,
          text: m.text,
          category: m.category,
          position: position++,
        })),
        select: ENTRY_VIEW,
      });
      for (const c of created) out.set(key(c.text), c);
    }
    return out;
  }

  systemEntries(list: CompanySettingsList) {
    return SYSTEM_ENTRIES[list] ?? [];
  }
}
