import { randomUUID } from 'node:crypto';
import type { ClassConstructor } from 'class-transformer';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  checkItems,
  checkObject,
  ErrorCode,
  FieldProblem,
  isUuid,
  MessageArgs,
  orThrow,
} from '@crm/errors';
import type { Language } from '@crm/i18n';
import type { RequestContext } from '@crm/request-context';
import type { SettingsCatalog } from './definition';
import { isUniqueViolation } from '@crm/persistence';
import {
  domainProblem,
  entryFieldProblems,
  EntryFields,
  inInsertOrder,
  textClashes,
  textKey,
} from './entry-rules';
import { SettingsBase } from './settings-base';
import { EntryData, SettingsDb, SettingsEntryData, SettingsStore, toEntryData } from './store';

/** An item of S2 after class-validator (the service's Create…SettingsEntryInput). */
export interface CreateEntryInput extends EntryFields {
  text: string;
  position?: number | null;
  /**
   * Structured data of lists that carry it (only services whose table has a `data` column);
   * checked by the service's `dataProblems`, stored as given when present.
   */
  data?: unknown;
}

/** The body of S3 after class-validator (the service's Update…SettingsEntryInput). */
export interface UpdateEntryInput extends EntryFields {
  position?: number;
  /** As in CreateEntryInput; absent: stays as it is. */
  data?: unknown;
}

/**
 * What uses a service's entries: that differs per service. `U` is the usage of one entry (a
 * count, or counts of several kinds).
 */
export interface SettingsReferences<L extends string, Db extends SettingsDb, U> {
  /** The usage of each entry; entries nobody uses are absent. */
  usage(tx: Db, tenantId: string, list: L, ids: string[]): Promise<Map<string, U>>;
  /** Removes every reference to the entries (S4/S5 with force=true), in the transaction. */
  removeReferences(tx: Db, tenantId: string, list: L, ids: string[]): Promise<void>;
  /**
   * The words of one entry's usage in the 409 of a delete without force: a message key and its
   * arguments (the entry's text is added as `text`).
   */
  usageMessage(list: L, usage: U): { messageKey: string; args: MessageArgs };
}

/**
 * Writes of a service's settings lists (S2-S5), each in one transaction, all or nothing. A
 * service subclasses it as its SettingsWriteService.
 */
export class SettingsWrites<L extends string, Db extends SettingsDb, U> extends SettingsBase<
  L,
  Db
