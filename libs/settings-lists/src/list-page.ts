import type { Language } from '@crm/i18n';
import type { SortField } from '@crm/paging';

// S1 lists the system entries first, then the tenant's: pure arithmetic of that union.

export const SORT_FIELDS = ['position', 'text'] as const;
export type SettingsSortField = (typeof SORT_FIELDS)[number];

/** The default order: the database can page it, the system entries being a known prefix. */
export function isListOrder(sort: SortField<SettingsSortField>[]): boolean {
  return sort.length === 1 && sort[0].field === 'position' && sort[0].direction === 'asc';
}

/**
 * Where a page (`skip`, `take`) of "`systemCount` system entries, then the tenant's" falls: the
 * slice of the system entries, and the tenant entries to read from the database.
 */
export function systemFirstPage(
  systemCount: number,
  skip: number,
  take: number,
): { system: [start: number, end: number]; skip: number; take: number } {
  const start = Math.min(skip, systemCount);
  const end = Math.min(skip + take, systemCount);
  return {
    system: [start, end],
    skip: Math.max(0, skip - systemCount),
    take: take - (end - start),
  };
}

/**
 * Sorts entries (system ones first, then the tenant's by position) by `sort`, comparing texts in
 * the caller's language; equal entries keep their order. Returns a new array.
 */
export function sortEntries<T extends { id: string; text: string }>(
  entries: readonly T[],
  sort: SortField<SettingsSortField>[],
  lang: Language,
): T[] {
  const collator = new Intl.Collator(lang, { sensitivity: 'base', numeric: true });
  const rank = new Map(entries.map((e, i) => [e.id, i]));
  return [...entries].sort((a, b) => {
    for (const s of sort) {
      const d =
        s.field === 'text' ? collator.compare(a.text, b.text) : rank.get(a.id)! - rank.get(b.id)!;
      if (d) return s.direction === 'asc' ? d : -d;
    }
    return rank.get(a.id)! - rank.get(b.id)!;
  });
}
