import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  checkItems,
  checkObject,
  ErrorCode,
  FieldProblem,
  orThrow,
  isUuid,
} from '@crm/errors';
import type { Language } from '@crm/i18n';
import type { RequestContext } from '@crm/request-context';
import type { PeopleSettingsList } from '../generated/prisma/client';
import type { SettingsEntry } from './dto/settings-entry.dto';
import { CreateSettingsEntryInput, UpdateSettingsEntryInput } from './dto/settings-entry.input';
import { COLOR_PATTERN, LIST_FIELDS, listOf } from './settings-lists';
import { SettingsRepository, Tx } from './settings.repository';
import { SettingsService } from './settings.service';
import { domainProblem, listName, t } from './settings-text';
import { systemEntry } from './system-entries';

type EntryFields = Pick<CreateSettingsEntryInput, 'color' | 'category'> & { text?: string };

/** Writes of the people settings lists (S2-S5). Each runs in one transaction, all or nothing. */
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
    list: PeopleSettingsList,
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
        problems.push(
          domainProblem(this.i18n, 'settings', lang, at('color'), 'notForList', { list: name }),
        );
      else if (!COLOR_PATTERN.test(input.color))
        problems.push(domainProblem(this.i18n, 'settings', lang, at('color'), 'colorFormat'));
    }
    if (typeof input.category === 'string' && !LIST_FIELDS[list].category)
      problems.push(
        domainProblem(this.i18n, 'settings', lang, at('category'), 'notForList', { list: name }),
      );
    return problems;
  }

  /**
   * Texts are unique per list ignoring case, against the tenant's entries and the system entries
   * in every language; a clash is a 409 naming each clashing item.
   */
  private async textConflicts(
    tx: Tx,
    ctx: RequestContext,
    list: PeopleSettingsList,
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
        problems.push(
          domainProblem(this.i18n, 'settings', ctx.language, item.field, 'textTaken', {
            list: name,
            text: item.text,
          }),
        );
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
  ): Promise<SettingsEntry | SettingsEntry[]> {
    const list = listOf(slug);
    const single = !Array.isArray(raw);
    const checked = single
      ? (() => {
          const c = checkObject(CreateSettingsEntryInput, raw);
          return { value: [c.value], problems: c.problems };
        })()
      : checkItems(CreateSettingsEntryInput, raw);
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
      const rows = inputs.map((input, i) => ({
        id: randomUUID(),
        tenantId: ctx.tenantId,
        list,
        text: texts[i].text,
        color: input.color ?? null,
        category: input.category?.trim() || null,
        position: input.position ?? next++,
      }));
      const saved = await this.repo.createMany(tx, rows);
      const byId = new Map(saved.map((r) => [r.id, r]));
      return rows.map((r) => SettingsService.toView(byId.get(r.id)!));
    });
    return single ? created[0] : created;
  }

  /** S3: system entries are read-only (409); another list's or tenant's entry is 404. */
  async update(
    ctx: RequestContext,
    slug: string,
    id: string,
    input: UpdateSettingsEntryInput,
  ): Promise<SettingsEntry> {
    const list = listOf(slug);
    if (!isUuid(id)) throw this.notFound(ctx.language, id);
    const sys = systemEntry(list, id);
    if (sys) throw this.readOnly(ctx, list, [id]);
    orThrow({ value: null, problems: this.fieldProblems(list, input, '', ctx.language) });

    return this.repo.transaction(async (tx) => {
      await this.repo.lockList(tx, ctx.tenantId);
      const [row] = await this.repo.findByIds(tx, ctx.tenantId, list, [id]);
      if (!row) throw this.notFound(ctx.language, id);
      const text = input.text?.trim();
      if (text !== undefined)
        await this.textConflicts(tx, ctx, list, [{ text, field: 'text', selfId: id }]);
      const saved = await this.repo.update(tx, ctx.tenantId, id, {
        ...(text !== undefined ? { text } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
        ...(input.category !== undefined ? { category: input.category?.trim() || null } : {}),
        ...(input.position !== undefined ? { position: input.position } : {}),
      });
      return SettingsService.toView(saved);
    });
  }

  private readOnly(ctx: RequestContext, list: PeopleSettingsList, ids: string[]): AppException {
    const system = this.reads.systemViews(list, ctx.language);
    const texts = ids.map((id) => system.find((e) => e.id === id)?.text ?? id);
    return new AppException(ErrorCode.CONFLICT, 'settings.entry.systemReadOnly', {
      text: texts.join('", "'),
      list: listName(this.i18n, list, ctx.language),
    });
  }

  /**
   * S4/S5. An entry still in use is refused with 409 naming how many people (and touchpoints)
   * use it; with `force` the references are removed first, in the same transaction.
   */
  async delete(
    ctx: RequestContext,
    slug: string,
    ids: string[],
    force = false,
    field = 'ids',
  ): Promise<SettingsEntry[]> {
    const list = listOf(slug);
    const wanted = [...new Set(ids)];
    const bad = wanted.filter((id) => !isUuid(id));
    if (bad.length) throw this.notFound(ctx.language, bad.join(', '));
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
        if (usage.size && !force) {
          const inUse = wanted.filter((id) => usage.has(id));
          const details = inUse.map((id) => {
            const u = usage.get(id)!;
            return t(
              this.i18n,
              u.touchpoints ? 'settings.entry.usageWithTouchpoints' : 'settings.entry.usage',
              ctx.language,
              { text: byId.get(id)!.text, people: u.people, touchpoints: u.touchpoints },
            );
          });
          throw new AppException(
            ErrorCode.CONFLICT,
            'settings.entry.inUse',
            { details: details.join('; ') },
            inUse.map((id, k) => ({
              field: ids.length === 1 && field === 'id' ? 'id' : `${field}[${ids.indexOf(id)}]`,
              rule: 'entryInUse',
              args: usage.get(id) as unknown as Record<string, number>,
              fallback: details[k],
            })),
          );
        }
        if (usage.size) await this.repo.removeReferences(tx, ctx.tenantId, list, [...usage.keys()]);
        await this.repo.deleteMany(tx, ctx.tenantId, list, wanted);
        return wanted.map((id) => SettingsService.toView(byId.get(id)!));
      })
      .catch((err: unknown) => {
        // someone tagged with the entry between the usage check and the delete (foreign key)
        if ((err as { code?: string })?.code === 'P2003')
          throw new AppException(ErrorCode.CONFLICT, 'settings.entry.inUseNow');
        throw err;
      });
  }
}
