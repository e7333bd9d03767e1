import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  checkItems,
  checkObject,
  ErrorCode,
  FieldProblem,
  isUuid,
  orThrow,
} from '@crm/errors';
import type { Language } from '@crm/i18n';
import type { RequestContext } from '@crm/request-context';
import type { CompanySettingsList } from '../generated/prisma/client';
import type { CompanySettingsEntry } from './dto/settings-entry.output';
import {
  CreateCompanySettingsEntryInput,
  UpdateCompanySettingsEntryInput,
} from './dto/settings-entry.input';
import type { Tx } from './settings-lookup.service';
import { COLOR_PATTERN, LIST_FIELDS, listOf } from './settings-lists';
import { SettingsRepository, USAGE_KIND } from './settings.repository';
import { SettingsService } from './settings.service';
import { listName, settingsProblem, t } from './settings-text';
import { systemEntry } from './system-entries';

type EntryFields = Pick<CreateCompanySettingsEntryInput, 'color' | 'category'> & { text?: string };

/** Writes of the company settings lists (S2-S5). Each runs in one transaction, all or nothing. */
@Injectable()
export class SettingsWriteService {
  constructor(
    private readonly repo: SettingsRepository,
    private readonly reads: SettingsService,
    private readonly i18n: I18nService,
  ) {}

  private notFound(lang: Language, id: string): AppException {
    return AppException.notFound(t(this.i18n, 'settings.resource.entry', lang), id);
  }

  /** Rules that depend on the list: trimmed text not empty, color and category where allowed. */
  private fieldProblems(
    list: CompanySettingsList,
    input: EntryFields,
    path: string,
    lang: Language,
  ): FieldProblem[] {
    const at = (f: string) => (path ? `${path}.${f}` : f);
    const problems: FieldProblem[] = [];
    const name = listName(this.i18n, list, lang);
    if (typeof input.text === 'string' && input.text.length && !input.text.trim())
      problems.push({ field: at('text'), rule: 'isNotEmpty' });
    if (typeof input.color === 'string') {
      if (!LIST_FIELDS[list].color)
        problems.push(settingsProblem(at('color'), 'notForList', { list: name }));
      else if (!COLOR_PATTERN.test(input.color))
        problems.push(settingsProblem(at('color'), 'colorFormat'));
    }
    if (typeof input.category === 'string' && !LIST_FIELDS[list].category)
      problems.push(settingsProblem(at('category'), 'notForList', { list: name }));
    return problems;
  }

  /**
   * Texts are unique per list ignoring case, against the tenant's entries and the system entries
   * in every language; a clash is a 409 naming each clashing item.
   */
  private async textConflicts(
    tx: Tx,
    ctx: RequestContext,
    list: CompanySettingsList,
    items: { text: string; field: string; selfId?: string }[],
  ): Promise<void> {
    const key = (s: string) => s.toLocaleLowerCase();
    const taken = new Map<string, string>(); // lower text -> owner id
    for (const s of this.reads.systemTexts(list)) taken.set(key(s.text), s.id);
    const rows = await this.repo.findByTexts(
      tx,
      ctx.tenantId,
      list,
      items.map((i) => i.text),
    );
    for (const r of rows) taken.set(key(r.text), r.id);
    const name = listName(this.i18n, list, ctx.language);
    const problems: FieldProblem[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const owner = taken.get(key(item.text));
      if ((owner && owner !== item.selfId) || seen.has(key(item.text)))
        problems.push(settingsProblem(item.field, 'textTaken', { list: name, text: item.text }));
      seen.add(key(item.text));
    }
    if (problems.length) {
      throw new AppException(
        ErrorCode.CONFLICT,
        'settings.entry.textTaken',
        { list: name, text: String(problems[0].args?.text) },
        problems,
      );
    }
  }

  /** S2: one object answers one entry, an array answers the entries in input order. */
  async create(
    ctx: RequestContext,
    slug: string,
    raw: unknown,
  ): Promise<CompanySettingsEntry | CompanySettingsEntry[]> {
    const list = listOf(slug);
    const single = !Array.isArray(raw);
    const checked = single
      ? (() => {
          const c = checkObject(CreateCompanySettingsEntryInput, raw);
          return { value: [c.value], problems: c.problems };
        })()
      : checkItems(CreateCompanySettingsEntryInput, raw);
    const path = (i: number) => (single ? '' : `[${i}]`);
    // every problem in one answer: the list's own rules for fields that passed the basic ones
    const problems = [...checked.problems];
    checked.value.forEach((input, i) => {
      for (const p of this.fieldProblems(list, input, path(i), ctx.language))
        if (!problems.some((q) => q.field === p.field)) problems.push(p);
    });
    const inputs = orThrow({ value: checked.value, problems });

    const created = await this.repo.transaction(async (tx) => {
      await this.repo.lockList(tx, ctx.tenantId);
      const texts = inputs.map((input, i) => ({
        text: input.text.trim(),
        field: path(i) ? `${path(i)}.text` : 'text',
      }));
      await this.textConflicts(tx, ctx, list, texts);
      let next = await this.repo.nextPosition(tx, ctx.tenantId, list);
      return this.repo.createMany(
        tx,
        inputs.map((input, i) => ({
          id: randomUUID(),
          tenantId: ctx.tenantId,
          list,
          text: texts[i].text,
          color: input.color ?? null,
          category: input.category?.trim() || null,
          position: input.position ?? next++,
        })),
      );
    });
    return single ? created[0] : created;
  }

