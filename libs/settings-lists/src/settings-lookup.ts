import { AppException, FieldProblem } from '@crm/errors';
import { SUPPORTED_LANGUAGES, type Language } from '@crm/i18n';
import type { SystemEntry } from './definition';
import { SettingsBase } from './settings-base';
import { inInsertOrder, NewTag, TagInput, tagKey, tagsToCreate } from './entry-rules';
import { EntryView, SettingsDb, toEntryView } from './store';

/** Rounds of insert and read again before createTags gives up (each round, a text was deleted). */
const CREATE_ROUNDS = 3;

/** Tags resolved as far as the existing entries go: what findTags answers, createTags finishes. */
export interface TagLookup<L extends string> {
  readonly tenantId: string;
  readonly list: L;
  readonly inputs: readonly TagInput[];
  /** The entries of the tags given by id. */
  readonly byId: ReadonlyMap<string, EntryView>;
  /** tagKey of a text -> its entry: system entries in every language, the tenant's found. */
  readonly byText: ReadonlyMap<string, EntryView>;
  /** The entries to create, once per text ignoring case; empty when every tag has its entry. */
  readonly toCreate: readonly NewTag[];
}

/**
 * Reads and checks entries of a service's settings lists for its other domains: system entries
 * merged with the tenant's, translated. A service subclasses it as its SettingsLookupService.
 */
export class SettingsLookup<L extends string, Db extends SettingsDb> extends SettingsBase<L, Db> {
  /** Per list: the tagKey of every text a system entry has in any language -> the entry. */
  private readonly systemByText = new Map<L, Map<string, SystemEntry>>();

  /**
   * Built once per list on first use (the texts are fixed once the catalogue is loaded):
   * translating every system entry into every language on each create that names a tag by
   * text cost more CPU than the rest of the create.
   */
  private systemEntriesByText(list: L): Map<string, SystemEntry> {
    let byText = this.systemByText.get(list);
    if (!byText) {
      byText = new Map();
      for (const e of this.lists.systemEntries(list))
        for (const l of SUPPORTED_LANGUAGES) byText.set(tagKey(this.systemText(list, e.key, l)), e);
      this.systemByText.set(list, byText);
    }
    return byText;
  }

  private systemView(list: L, e: SystemEntry, lang: Language): EntryView {
    return {
      id: e.id,
      text: this.systemText(list, e.key, lang),
      color: e.color ?? null,
      category: null,
    };
  }

  /**
   * For each reference, whether it names no entry of its list (system, or the tenant's): one
   * query for all lists, where checking list by list took one round trip per list.
   */
  async missingEntries(
    tenantId: string,
    refs: readonly { list: L; id: string }[],
    db: Db = this.repo.client,
  ): Promise<boolean[]> {
    const isSystem = (r: { list: L; id: string }) => !!this.lists.systemEntry(r.list, r.id);
    const tenantIds = [...new Set(refs.filter((r) => !isSystem(r)).map((r) => r.id))];
    const lists = tenantIds.length
      ? await this.repo.listsOf(db, tenantId, tenantIds)
      : new Map<string, L>();
    return refs.map((r) => !isSystem(r) && lists.get(r.id) !== r.list);
  }

  /** The system entry a tag text names in any language, translated into `lang`; else undefined. */
  systemTag(list: L, text: string, lang: Language): EntryView | undefined {
    const e = this.systemEntriesByText(list).get(tagKey(text));
    return e && this.systemView(list, e, lang);
  }

