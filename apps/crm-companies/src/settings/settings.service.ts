import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import type { Language } from '@crm/i18n';
import { PageQuery, parseSort, skipTake } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import type { CompanySettingsList } from '../generated/prisma/client';
import type { CompanySettingsEntry } from './dto/settings-entry.output';
import { listOf } from './settings-lists';
import { toSystemSettingsEntry } from './settings.mapper';
import { SettingsRepository } from './settings.repository';
import { t } from './settings-text';
import { SYSTEM_ENTRIES, systemTextKey } from './system-entries';

const SORT_FIELDS = ['position', 'text'] as const;

/** Reads of the company settings lists (S1). */
@Injectable()
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepository,
    private readonly i18n: I18nService,
  ) {}

  /** The system entries of a list, translated, in their fixed order. */
  systemViews(list: CompanySettingsList, lang: Language): CompanySettingsEntry[] {
    return (SYSTEM_ENTRIES[list] ?? []).map((e) =>
      toSystemSettingsEntry(e.id, t(this.i18n, systemTextKey(list, e.key), lang), e.color),
    );
  }

  /** Every text a system entry of the list has in any language (tenant texts must differ). */
  systemTexts(list: CompanySettingsList): { text: string; id: string }[] {
    return (['en', 'de'] as Language[]).flatMap((lang) =>
      this.systemViews(list, lang).map((e) => ({ text: e.text, id: e.id })),
    );
  }

  /**
   * S1: system entries first, then the tenant's by position. `sort=text` (or `-text`) orders the
   * union by the translated text, which the database cannot do for system entries: the tenant's
   * entries of that list are read at once then (settings lists are short management lists).
   */
  async list(
    ctx: RequestContext,
    slug: string,
    query: PageQuery,
  ): Promise<Paged<CompanySettingsEntry>> {
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
      return paged([...sysPage, ...rows], system.length + total);
    }

    const all = [...system, ...(await this.repo.all(ctx.tenantId, list, q))];
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
}
