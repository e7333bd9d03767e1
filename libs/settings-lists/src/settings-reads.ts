import { Paged, paged } from '@crm/envelope';
import { PageQuery, parseSort, skipTake } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { isListOrder, SORT_FIELDS, sortEntries, systemFirstPage } from './list-page';
import { SettingsBase } from './settings-base';
import type { SettingsDb, SettingsEntryData } from './store';

/** Reads of a service's settings lists (S1). A service subclasses it as its SettingsService. */
export class SettingsReads<L extends string, Db extends SettingsDb> extends SettingsBase<L, Db> {
  /**
   * S1: system entries first, then the tenant's by position. `sort=text` (or `-text`) orders the
   * union by the translated text, which the database cannot do for system entries: the tenant's
   * entries of that list are read at once then (settings lists are short management lists).
   */
  async list(
    ctx: RequestContext,
    slug: string,
    query: PageQuery,
  ): Promise<Paged<SettingsEntryData>> {
    const list = this.lists.listOf(slug);
    const sort = parseSort(query.sort, SORT_FIELDS, [{ field: 'position', direction: 'asc' }]);
    const q = query.q?.trim() || undefined;
    const needle = q?.toLocaleLowerCase(ctx.language);
    const system = this.systemViews(list, ctx.language).filter(
      (e) => !needle || e.text.toLocaleLowerCase(ctx.language).includes(needle),
    );
    const { skip, take } = skipTake(query);

    if (isListOrder(sort)) {
      const at = systemFirstPage(system.length, skip, take);
      const [rows, total] = await this.repo.page(ctx.tenantId, list, q, at.skip, at.take);
      return paged([...system.slice(...at.system), ...rows], system.length + total);
    }

    const all = [...system, ...(await this.repo.all(ctx.tenantId, list, q))];
    return paged(sortEntries(all, sort, ctx.language).slice(skip, skip + take), all.length);
  }
}