> {
  constructor(
    store: SettingsStore<L, Db>,
    lists: SettingsCatalog<L>,
    i18n: I18nService,
    protected readonly references: SettingsReferences<L, Db, U>,
    /** The class S2 checks each item with (class-validator, unknown fields refused). */
    private readonly createInput: ClassConstructor<CreateEntryInput>,
  ) {
    super(store, lists, i18n);
  }

  private notFound(lang: Language, id: string): AppException {
    return AppException.notFound(this.t(this.lists.messages.entryResource, lang), id);
  }

  private fieldProblems(list: L, input: EntryFields, path: string, lang: Language) {
    return entryFieldProblems(
      this.lists.fieldsOf(list),
      input,
      path,
      this.listName(list, lang),
      this.lists.messages.problems,
    );
  }

  /**
   * The service's own rules for the structured `data` of an entry (S2 item or S3 body), beyond
   * the fields every list has: none by default. `path` names the item (`[2]` -> `[2].data`);
   * `create` tells S2 (where a list may require data) from S3 (absent data stays).
   */
  protected dataProblems(
    _list: L,
    _input: CreateEntryInput | UpdateEntryInput,
    _path: string,
    _create: boolean,
    _lang: Language,
  ): FieldProblem[] {
    return [];
  }

  /**
   * Texts are unique per list ignoring case, against the tenant's entries and the system entries
   * in every language; a clash is a 409 naming each clashing item.
   */
  private async textConflicts(
    tx: Db,
    ctx: RequestContext,
    list: L,
    items: { text: string; field: string; selfId?: string }[],
  ): Promise<void> {
    const taken = new Map<string, string>(); // textKey -> owner id
    for (const s of this.systemTexts(list)) taken.set(textKey(s.text), s.id);
    const rows = await this.repo.findByTexts(
      tx,
      ctx.tenantId,
      list,
      items.map((i) => i.text),
    );
    for (const r of rows) taken.set(textKey(r.text), r.id);
    const clashes = textClashes(taken, items);
    if (clashes.length) throw this.textTaken(ctx, list, clashes);
  }

  /** The 409 of texts taken, naming each clashing item. */
  private textTaken(
    ctx: RequestContext,
    list: L,
    clashes: { text: string; field: string }[],
  ): AppException {
    const name = this.listName(list, ctx.language);
    const problems = clashes.map((item) =>
      domainProblem(this.lists.messages.problems, item.field, 'textTaken', {
        list: name,
        text: item.text,
      }),
    );
    return new AppException(
      ErrorCode.CONFLICT,
      this.lists.messages.textTaken,
      { list: name, text: clashes[0].text },
      problems,
    );
  }

  /**
   * Runs a write of texts (S2, S3) in its transaction. The lock orders the settings writes, but
   * tags named by text are created without it: one created between the check and the insert
   * makes the insert fail on the unique index ignoring case. The write then runs once more, and
   * its check sees that entry and answers 409 textTaken; should that race repeat, `items` are
   * named as taken. Never a 500 for a text taken.
   */
  private async writeTexts<T>(
    ctx: RequestContext,
    list: L,
    items: { text: string; field: string }[],
    write: (tx: Db) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.repo.transaction(write);
      } catch (err) {
        if (!isUniqueViolation(err) || !items.length) throw err;
        if (attempt === 2) throw this.textTaken(ctx, list, items);
      }
    }
  }

  /** S2: one object answers one entry, an array answers the entries in input order. */
  async create(
    ctx: RequestContext,
    slug: string,
    raw: unknown,
  ): Promise<SettingsEntryData | SettingsEntryData[]> {
    const list = this.lists.listOf(slug);
    const single = !Array.isArray(raw);
    const checked = single
      ? (() => {
          const c = checkObject(this.createInput, raw);
          return { value: [c.value], problems: c.problems };
        })()
      : checkItems(this.createInput, raw);
    const path = (i: number) => (single ? '' : `[${i}]`);
    // every problem in one answer: the list's own rules for fields that passed the basic ones
    const problems: FieldProblem[] = [...checked.problems];
    checked.value.forEach((input, i) => {
      const own = [
        ...this.fieldProblems(list, input, path(i), ctx.language),
        ...this.dataProblems(list, input, path(i), true, ctx.language),
      ];
      for (const p of own) if (!problems.some((q) => q.field === p.field)) problems.push(p);
    });
    const inputs = orThrow({ value: checked.value, problems });

    const texts = inputs.map((input, i) => ({
      text: input.text.trim(),
      field: path(i) ? `${path(i)}.text` : 'text',
    }));
    const created = await this.writeTexts(ctx, list, texts, async (tx) => {
      await this.repo.lock(tx, ctx.tenantId);
      await this.textConflicts(tx, ctx, list, texts);
      let next = await this.repo.nextPosition(tx, ctx.tenantId, list);
      const rows = inputs.map((input, i) => ({
        id: randomUUID(),
        tenantId: ctx.tenantId,
        list,
        text: texts[i].text,
        color: input.color ?? null,
        category: input.category?.trim() || null,
        position: input.position ?? next++,
        ...(input.data !== undefined ? { data: input.data as EntryData } : {}),
      }));
      // inserted in the order every writer of entries uses, so this and a concurrent tag insert
      // cannot deadlock; answered in input order
      const saved = await this.repo.createMany(tx, inInsertOrder(rows));
      const byId = new Map(saved.map((r) => [r.id, r]));
      return rows.map((r) => byId.get(r.id)!);
    });
    return single ? toEntryData(created[0]) : created.map(toEntryData);
  }

  /** S3: system entries are read-only (409); another list's or tenant's entry is 404. */
  async update(
    ctx: RequestContext,
    slug: string,
    id: string,
    input: UpdateEntryInput,
  ): Promise<SettingsEntryData> {
    const list = this.lists.listOf(slug);
    if (!isUuid(id)) throw this.notFound(ctx.language, id);
    const entryId = this.lists.entryId(id);
    if (this.lists.systemEntry(list, entryId)) throw this.readOnly(ctx, list, [entryId]);
    orThrow({
      value: null,
      problems: [
        ...this.fieldProblems(list, input, '', ctx.language),
        ...this.dataProblems(list, input, '', false, ctx.language),
      ],
    });

    const text = input.text?.trim();
    const items = text === undefined ? [] : [{ text, field: 'text' }];
    return this.writeTexts(ctx, list, items, async (tx) => {
      await this.repo.lock(tx, ctx.tenantId);
      const [row] = await this.repo.findByIds(tx, ctx.tenantId, list, [entryId]);
      if (!row) throw this.notFound(ctx.language, id);
      if (text !== undefined)
        await this.textConflicts(tx, ctx, list, [{ text, field: 'text', selfId: entryId }]);
      const saved = await this.repo.update(tx, ctx.tenantId, entryId, {
        ...(text !== undefined ? { text } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
        ...(input.category !== undefined ? { category: input.category?.trim() || null } : {}),
        ...(input.position !== undefined ? { position: input.position } : {}),
        ...(input.data !== undefined ? { data: input.data as EntryData } : {}),
      });
      await this.afterUpdate(tx, ctx.tenantId, list, entryId, input);
      return toEntryData(saved);
    });
  }

  /**
   * Runs in the transaction of S3 after the entry is saved: a service whose records keep a copy
   * of an entry's data (a snapshot announced to other services) refreshes them here. No-op by
   * default.
   */
  protected afterUpdate(
    _tx: Db,
    _tenantId: string,
    _list: L,
    _id: string,
    _input: UpdateEntryInput,
  ): Promise<void> {
    return Promise.resolve();
  }

  private readOnly(ctx: RequestContext, list: L, ids: string[]): AppException {
    const system = this.systemViews(list, ctx.language);
    const texts = ids.map((id) => system.find((e) => e.id === id)?.text ?? id);
    return AppException.conflictOn('ids', 'systemReadOnly', this.lists.messages.systemReadOnly, {
      text: texts.join('", "'),
      list: this.listName(list, ctx.language),
    });
  }

  /**
   * S4/S5. An entry still in use is refused with 409 saying what uses it (one error per entry);
   * with `force` the references are removed first, in the same transaction. `field` names the
   * ids in the errors: `id` for S5, `ids` for S4 (`ids[2]`).
   */
  async delete(
    ctx: RequestContext,
    slug: string,
    ids: string[],
    force = false,
    field: 'id' | 'ids' = 'ids',
  ): Promise<SettingsEntryData[]> {
    const list = this.lists.listOf(slug);
    const bad = [...new Set(ids.filter((id) => !isUuid(id)))];
    if (bad.length) throw this.notFound(ctx.language, bad.join(', '));
    const keys = ids.map((id) => this.lists.entryId(id));
    const wanted = [...new Set(keys)];
    const system = wanted.filter((id) => this.lists.systemEntry(list, id));
    if (system.length) throw this.readOnly(ctx, list, system);

    return this.repo
      .transaction(async (tx) => {
        await this.repo.lock(tx, ctx.tenantId);
        const rows = await this.repo.findByIds(tx, ctx.tenantId, list, wanted);
        const byId = new Map(rows.map((r) => [r.id, r]));
        const missing = wanted.filter((id) => !byId.has(id));
        if (missing.length) throw this.notFound(ctx.language, missing.join(', '));

        const usage = await this.references.usage(tx, ctx.tenantId, list, wanted);
        if (usage.size && !force) {
          const inUse = wanted.filter((id) => usage.has(id));
          throw this.inUse(ctx, list, inUse, usage, byId, (id) =>
            field === 'id' ? 'id' : `${field}[${keys.indexOf(id)}]`,
          );
        }
        if (usage.size)
          await this.references.removeReferences(tx, ctx.tenantId, list, [...usage.keys()]);
        await this.repo.deleteMany(tx, ctx.tenantId, list, wanted);
        return wanted.map((id) => toEntryData(byId.get(id)!));
      })
      .catch((err: unknown) => {
        // a record took the entry between the usage check and the delete (foreign key)
        if ((err as { code?: string })?.code === 'P2003')
          throw AppException.conflictOn('ids', 'inUseNow', this.lists.messages.inUseNow);
        throw err;
      });
  }

  /** The 409 of a delete without force: one error per entry in use, in the caller's words. */
  private inUse(
    ctx: RequestContext,
    list: L,
    inUse: string[],
    usage: Map<string, U>,
    byId: Map<string, { text: string }>,
    fieldOf: (id: string) => string,
  ): AppException {
    const problems: FieldProblem[] = inUse.map((id) => {
      const { messageKey, args } = this.references.usageMessage(list, usage.get(id)!);
      return {
        field: fieldOf(id),
        rule: 'entryInUse',
        args: { text: byId.get(id)!.text, ...args },
        messageKey,
      };
    });
    const details = problems.map((p) => this.t(p.messageKey!, ctx.language, p.args));
    return new AppException(
      ErrorCode.CONFLICT,
      this.lists.messages.inUse,
      { details: details.join('; ') },
      problems,
    );
  }
}
