import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, FieldProblem, fieldPath, isUuid, MessageArgs } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { CompanySettingsList } from '../generated/prisma/client';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { LIST_I18N_NAMESPACE } from '../settings/system-entries';
import type { CompanyFieldsInput, CompanyTagInput } from './dto/company.input';
import { CompaniesRepository } from './companies.repository';
import type { Tx } from '../database/tx';

/** One body to check and the path its fields are reported under (`` or `[3]`). */
export interface InputAt {
  prefix: string;
  input: Partial<CompanyFieldsInput>;
}

/** An entry id of a settings list, given in `field`. */
export interface EntryRef {
  list: CompanySettingsList;
  field: string;
  id: string;
}

const SINGLE_ENTRIES = [
  ['legalForm', 'LEGAL_FORMS'],
  ['industrySector', 'INDUSTRY_SECTORS'],
  ['employeeCount', 'EMPLOYEE_COUNTS'],
  ['customerCount', 'CUSTOMER_COUNTS'],
] as const;

/**
 * The checks of company bodies that need the database (entries of settings lists, companies of
 * the tenant). Each check runs one query per list for all items, so a batch of 1000 costs what
 * one does.
 */
@Injectable()
export class CompanyChecks {
  constructor(
    private readonly settings: SettingsLookupService,
    private readonly repo: CompaniesRepository,
    private readonly i18n: I18nService,
  ) {}

  /** A problem of a rule of this domain, worded here: the shared catalogue does not know it. */
  problem(field: string, rule: string, ctx: RequestContext, args: MessageArgs = {}): FieldProblem {
    const fallback = this.i18n.t(`companies.validation.${rule}`, {
      lang: ctx.language,
      args: { field, ...args },
    }) as string;
    return { field, rule, args, fallback };
  }

  /** 404 naming every id (by its field) that is not a company of the tenant. */
  notFoundMany(problems: FieldProblem[]): AppException {
    return new AppException(
      ErrorCode.NOT_FOUND,
      'companies.errors.notFoundMany',
      { count: problems.length },
      problems,
    );
  }

  private listName(list: CompanySettingsList, ctx: RequestContext): string {
    return this.i18n.t(`settings.lists.${LIST_I18N_NAMESPACE[list]}`, {
      lang: ctx.language,
    }) as string;
  }

  /** The settings entries a company body refers to, each with the field it was given in. */
  static refsOf(prefix: string, input: Partial<CompanyFieldsInput>): EntryRef[] {
    const refs: EntryRef[] = [];
    // Malformed ids were reported by the DTO check already; the database would refuse them.
    const lifecycleId = input.lifecycle?.lifecycleId;
    if (isUuid(lifecycleId)) {
      refs.push({
        list: 'LIFECYCLES',
        field: fieldPath(prefix, 'lifecycle.lifecycleId'),
        id: lifecycleId,
      });
    }
    for (const [name, list] of SINGLE_ENTRIES) {
      const id = input[name]?.id;
      if (isUuid(id)) refs.push({ list, field: fieldPath(prefix, `${name}.id`), id });
    }
    if (Array.isArray(input.referenceNumbers)) {
      input.referenceNumbers.forEach((r, i) => {
        const id = (r as { type?: { id?: unknown } } | null)?.type?.id;
        if (isUuid(id)) {
          refs.push({
            list: 'REFERENCE_NUMBER_TYPES',
            field: fieldPath(prefix, `referenceNumbers[${i}].type.id`),
            id,
          });
        }
      });
    }
    refs.push(...CompanyChecks.tagRefs(input.tags, (i) => fieldPath(prefix, `tags[${i}].id`)));
    return refs;
  }

  /** The tags given by id; `at(i)` names the field of the i-th tag. */
  static tagRefs(tags: unknown, at: (i: number) => string): EntryRef[] {
    if (!Array.isArray(tags)) return [];
    return (tags as ({ id?: unknown } | null)[]).flatMap((t, i) =>
      isUuid(t?.id) ? [{ list: 'TAGS' as const, field: at(i), id: t.id }] : [],
    );
  }