  /** S3: system entries are read-only (409); another list's or tenant's entry is 404. */
  async update(
    ctx: RequestContext,
    slug: string,
    id: string,
    input: UpdateCompanySettingsEntryInput,
  ): Promise<CompanySettingsEntry> {
    const list = listOf(slug);
    if (!isUuid(id)) throw this.notFound(ctx.language, id);
    const entryId = id.toLowerCase();
    if (systemEntry(list, entryId)) throw this.readOnly(ctx, list, [entryId]);
    orThrow({ value: null, problems: this.fieldProblems(list, input, '', ctx.language) });

    return this.repo.transaction(async (tx) => {
      await this.repo.lockList(tx, ctx.tenantId);
      const [row] = await this.repo.findByIds(tx, ctx.tenantId, list, [entryId]);
      if (!row) throw this.notFound(ctx.language, id);
      const text = input.text?.trim();
      if (text !== undefined)
        await this.textConflicts(tx, ctx, list, [{ text, field: 'text', selfId: entryId }]);
      return this.repo.update(tx, ctx.tenantId, entryId, {
        ...(text !== undefined ? { text } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
        ...(input.category !== undefined ? { category: input.category?.trim() || null } : {}),
        ...(input.position !== undefined ? { position: input.position } : {}),
      });
    });
  }

  private readOnly(ctx: RequestContext, list: CompanySettingsList, ids: string[]): AppException {
    const system = this.reads.systemViews(list, ctx.language);
    const texts = ids.map((id) => system.find((e) => e.id === id)?.text ?? id);
    return new AppException(ErrorCode.CONFLICT, 'settings.entry.systemReadOnly', {
      text: texts.join('", "'),
      list: listName(this.i18n, list, ctx.language),
    });
  }

  /**
   * S4/S5. An entry still in use is refused with 409 naming how many companies (e-mail
   * addresses, relations) use it; with `force` the references are removed first, in the same
   * transaction. `field` names the ids in the errors: `id` for S5, `ids` for S4 (`ids[2]`).
   */
  async delete(
    ctx: RequestContext,
    slug: string,
    ids: string[],
    force = false,
    field: 'id' | 'ids' = 'ids',
  ): Promise<CompanySettingsEntry[]> {
    const list = listOf(slug);
    const bad = ids.filter((id) => !isUuid(id));
    if (bad.length) throw this.notFound(ctx.language, bad.join(', '));
    const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
    const system = wanted.filter((id) => systemEntry(list, id));
    if (system.length) throw this.readOnly(ctx, list, system);

    return this.repo
      .transaction(async (tx) => {
        await this.repo.lockList(tx, ctx.tenantId);
        const rows = await this.repo.findByIds(tx, ctx.tenantId, list, wanted);
        const byId = new Map(rows.map((r) => [r.id, r]));
        const missing = wanted.filter((id) => !byId.has(id));
        if (missing.length) throw this.notFound(ctx.language, missing.join(', '));

        const usage = await this.repo.usage(tx, ctx.tenantId, list, wanted);
        if (usage.size && !force) throw this.inUse(ctx, list, ids, usage, byId, field);
        if (usage.size) await this.repo.removeReferences(tx, ctx.tenantId, list, [...usage.keys()]);
        await this.repo.deleteMany(tx, ctx.tenantId, list, wanted);
        return wanted.map((id) => byId.get(id)!);
      })
      .catch((err: unknown) => {
        // a company was tagged with the entry between the usage check and the delete (foreign key)
        if ((err as { code?: string })?.code === 'P2003')
          throw new AppException(ErrorCode.CONFLICT, 'settings.entry.inUseNow');
        throw err;
      });
  }

  /** The 409 of a delete without force: one error per entry in use, in the caller's words. */
  private inUse(
    ctx: RequestContext,
    list: CompanySettingsList,
    ids: string[],
    usage: Map<string, number>,
    byId: Map<string, CompanySettingsEntry>,
    field: 'id' | 'ids',
  ): AppException {
    const key = `settings.entry.usage.${USAGE_KIND[list]}`;
    const lower = ids.map((id) => id.toLowerCase());
    const inUse = [...new Set(lower)].filter((id) => usage.has(id));
    const problems: FieldProblem[] = inUse.map((id) => ({
      field: field === 'id' ? 'id' : `ids[${lower.indexOf(id)}]`,
      rule: 'entryInUse',
      args: { text: byId.get(id)!.text, count: usage.get(id)! },
      messageKey: key,
    }));
    const details = problems.map((p) => t(this.i18n, key, ctx.language, p.args));
    return new AppException(
      ErrorCode.CONFLICT,
      'settings.entry.inUse',
      { details: details.join('; ') },
      problems,
    );
  }
}
