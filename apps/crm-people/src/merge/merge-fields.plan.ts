// Pure planning of what a merge does to the target's own fields, lists, note, tags, history and
// cards. The target's values win; sources only fill what is empty and add what is missing.

export const MERGED_NOTE_MAX = 10000;

/** Text fields of the target filled from the first source (in sourceIds order) that has one. */
export const FILLED_TEXT_FIELDS = [
  'salutation',
  'title',
  'firstname',
  'lastname',
  'customerNumber',
  'userMail',
  'employeeStatus',
  'employeeNumber',
  'userId',
] as const;

type TextField = (typeof FILLED_TEXT_FIELDS)[number];

export type PersonFields = Record<TextField, string | null> & {
  id: string;
  birthday: Date | null;
  considerBirthYear: boolean | null;
  lifecycleId: string | null;
  lifecycleChanged: Date | null;
  importantDates: unknown;
  socialMedias: unknown;
};

export type FilledData = Partial<
  Pick<
    PersonFields,
    TextField | 'birthday' | 'considerBirthYear' | 'lifecycleId' | 'lifecycleChanged'
  >
>;

const empty = (v: string | null) => v === null || v.trim() === '';

/**
 * Empty scalar fields of the target take the value of the first source that has one: the text
 * fields above; `birthday` (with its considerBirthYear) as one; `lifecycle` (id and date of the
 * change) as one. Names in `filled` are the API's field names.
 */
export function fillFields(
  target: PersonFields,
  sources: readonly PersonFields[],
): { data: FilledData; filled: string[] } {
  const data: FilledData = {};
  const filled: string[] = [];
  for (const f of FILLED_TEXT_FIELDS) {
    if (!empty(target[f])) continue;
    const from = sources.find((s) => !empty(s[f]));
    if (from) {
      data[f] = from[f];
      filled.push(f);
    }
  }
  if (target.birthday === null) {
    const from = sources.find((s) => s.birthday !== null);
    if (from) {
      data.birthday = from.birthday;
      data.considerBirthYear = from.considerBirthYear;
      filled.push('birthday');
    }
  }
  if (target.lifecycleId === null) {
    const from = sources.find((s) => s.lifecycleId !== null);
    if (from) {
      data.lifecycleId = from.lifecycleId;
      data.lifecycleChanged = from.lifecycleChanged;
      filled.push('lifecycle');
    }
  }
  return { data, filled };
}

const asList = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? (v as Record<string, unknown>[]) : [];

/** Target's entries, then each source's entries not already there (same `keys` values). */
export function unionList(
  target: unknown,
  sources: readonly unknown[],
  keys: readonly string[],
): { list: Record<string, unknown>[]; added: number } {
  const keyOf = (x: Record<string, unknown>) => JSON.stringify(keys.map((k) => x[k] ?? null));
  const list = [...asList(target)];
  const seen = new Set(list.map(keyOf));
  let added = 0;
  for (const entry of sources.flatMap(asList)) {
    const key = keyOf(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    list.push(entry);
    added++;
  }
  return { list, added };
}

/**
 * The target's note, then each source's note under a line with the source's name:
 * `--- Anna Schmidt ---`. Empty notes add nothing. Over MERGED_NOTE_MAX characters the merge is
 * refused (409) rather than cutting text the user wrote; the preview shows the length.
 */
export function joinNotes(
  target: string | null,
  sources: readonly { name: string; note: string | null }[],
): { note: string | null; joined: number; length: number; tooLong: boolean } {
  const parts = target && target.trim() ? [target] : [];
  let joined = 0;
  for (const s of sources) {
    if (!s.note || !s.note.trim()) continue;
    parts.push(`--- ${s.name} ---\n${s.note}`);
    joined++;
  }
  const note = joined ? parts.join('\n\n') : target;
  const length = note ? [...note].length : 0;
  return { note, joined, length, tooLong: length > MERGED_NOTE_MAX };
}

export interface TagRow {
  tenantId: string;
  personId: string;
  entryId: string;
  kind: 'ORGA' | 'PERSONALITY';
  position: number;
  entry: { text: string; category: string | null };
}

/** Tags: the union, target's first; the sources' missing ones appended in their order. */
export function planTags(
  targetId: string,
  targetTags: readonly TagRow[],
  sourceTags: readonly TagRow[],
): { added: TagRow[]; result: TagRow[]; orga: number; personalities: number } {
  const key = (t: TagRow) => `${t.kind}|${t.entryId}`;
  const seen = new Set(targetTags.map(key));
  let position = Math.max(-1, ...targetTags.map((t) => t.position)) + 1;
  const added: TagRow[] = [];
  for (const t of sourceTags) {
    if (seen.has(key(t))) continue;
    seen.add(key(t));
    added.push({ ...t, personId: targetId, position: position++ });
  }
  return {
    added,
    result: [...targetTags, ...added].sort((a, b) => a.position - b.position),
    orga: added.filter((t) => t.kind === 'ORGA').length,
    personalities: added.filter((t) => t.kind === 'PERSONALITY').length,
  };
}

export interface HistoryRow {
  id: string;
  tenantId: string;
  personId: string;
  lifecycleId: string;
  dateChanged: Date;
}

/** Lifecycle history: the union ordered by date; an exact repeat (same entry, same time) once. */
export function planHistories(
  targetId: string,
  target: readonly HistoryRow[],
  sources: readonly HistoryRow[],
): { moveIds: string[]; result: HistoryRow[] } {
  const key = (h: HistoryRow) => `${h.lifecycleId}|${h.dateChanged.getTime()}`;
  const seen = new Set(target.map(key));
  const moved: HistoryRow[] = [];
  for (const h of sources) {
    if (seen.has(key(h))) continue;
    seen.add(key(h));
    moved.push({ ...h, personId: targetId });
  }
  const result = [...target, ...moved].sort(
    (a, b) => a.dateChanged.getTime() - b.dateChanged.getTime() || a.id.localeCompare(b.id),
  );
  return { moveIds: moved.map((h) => h.id), result };
}

/**
 * Cards all move. A person has one favorite card: the target's if it has one, else the first
 * favorite among the sources' cards (in sourceIds order); every other favorite is demoted.
 */
export function planCards(
  targetCards: readonly { id: string; isFavorite: boolean }[],
  sourceCards: readonly { id: string; isFavorite: boolean }[],
): { moved: number; demoteIds: string[] } {
  let hasFavorite = targetCards.some((c) => c.isFavorite);
  const demoteIds: string[] = [];
  for (const c of sourceCards) {
    if (!c.isFavorite) continue;
    if (hasFavorite) demoteIds.push(c.id);
    hasFavorite = true;
  }
  return { moved: sourceCards.length, demoteIds };
}
