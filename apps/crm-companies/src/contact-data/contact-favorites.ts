// The favorite rule of a company's addresses, phones and e-mails (one rule for the three lists):
// a list that is not empty has exactly one favorite.
//  - an item written with isFavorite true becomes the favorite; the previous one loses it;
//  - when no item is marked (the favorite was unmarked or deleted, or the list was empty), the
//    first item (lowest position) becomes the favorite.
// New items go to the end of the list.

export interface ListItem {
  id: string;
  isFavorite: boolean;
  position: number;
}

export interface FavoritePlan {
  /** The one favorite after the write; null for an empty list. */
  favoriteId: string | null;
  /** Items marked now that must lose the mark. */
  demote: string[];
  /** The item to mark, when it is not marked yet. */
  promote: string | null;
}

const byPosition = (a: ListItem, b: ListItem) =>
  a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The favorite of a list as it is after a write. `marked` is the written item when the write set
 * isFavorite true on it; it wins over any other mark. Otherwise an existing mark stays (the first
 * one, should the stored data ever hold several), else the first item becomes the favorite.
 */
export function planFavorite(
  after: readonly ListItem[],
  marked: string | null = null,
): FavoritePlan {
  const ordered = [...after].sort(byPosition);
  const chosen =
    (marked !== null ? ordered.find((i) => i.id === marked) : undefined) ??
    ordered.find((i) => i.isFavorite) ??
    ordered[0];
  const favoriteId = chosen?.id ?? null;
  return {
    favoriteId,
    demote: ordered.filter((i) => i.isFavorite && i.id !== favoriteId).map((i) => i.id),
    promote: chosen && !chosen.isFavorite ? chosen.id : null,
  };
}

/** The position of a new item: after the last one. */
export function nextPosition(items: readonly ListItem[]): number {
  return items.reduce((max, i) => Math.max(max, i.position + 1), 0);
}

/** The changes a plan asks for besides the written item (whose flag is written with it). */
export function othersOf(plan: FavoritePlan, writtenId: string): FavoritePlan {
  return {
    favoriteId: plan.favoriteId,
    demote: plan.demote.filter((id) => id !== writtenId),
    promote: plan.promote === writtenId ? null : plan.promote,
  };
}

/**
 * The plan for writing one item: a new one (id not in `items`) goes to the end, an existing one
 * keeps its place. `given` is the isFavorite of the input: undefined leaves the mark as it is,
 * true marks the item, false or null unmarks it.
 */
export function planWrite(
  items: readonly ListItem[],
  id: string,
  given: boolean | null | undefined,
): FavoritePlan {
  const current = items.find((i) => i.id === id);
  const written: ListItem = {
    id,
    position: current?.position ?? nextPosition(items),
    isFavorite: given === undefined ? (current?.isFavorite ?? false) : given === true,
  };
  const after = current ? items.map((i) => (i.id === id ? written : i)) : [...items, written];
  return planFavorite(after, given === true ? id : null);
}

/** The plan for removing one item. */
export function planRemove(items: readonly ListItem[], id: string): FavoritePlan {
  return planFavorite(items.filter((i) => i.id !== id));
}