  /** The system entry of `list` with `id`, translated into `lang`; else undefined. */
  systemEntryView(list: L, id: string, lang: Language): EntryView | undefined {
    const e = this.lists.systemEntry(list, id);
    return e && this.systemView(list, e, lang);
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
   * input order, without duplicates. A fixed number of queries, however many tags. Takes no lock:
   * call it in the transaction of the write that uses the entries.
   */
  async resolveTags(
    tx: Db,
    tenantId: string,
    list: L,
    inputs: TagInput[],
    field: string,
    lang: Language,
  ): Promise<EntryView[]> {
    return this.createTags(tx, await this.findTags(tx, tenantId, list, inputs, field, lang));
  }

  /**
   * The entries of tags named by text (tagKey of each text -> entry), creating the missing ones:
   * resolveTags for many items at once (a batch), without the checks of ids.
   */
  async resolveTagTexts(
    tx: Db,
    tenantId: string,
    list: L,
    named: TagInput[],
    lang: Language,
  ): Promise<Map<string, EntryView>> {
    // texts only: no id to report, so no field either
    const texts = named.filter((t) => !t.id);
    return this.withCreated(tx, await this.findTags(tx, tenantId, list, texts, '', lang));
  }

  /**
   * The first half of resolveTags, reads only: checks the ids (400 naming each unknown one) and
   * finds the entries of the texts. When `toCreate` of the answer is empty, createTags needs no
   * query and no transaction: callers read this outside their transaction and open one only
   * when a tag has to be created.
   */
  async findTags(
    db: Db,
    tenantId: string,
    list: L,
    inputs: TagInput[],
    field: string,
    lang: Language,
  ): Promise<TagLookup<L>> {
    const byId = await this.entries(
      tenantId,
      list,
      inputs.filter((t) => t.id).map((t) => t.id!),
      lang,
      db,
    );
    const problems: FieldProblem[] = inputs
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => t.id && !byId.has(t.id))
      .map(({ i }) => ({
        field: `${field}[${i}].id`,
        rule: 'unknownEntry',
        args: { list: this.listName(list, lang) },
      }));
    if (problems.length) throw AppException.validation(problems);

    const byText = new Map<string, EntryView>();
    const named = inputs.filter((t) => !t.id);
    if (named.length) {
      const system = this.systemEntriesByText(list);
      for (const t of named) {
        const e = system.get(tagKey(t.text!));
        if (e) byText.set(tagKey(t.text!), this.systemView(list, e, lang));
      }
      const texts = [...new Set(named.map((t) => t.text!.trim()))];
      for (const r of await this.repo.findForTexts(db, tenantId, list, texts))
        byText.set(tagKey(r.given), toEntryView(r));
    }
    const options = this.lists.definition.newTags ?? {};
    return {
      tenantId,
      list,
      inputs,
      byId,
      byText,
      toCreate: tagsToCreate(named, byText, this.lists.fieldsOf(list), options.category),
    };
  }

  /**
   * The second half of resolveTags: creates the entries `lookup` lacks (none: no query) and
   * answers the tags' entries in input order, without duplicates. No lock: the insert skips a
   * text another request created meanwhile (the unique index ignoring case), and the entries it
   * skipped are read again, so both requests get the same entry. One insert and at most one
   * read, however many tags (a text deleted in between costs one more round).
   */
  async createTags(tx: Db, lookup: TagLookup<L>): Promise<EntryView[]> {
    const byText = await this.withCreated(tx, lookup);
    const out = new Map<string, EntryView>();
    for (const t of lookup.inputs) {
      const entry = t.id ? lookup.byId.get(t.id)! : byText.get(tagKey(t.text!))!;
      out.set(entry.id, entry);
    }
    return [...out.values()];
  }

  /** `lookup.byText` and the entries of `lookup.toCreate`, created or found (see createTags). */
  private async withCreated(tx: Db, lookup: TagLookup<L>): Promise<Map<string, EntryView>> {
    const { tenantId, list } = lookup;
    const byText = new Map(lookup.byText);
    const position = this.lists.definition.newTags?.position === 'zero' ? 'zero' : 'end';
    // positions follow the input order, the insert the order of every writer (no deadlock)
    let pending = inInsertOrder(lookup.toCreate.map((m, offset) => ({ ...m, offset })));
    for (let round = 0; pending.length; round++) {
      if (round === CREATE_ROUNDS)
        throw new Error(`settings lists: could neither create nor find tags of ${list}`);
      for (const c of await this.repo.insertTags(tx, tenantId, list, pending, position))
        byText.set(tagKey(c.text), toEntryView(c));
      const taken = pending.filter((m) => !byText.has(m.key));
      if (!taken.length) break;
      const texts = taken.map((m) => m.text);
      for (const r of await this.repo.findForTexts(tx, tenantId, list, texts))
        byText.set(tagKey(r.given), toEntryView(r));
      pending = taken.filter((m) => !byText.has(m.key));
    }
    return byText;
  }

  systemEntries(list: L): readonly SystemEntry[] {
    return this.lists.systemEntries(list);
  }
}
