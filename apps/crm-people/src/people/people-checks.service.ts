import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { FieldProblem, MessageArgs } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { tagKey } from '@crm/settings-lists';
import type { PeopleSettingsList } from '../generated/prisma/client';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { LIST_I18N_NAMESPACE } from '../settings/system-entries';
import type { CreatePersonInput, EmbeddedPersonalityInput } from './dto/person.input';
import { PeopleRepository } from './people.repository';
import { fieldPath, isUuid } from '@crm/errors';
import type { Tx } from '../database/tx';

/** One body to check and the path its fields are reported under (`` or `[3]`). */
export interface InputAt {
  prefix: string;
  input: CreatePersonInput;
}

/** An entry id of a settings list, given in `field`. */
export interface EntryRef {
  list: PeopleSettingsList;
  field: string;
  id: string;
}

type TagKind = 'ORGA' | 'PERSONALITY';
export const TAG_LIST: Record<TagKind, PeopleSettingsList> = {
  ORGA: 'ORGA_TAGS',
  PERSONALITY: 'PERSONALITY_TAGS',
};

/**
 * The checks of person bodies that need the database (entries of settings lists, people of the
 * tenant). Each check runs one query for all items, so a batch of 1000 costs what one does.
 */
@Injectable()
export class PeopleChecks {
  constructor(
    private readonly settings: SettingsLookupService,
    private readonly repo: PeopleRepository,
    private readonly i18n: I18nService,
  ) {}

  /** A problem of a rule of this domain, worded here: the shared catalogue does not know it. */
  problem(field: string, rule: string, ctx: RequestContext, args: MessageArgs = {}): FieldProblem {
    const fallback = this.i18n.t(`people.validation.${rule}`, {
      lang: ctx.language,
      args: { field, ...args },
    }) as string;
    return { field, rule, args, fallback };
  }

  private listName(list: PeopleSettingsList, ctx: RequestContext): string {
    return this.i18n.t(`people.lists.${LIST_I18N_NAMESPACE[list]}`, {
      lang: ctx.language,
    }) as string;
  }

  /** The settings entries a person body refers to, each with the field it was given in. */
  static refsOf(prefix: string, input: CreatePersonInput): EntryRef[] {
    const refs: EntryRef[] = [];
    const lifecycleId = input.lifecycle?.lifecycleId;
    // Malformed ids were reported by the DTO check already; the database would refuse them.
    if (isUuid(lifecycleId)) {
      refs.push({
        list: 'LIFECYCLES',
        field: fieldPath(prefix, 'lifecycle.lifecycleId'),
        id: lifecycleId,
      });
    }
    refs.push(
      ...PeopleChecks.tagRefs('ORGA_TAGS', input.orgaTags, (i) =>
        fieldPath(prefix, `orgaTags[${i}].id`),
      ),
      ...PeopleChecks.tagRefs('PERSONALITY_TAGS', input.personalities, (i) =>
        fieldPath(prefix, `personalities[${i}].id`),
      ),
    );
    return refs;
  }

  /** The tags of a list given by id; `at(i)` names the field of the i-th tag. */
  static tagRefs(list: PeopleSettingsList, tags: unknown, at: (i: number) => string): EntryRef[] {
    if (!Array.isArray(tags)) return [];
    return (tags as ({ id?: unknown } | null)[]).flatMap((t, i) =>
      isUuid(t?.id) ? [{ list, field: at(i), id: t.id }] : [],
    );
  }

  /** Lifecycle and tag ids of person bodies that are not entries of their list. */
  entryProblems(ctx: RequestContext, items: InputAt[]): Promise<FieldProblem[]> {
    return this.unknownEntries(
      ctx,
      items.flatMap((it) => PeopleChecks.refsOf(it.prefix, it.input)),
    );
  }

  /** One problem per reference that is not an entry of its list (one query per list). */
  async unknownEntries(ctx: RequestContext, refs: EntryRef[]): Promise<FieldProblem[]> {
    const problems: FieldProblem[] = [];
    for (const list of [...new Set(refs.map((r) => r.list))]) {
      const wanted = refs.filter((r) => r.list === list);
      const known = await this.settings.entries(
        ctx.tenantId,
        list,
        wanted.map((r) => r.id),
        ctx.language,
      );
      for (const r of wanted.filter((w) => !known.has(w.id))) {
        problems.push({
          field: r.field,
          rule: 'unknownEntry',
          args: { list: this.listName(list, ctx) },
        });
      }
    }
    return problems;
  }

  /** Ids (at their fields) that name no person of the tenant: one query for all. */
  async unknownPeople(
    ctx: RequestContext,
    refs: { field: string; id: string }[],
  ): Promise<FieldProblem[]> {
    const valid = refs.filter((r) => isUuid(r.id));
    const found = new Set(
      valid.length
        ? await this.repo.existingIds(
            ctx.tenantId,
            valid.map((r) => r.id),
          )
        : [],
    );
    return valid
      .filter((r) => !found.has(r.id))
      .map((r) => this.problem(r.field, 'unknownPerson', ctx));
  }

  /**
   * Finds or creates, in one go, the entries of every tag given by text among `tags` (one kind,
   * all items of a batch) and notes them in `cache` for tagEntryIds: a fixed number of queries
   * however many texts, and new texts inserted in the order every writer uses. Call inside the
   * transaction of the write, before tagEntryIds.
   */
  async preloadTagTexts(
    tx: Tx,
    ctx: RequestContext,
    kind: TagKind,
    tags: EmbeddedPersonalityInput[],
    cache: Map<string, string>,
  ): Promise<void> {
    const cacheKey = (text: string) => `${kind}:${text.toLowerCase()}`;
    const named = tags
      .filter((t) => !t.id)
      .map((t) => ({ text: (t.text ?? '').trim(), category: t.category ?? null }))
      .filter((t) => t.text && !cache.has(cacheKey(t.text)));
    if (!named.length) return;
    const byText = await this.settings.resolveTagTexts(
      tx,
      ctx.tenantId,
      TAG_LIST[kind],
      named,
      ctx.language,
    );
    for (const t of named) {
      const entry = byText.get(tagKey(t.text));
      if (entry) cache.set(cacheKey(t.text), entry.id);
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
    kind: TagKind,
    tags: EmbeddedPersonalityInput[],
    field: string,
    cache: Map<string, string>,
  ): Promise<string[]> {
    const out: string[] = [];
    for (const t of tags) {
      let id = t.id ?? undefined;
      if (!id) {
        const text = (t.text ?? '').trim();
        const key = `${kind}:${text.toLowerCase()}`;
        id = cache.get(key);
        if (!id) {
          const [entry] = await this.settings.resolveTags(
            tx,
            ctx.tenantId,
            TAG_LIST[kind],
            [{ text, category: t.category ?? null }],
            field,
            ctx.language,
          );
          id = entry.id;
          cache.set(key, id);
        }
      }
      if (!out.includes(id)) out.push(id);
    }
    return out;
  }
}
