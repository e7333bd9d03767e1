// Pure planning of what a merge does to the rows that link people: relations and touchpoint
// participations. Sources are re-pointed to the target; what would then repeat is dropped.

export interface RelationRow {
  id: string;
  tenantId: string;
  fromPersonId: string;
  toPersonId: string;
  typeIdentifier: string;
  isFavorite: boolean;
  inverseId: string | null;
  dateCreated: Date;
}

export interface RelationsPlan {
  /** Rows to delete: duplicates and relations between the merged people. */
  deleteIds: string[];
  /** Rows whose fromPersonId becomes the target. */
  repointFromIds: string[];
  /** Rows whose toPersonId becomes the target. */
  repointToIds: string[];
  /** Kept rows whose inverse link or favorite flag changes. */
  updates: { id: string; inverseId?: string | null; isFavorite?: boolean }[];
  /** The target's own relations afterwards (fromPersonId = target), as they will read. */
  targetRelations: RelationRow[];
  moved: number;
  duplicatesDropped: number;
  selfDropped: number;
}

const byAge = (a: RelationRow, b: RelationRow) =>
  a.dateCreated.getTime() - b.dateCreated.getTime() || a.id.localeCompare(b.id);

/**
 * Relations of the target and the sources, both directions (rows of other people pointing at
 * them included). Each row is re-pointed (source -> target); a row that then relates the target
 * to itself is dropped; rows that then repeat (same from, to, type) keep one: the row that was
 * already the target's, else the oldest; it is a favorite if any of them was. Inverse links that
 * pointed at a dropped duplicate follow to the kept one. Counts are entries of the merged
 * person's own relation list (rows whose new fromPersonId is the target).
 */
export function planRelations(
  targetId: string,
  sourceIds: readonly string[],
  rows: readonly RelationRow[],
): RelationsPlan {
  const sources = new Set(sourceIds);
  const map = (p: string) => (sources.has(p) ? targetId : p);
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()].sort(byAge);
  const dropped = new Map<string, 'self' | 'duplicate'>();
  const keeperOf = new Map<string, string>();
  const groups = new Map<string, RelationRow[]>();
  for (const r of unique) {
    const from = map(r.fromPersonId);
    const to = map(r.toPersonId);
    if (from === to) {
      dropped.set(r.id, 'self');
      continue;
    }
    const key = `${from}|${to}|${r.typeIdentifier}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const kept: { keeper: RelationRow; group: RelationRow[] }[] = [];
  for (const group of groups.values()) {
    const unchanged = group.find((r) => !sources.has(r.fromPersonId) && !sources.has(r.toPersonId));
    const keeper = unchanged ?? group[0];
    kept.push({ keeper, group });
    for (const r of group) {
      keeperOf.set(r.id, keeper.id);
      if (r !== keeper) dropped.set(r.id, 'duplicate');
    }
  }

  const plan: RelationsPlan = {
    deleteIds: [...dropped.keys()],
    repointFromIds: [],
    repointToIds: [],
    updates: [],
    targetRelations: [],
    moved: 0,
    duplicatesDropped: 0,
    selfDropped: 0,
  };
  for (const r of unique) {
    const ownEntry = map(r.fromPersonId) === targetId;
    const fate = dropped.get(r.id);
    if (fate === 'self' && ownEntry) plan.selfDropped++;
    if (fate === 'duplicate' && ownEntry) plan.duplicatesDropped++;
  }
  for (const { keeper: k, group } of kept) {
    const favorite = group.some((r) => r.isFavorite);
    let inverseId = k.inverseId;
    if (inverseId && dropped.has(inverseId)) inverseId = keeperOf.get(inverseId) ?? null;
    const update: RelationsPlan['updates'][number] = { id: k.id };
    if (inverseId !== k.inverseId) update.inverseId = inverseId;
    if (favorite !== k.isFavorite) update.isFavorite = favorite;
    if (Object.keys(update).length > 1) plan.updates.push(update);
    if (sources.has(k.fromPersonId)) plan.repointFromIds.push(k.id);
    if (sources.has(k.toPersonId)) plan.repointToIds.push(k.id);
    const after = {
      ...k,
      fromPersonId: map(k.fromPersonId),
      toPersonId: map(k.toPersonId),
      inverseId,
      isFavorite: favorite,
    };
    if (after.fromPersonId === targetId) {
      plan.targetRelations.push(after);
      if (sources.has(k.fromPersonId)) plan.moved++;
    }
  }
  plan.targetRelations.sort(byAge);
  return plan;
}

export interface Participation {
  touchpointId: string;
  personId: string;
}

export interface TouchpointsPlan {
  /** Source participations to delete: the target (or an earlier source) already takes part. */
  drop: Participation[];
  moved: number;
}

/**
 * Touchpoint participations: the sources' rows move to the target; a touchpoint the target
 * already takes part in (or that several sources share) keeps one participation.
 */
export function planTouchpoints(
  targetId: string,
  sourceIds: readonly string[],
  rows: readonly Participation[],
): TouchpointsPlan {
  const taken = new Set(rows.filter((r) => r.personId === targetId).map((r) => r.touchpointId));
  const plan: TouchpointsPlan = { drop: [], moved: 0 };
  for (const sourceId of sourceIds) {
    for (const r of rows.filter((x) => x.personId === sourceId)) {
      if (taken.has(r.touchpointId)) {
        plan.drop.push(r);
      } else {
        taken.add(r.touchpointId);
        plan.moved++;
      }
    }
  }
  return plan;
}
