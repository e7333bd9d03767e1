import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import type { Language } from '@crm/i18n';
import { PageQuery, parseSort, skipTake } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import type { PeopleSettingsList } from '../generated/prisma/client';
import type { RelationTypeDefinition, SettingsEntry } from './dto/settings-entry.dto';
import { RELATION_TYPES, RelationCategory, relationType } from './relation-types';
import { listOf } from './settings-lists';
import { EntryRow, SettingsRepository } from './settings.repository';
import { t } from './settings-text';
import { SYSTEM_ENTRIES, systemTextKey } from './system-entries';

const SORT_FIELDS = ['position', 'text'] as const;

/** Reads of the people settings lists (S1) and the relation types (R9). */
@Injectable()
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepository,
    private readonly i18n: I18nService,
  ) {}

  /** The system entries of a list, translated, in their fixed order. */
  systemViews(list: PeopleSettingsList, lang: Language): SettingsEntry[] {
    return (SYSTEM_ENTRIES[list] ?? []).map((e) => ({
      id: e.id,
      text: t(this.i18n, systemTextKey(list, e.key), lang),
      color: e.color ?? null,
      category: null,
      position: null,
      isSystem: true,
    }));
  }

  /** Every text a system entry of the list has in any language (tenant texts must differ). */
  systemTexts(list: PeopleSettingsList): { text: string; id: string }[] {
    return (['en', 'de'] as Language[]).flatMap((lang) =>
      this.systemViews(list, lang).map((e) => ({ text: e.text, id: e.id })),
    );
  }

  static toView(row: EntryRow): SettingsEntry {
    return {
      id: row.id,
      text: row.text,
      color: row.color,
      category: row.category,
      position: row.position,
      isSystem: false,
    };
  }

  /**
   * S1: system entries first, then the tenant's by position. `sort=text` (or `-text`) orders the
   * union by the translated text, which the database cannot do for system entries: the tenant's
   * entries of that list are read at once then (settings lists are short management lists).
   */
  async list(ctx: RequestContext, slug: string, query: PageQuery): Promise<Paged<SettingsEntry>> {
    const list = listOf(slug);
    const sort = parseSort(query.sort, SORT_FIELDS, [{ field: 'position', direction: 'asc' }]);
    const q = query.q?.trim() || undefined;
    const needle = q?.toLocaleLowerCase(ctx.language);
    const system = this.systemViews(list, ctx.language).filter(
      (e) => !needle || e.text.toLocaleLowerCase(ctx.language).includes(needle),
    );
    const { skip, take } = skipTake(query);

    if (sort.length === 1 && sort[0].field === 'position' && sort[0].direction === 'asc') {
      const sysPage = system.slice(skip, skip + take);
      const [rows, total] = await this.repo.page(
        ctx.tenantId,
        list,
        q,
        Math.max(0, skip - system.length),
        take - sysPage.length,
      );
      return paged([...sysPage, ...rows.map(SettingsService.toView)], system.length + total);
    }

    const all = [
      ...system,
      ...(await this.repo.all(ctx.tenantId, list, q)).map(SettingsService.toView),
    ];
    const collator = new Intl.Collator(ctx.language, { sensitivity: 'base', numeric: true });
    const rank = new Map(all.map((e, i) => [e.id, i]));
    all.sort((a, b) => {
      for (const s of sort) {
        const d =
          s.field === 'text' ? collator.compare(a.text, b.text) : rank.get(a.id)! - rank.get(b.id)!;
        if (d) return s.direction === 'asc' ? d : -d;
      }
      return rank.get(a.id)! - rank.get(b.id)!;
    });
    return paged(all.slice(skip, skip + take), all.length);
  }

  /** R9: the relation types, optionally of one category, with translated names. */
  relationTypes(ctx: RequestContext, category?: RelationCategory): RelationTypeDefinition[] {
    const name = (id: string) => t(this.i18n, `relations.types.${id}`, ctx.language);
    return RELATION_TYPES.filter((r) => !category || r.category === category).map((r) => ({
      identifier: r.identifier,
      category: r.category,
      inverseIdentifier: r.inverse,
      name: name(r.identifier),
      inverseName: name(relationType(r.inverse)!.identifier),
      symmetric: r.inverse === r.identifier,
    }));
  }
}
