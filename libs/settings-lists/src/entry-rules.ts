import type { FieldProblem, MessageArgs } from '@crm/errors';
import type { ListFields } from './definition';

// The pure rules of settings entries: which fields a list allows, when texts clash, which tags
// named by text have to be created. No database, no translation: the services add both.

export const COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;

/** The fields of an entry the list's own rules look at (S2 items and S3 bodies). */
export interface EntryFields {
  text?: string;
  color?: string | null;
  category?: string | null;
}

/** A rule of the domain broken by one field: its text is `<problemsKey>.<rule>`. */
export function domainProblem(
  problemsKey: string,
  field: string,
  rule: string,
  args: MessageArgs = {},
): FieldProblem {
  return { field, rule, args, messageKey: `${problemsKey}.${rule}` };
}

/**
 * Rules that depend on the list: trimmed text not empty, colour and category only where the list
 * has them, a colour as #RRGGBB. `path` names the item (`[2]` -> `[2].color`); `listName` is the
 * translated name of the list for the messages.
 */
export function entryFieldProblems(
  fields: ListFields,
  input: EntryFields,
  path: string,
  listName: string,
  problemsKey: string,
): FieldProblem[] {
  const at = (f: string) => (path ? `${path}.${f}` : f);
  const problems: FieldProblem[] = [];
  if (typeof input.text === 'string' && input.text.length && !input.text.trim())
    problems.push({ field: at('text'), rule: 'isNotEmpty' });
  if (typeof input.color === 'string') {
    if (!fields.color)
      problems.push(domainProblem(problemsKey, at('color'), 'notForList', { list: listName }));
    else if (!COLOR_PATTERN.test(input.color))
      problems.push(domainProblem(problemsKey, at('color'), 'colorFormat'));
  }
  if (typeof input.category === 'string' && !fields.category)
    problems.push(domainProblem(problemsKey, at('category'), 'notForList', { list: listName }));
  return problems;
}

/** How S2/S3 compare texts: ignoring case. */
export const textKey = (s: string): string => s.toLocaleLowerCase();

export interface TextItem {
  text: string;
  /** The field the text came from, for the error. */
  field: string;
  /** The entry being renamed (its own text is no clash). */
  selfId?: string;
}

/**
 * The items whose text is taken: by another entry (`taken`: textKey -> owner id) or by an
 * earlier item of the same request.
 */
export function textClashes<T extends TextItem>(
  taken: ReadonlyMap<string, string>,
  items: T[],
): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const key = textKey(item.text);
    const owner = taken.get(key);
    if ((owner && owner !== item.selfId) || seen.has(key)) out.push(item);
    seen.add(key);
  }
  return out;
}

/** How resolveTags compares a tag's text with the entries' texts: trimmed, ignoring case. */
export const tagKey = (s: string): string => s.trim().toLowerCase();

export interface TagInput {
  id?: string | null;
  text?: string | null;
  category?: string | null;
}

/** An entry to create for a tag named by text: its tagKey, the trimmed text, the category. */
export interface NewTag {
  key: string;
  text: string;
  category: string | null;
}

/**
 * The entries to create for tags named by a text that no entry has (`known`: tagKey of every
 * existing text), once per text ignoring case, in input order, with the first spelling given.
 */
export function tagsToCreate(
  named: TagInput[],
  known: { has(key: string): boolean },
  fields: ListFields,
  category: 'allowed' | 'asGiven' = 'allowed',
): NewTag[] {
  const out = new Map<string, NewTag>();
  for (const t of named) {
    const key = tagKey(t.text!);
    if (known.has(key) || out.has(key)) continue;
    out.set(key, {
      key,
      text: t.text!.trim(),
      category:
        category === 'asGiven'
          ? (t.category ?? null)
          : fields.category
            ? t.category?.trim() || null
            : null,
    });
  }
  return [...out.values()];
}

/**
 * Entries in the order every writer inserts them: by tagKey of the text. Two transactions that
 * insert several texts each (tags by text, S2) then meet on their first common text, and one
 * waits for the other instead of both waiting for each other (a deadlock).
 */
export function inInsertOrder<T extends { text: string }>(rows: readonly T[]): T[] {
  return rows
    .map((row) => ({ row, key: tagKey(row.text) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ row }) => row);
}
