import { randomUUID } from 'node:crypto';
import { AppException, FieldProblem } from '@crm/errors';
import { SUPPORTED_LANGUAGES, type Language } from '@crm/i18n';
import type { SystemEntry } from './definition';
import { SettingsBase } from './settings-base';
import { TagInput, tagKey, tagsToCreate } from './entry-rules';
import { EntryView, SettingsDb, toEntryView } from './store';

/**
 * Reads and checks entries of a service's settings lists for its other domains: system entries
 * merged with the tenant's, translated. A service subclasses it as its SettingsLookupService.
 */
export class SettingsLookup<L extends string, Db extends SettingsDb> extends SettingsBase<L, Db> {
  private systemView(list: L, e: SystemEntry, lang: Language): EntryView {
    return {
      id: e.id,
      text: this.systemText(list, e.key, lang),
      color: e.color ?? null,
      category: null,
    };
  }

  /** Entries by id, in one query for the tenant's part; unknown ids are absent from the map. */
  async entries(
    tenantId: string,
    list: L,
    ids: Iterable<string>,
    lang: Language,
    db: Db = this.repo.client,
  ): Promise<Map<string, EntryView>> {
    const out = new Map<string, EntryView>();
    const wanted = new Set(ids);
    for (const id of wanted) {
      const sys = this.lists.systemEntry(list, id);
      if (sys) {
        out.set(id, this.systemView(list, sys, lang));
        wanted.delete(id);
      }
    }
    if (wanted.size) {
      for (const r of await this.repo.findByIds(db, tenantId, list, [...wanted]))
        out.set(r.id, toEntryView(r));
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
      const sys = this.lists.systemEntryList(id);
      if (sys) out.set(id, this.systemView(sys.list, sys.entry, lang));
      else wanted.add(id);
    }
    if (wanted.size) {
      for (const r of await this.repo.findByIds(this.repo.client, tenantId, undefined, [...wanted]))
        out.set(r.id, toEntryView(r));
    }
    return out;
  }

  /** Throws 400 on `field` when `id` is not an entry of the list. */
  async requireEntry(
    tenantId: string,
    list: L,
    id: string,
    field: string,
    lang: Language,
    db?: Db,
  ): Promise<EntryView> {
    const found = (await this.entries(tenantId, list, [id], lang, db)).get(id);
    if (!found) {
      throw AppException.invalidField(field, 'unknownEntry', { list: this.listName(list, lang) });
    }
    return found;
  }

  /**
   * Resolves tags given by id (must exist) or by text (found ignoring case among the system and
   * tenant entries, else created as a tenant entry, see NewTagOptions). Returns the entries in
   * input order, without duplicates. A fixed number of queries, however many tags.
   */
  async resolveTags(
    tx: Db,
    tenantId: string,
    list: L,
    inputs: TagInput[],
    field: string,
    lang: Language,
  ): Promise<EntryView[]> {
    const byId = inputs.filter((t) => t.id).map((t) => t.id!);
    const known = await this.entries(tenantId, list, byId, lang, tx);
    const problems: FieldProblem[] = inputs
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => t.id && !known.has(t.id))
      .map(({ i }) => ({
        field: `${field}[${i}].id`,
        rule: 'unknownEntry',
        args: { list: this.listName(list, lang) },
      }));
    if (problems.length) throw AppException.validation(problems);

    const named = inputs.filter((t) => !t.id);
    const byText = named.length
      ? await this.entriesByText(tx, tenantId, list, named, lang)
      : new Map<string, EntryView>();
    const out = new Map<string, EntryView>();
    for (const t of inputs) {
      const entry = t.id ? known.get(t.id)! : byText.get(tagKey(t.text!))!;
      out.set(entry.id, entry);
    }
    return [...out.values()];
  }

  /** The entries named by text (tagKey -> entry), creating the missing ones. */
  private async entriesByText(
    tx: Db,
    tenantId: string,
    list: L,
    named: TagInput[],
    lang: Language,
  ): Promise<Map<string, EntryView>> {
    // Same lock as the settings writes (S2-S5): "unique ignoring case" holds under concurrency,
    // and a text created by another request is committed (and seen below) before we go on.
    await this.repo.lock(tx, tenantId);
    const out = new Map<string, EntryView>();
    for (const e of this.lists.systemEntries(list)) {
      const view = this.systemView(list, e, lang);
      for (const l of SUPPORTED_LANGUAGES) out.set(tagKey(this.systemText(list, e.key, l)), view);
    }
    const texts = [...new Set(named.map((t) => t.text!.trim()))];
    for (const r of await this.repo.findByTexts(tx, tenantId, list, texts))
      out.set(tagKey(r.text), r);

    const options = this.lists.definition.newTags ?? {};
    const missing = tagsToCreate(named, out, this.lists.fieldsOf(list), options.category);
    if (missing.length) {
      const end =
        options.position === 'zero' ? null : await this.repo.nextPosition(tx, tenantId, list);
      const created = await this.repo.createMany(
        tx,
        missing.map((m, i) => ({
          id: randomUUID(),
          tenantId,
          list,
          text: m.text,
          color: null,
          category: m.category,
          position: end === null ? 0 : end + i,
        })),
      );
      for (const c of created) out.set(tagKey(c.text), toEntryView(c));
    }
    return out;
  }

  systemEntries(list: L): readonly SystemEntry[] {
    return this.lists.systemEntries(list);
  }
}