  /** Entry ids of company bodies that are not entries of their list. */
  entryProblems(ctx: RequestContext, items: InputAt[]): Promise<FieldProblem[]> {
    return this.unknownEntries(
      ctx,
      items.flatMap((it) => CompanyChecks.refsOf(it.prefix, it.input)),
    );
  }

  /** One problem per reference that is not an entry of its list (one query for all lists). */
  async unknownEntries(ctx: RequestContext, refs: EntryRef[], db?: Tx): Promise<FieldProblem[]> {
    const missing = await this.settings.missingEntries(
      ctx.tenantId,
      refs.map((r) => ({ list: r.list, id: r.id.toLowerCase() })),
      db,
    );
    return refs
      .filter((_, i) => missing[i])
      .map((r) => ({
        field: r.field,
        rule: 'unknownEntry',
        args: { list: this.listName(r.list, ctx) },
      }));
  }

  /** Ids (at their fields) that name no company of the tenant: one query for all. */
  async unknownCompanies(
    ctx: RequestContext,
    refs: { field: string; id: string }[],
    db?: Tx,
  ): Promise<FieldProblem[]> {
    const valid = refs.filter((r) => isUuid(r.id));
    const found = await this.repo.existingIds(
      ctx.tenantId,
      valid.map((r) => r.id.toLowerCase()),
      db,
    );
    return valid
      .filter((r) => !found.has(r.id.toLowerCase()))
      .map((r) => this.problem(r.field, 'unknownCompany', ctx));
  }

  /** Malformed ids of id lists -> problems naming each by index (`tagIds[2]`). */
  malformedIds(ctx: RequestContext, lists: Record<string, readonly unknown[]>): FieldProblem[] {
    return Object.entries(lists).flatMap(([field, ids]) =>
      ids.flatMap((id, i) => (isUuid(id) ? [] : [this.problem(`${field}[${i}]`, 'isUuid', ctx)])),
    );
  }

  /**
   * Finds or creates, in one go, the tag entries of every text among `tags` (all items of a
   * batch) and notes them in `cache` (lower-cased text -> entry id) for tagEntryIds.
   */
  async preloadTagTexts(
    tx: Tx,
    ctx: RequestContext,
    tags: CompanyTagInput[],
    field: string,
    cache: Map<string, string>,
  ): Promise<void> {
    const texts = [
      ...new Set(
        tags
          .filter((t) => !t.id && t.text)
          .map((t) => t.text!.trim())
          .filter((text) => text && !cache.has(text.toLowerCase())),
      ),
    ].filter((text, i, all) => all.findIndex((o) => o.toLowerCase() === text.toLowerCase()) === i);
    if (!texts.length) return;
    const entries = await this.settings.resolveTags(
      tx,
      ctx.tenantId,
      'TAGS',
      texts.map((text) => ({ text })),
      field,
      ctx.language,
    );
    // In input order without duplicates: one entry per text unless two texts name one entry;
    // then tagEntryIds asks per text (the entries exist by now, so nothing is created twice).
    if (entries.length === texts.length) {
      texts.forEach((text, i) => cache.set(text.toLowerCase(), entries[i].id));
    }
  }

  /**
   * Entry ids for tags given by id or by text, in input order without duplicates. A text names
   * the entry with that text (any case) or creates it; `cache` spares repeating that per item.
   * Ids were checked before; call inside the transaction of the write.
   */
  async tagEntryIds(
    tx: Tx,
    ctx: RequestContext,
    tags: CompanyTagInput[],
    field: string,
    cache: Map<string, string>,
  ): Promise<string[]> {
    const out: string[] = [];
    for (const t of tags) {
      let id = t.id?.toLowerCase();
      if (!id) {
        const text = (t.text ?? '').trim();
        const key = text.toLowerCase();
        id = cache.get(key);
        if (!id) {
          const [found] = await this.settings.resolveTags(
            tx,
            ctx.tenantId,
            'TAGS',
            [{ text }],
            field,
            ctx.language,
          );
          id = found.id;
          cache.set(key, id);
        }
      }
      if (!out.includes(id)) out.push(id);
    }
    return out;
  }
}
