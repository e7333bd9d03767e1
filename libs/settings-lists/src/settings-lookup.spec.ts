import type { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import { defineSettingsLists } from './definition';
import { SettingsLookup } from './settings-lookup';
import { EntryTable, EntryView, SettingsDb, SettingsStore } from './store';

// Tags by text against a fake database that records every statement: no lock, a fixed number
// of statements however many tags, entries another request created meanwhile read again.

type List = 'TAGS';
const SYSTEM = '00000000-0000-4000-c000-000000000001';

const lists = (position?: 'end' | 'zero') =>
  defineSettingsLists<List>({
    slugs: { tags: 'TAGS' },
    fields: { TAGS: { color: true, category: true } },
    systemEntries: { TAGS: [{ id: SYSTEM, key: 'vip' }] },
    i18n: {
      listName: () => 'tags',
      systemText: (_list, key) => `system.${key}`,
    },
    lockKeyPrefix: 'test-settings',
    newTags: position ? { position } : undefined,
  });

// the system entry "vip" is "VIP" in English and "Wichtig" in German
const i18n = {
  t: (key: string, opts?: { lang?: string }) =>
    key === 'system.vip' ? (opts?.lang === 'de' ? 'Wichtig' : 'VIP') : key,
} as unknown as I18nService;

interface Statement {
  sql: string;
  values: unknown[];
}

/**
 * A database holding `existing` entries. `concurrent` entries were committed by another request
 * after our first read: the insert skips their texts and a later read finds them.
 */
function fakeDb(existing: EntryView[] = [], concurrent: EntryView[] = []) {
  const statements: Statement[] = [];
  const rows = [...existing];
  let seenConcurrent = false;
  const byLower = (texts: string[]) =>
    texts.flatMap((given) =>
      rows
        .filter((r) => r.text.toLowerCase() === given.toLowerCase())
        .map((r) => ({ given, ...r })),
    );
  const db: SettingsDb = {
    $executeRaw: (query: TemplateStringsArray, ...values: unknown[]) => {
      statements.push({ sql: query.join('?'), values });
      return Promise.resolve(1);
    },
    $queryRawUnsafe: <T>(sql: string, ...values: unknown[]) => {
      statements.push({ sql, values });
      if (sql.includes('INSERT INTO')) {
        if (!seenConcurrent) rows.push(...concurrent);
        seenConcurrent = true;
        const [, , ids, texts, categories] = values as [
          string,
          string,
          string[],
          string[],
          (string | null)[],
        ];
        const inserted: EntryView[] = [];
        texts.forEach((text, i) => {
          if (rows.some((r) => r.text.toLowerCase() === text.toLowerCase())) return;
          const row = { id: ids[i], text, color: null, category: categories[i] };
          rows.push(row);
          inserted.push(row);
        });
        return Promise.resolve(inserted as T);
      }
      return Promise.resolve(byLower(values[2] as string[]) as T);
    },
  };
  const table = {
    findMany: () => Promise.resolve([]),
  } as unknown as EntryTable<List>;
  const store: SettingsStore<List, SettingsDb> = {
    client: db,
    transaction: (fn) => fn(db),
    table: () => table,
    sql: { table: 'SettingsEntry', listEnum: 'TestList' },
  };
  return { db, store, statements };
}

const lookupOf = (store: SettingsStore<List, SettingsDb>, position?: 'end' | 'zero') =>
  new SettingsLookup<List, SettingsDb>(store, lists(position), i18n);

const entry = (id: string, text: string): EntryView => ({ id, text, color: null, category: null });

describe('SettingsLookup tags by text', () => {
  it('creates new texts with one read and one insert, without a lock', async () => {
    const { db, store, statements } = fakeDb([entry('e1', 'Existing')]);
    const resolved = await lookupOf(store).resolveTags(
      db,
      't1',
      'TAGS',
      [{ text: ' perf ' }, { text: 'EXISTING' }, { text: 'PERF' }, { text: 'Calm' }],
      'tags',
      'en',
    );
    expect(resolved.map((e) => e.text)).toEqual(['perf', 'Existing', 'Calm']);
    expect(statements).toHaveLength(2);
    for (const s of statements) expect(s.sql).not.toMatch(/advisory|lock/i);
    const [read, insert] = statements;
    expect(read.sql).toContain('lower(e."text") = lower(t."given")');
    expect(read.values).toEqual(['t1', 'TAGS', ['perf', 'EXISTING', 'PERF', 'Calm']]);
    expect(insert.sql).toContain('INSERT INTO "SettingsEntry"');
    expect(insert.sql).toContain('ON CONFLICT DO NOTHING');
    expect(insert.sql).toContain('$2::"TestList"');
    // inserted by key (the order of every writer), placed in input order (offsets)
    expect(insert.values.slice(3)).toEqual([
      ['Calm', 'perf'],
      [null, null],
      [1, 0],
    ]);
  });

  it('reads again, in the same statement count, the texts another request created meanwhile', async () => {
    const { db, store, statements } = fakeDb([], [entry('other', 'PERF')]);
    const lookup = lookupOf(store);
    const found = await lookup.findTags(
      db,
      't1',
      'TAGS',
      [{ text: 'Perf' }, { text: 'calm' }],
      'tags',
      'en',
    );
    expect(found.toCreate.map((t) => t.text)).toEqual(['Perf', 'calm']);
    const resolved = await lookup.createTags(db, found);
    expect(resolved.map((e) => [e.id, e.text])).toEqual([
      ['other', 'PERF'],
      [expect.any(String), 'calm'],
    ]);
    expect(statements.map((s) => s.sql.trim().split(/\s+/)[0])).toEqual([
      'SELECT',
      'INSERT',
      'SELECT',
    ]);
    // only the texts the insert skipped are read again
    expect(statements[2].values[2]).toEqual(['Perf']);
  });

  it('needs no statement at all to finish when every text has its entry', async () => {
    const { db, store, statements } = fakeDb([entry('e1', 'Perf')]);
    const lookup = lookupOf(store);
    const found = await lookup.findTags(
      db,
      't1',
      'TAGS',
      [{ text: 'PERF' }, { text: 'wichtig' }, { id: SYSTEM }],
      'tags',
      'en',
    );
    expect(found.toCreate).toEqual([]);
    expect(statements).toHaveLength(1);
    // system entries match their text in every language, without a query
    expect((await lookup.createTags(db, found)).map((e) => e.id)).toEqual(['e1', SYSTEM]);
    expect(statements).toHaveLength(1);
  });

  it('keeps two statements for 1000 new texts', async () => {
    const { db, store, statements } = fakeDb();
    const named = Array.from({ length: 1000 }, (_, i) => ({ text: `Tag ${i}` }));
    const byText = await lookupOf(store).resolveTagTexts(db, 't1', 'TAGS', named, 'en');
    expect(named.every((t) => byText.has(t.text.toLowerCase()))).toBe(true);
    expect(statements).toHaveLength(2);
  });

  it('places new entries at the end by default and at 0 with position zero', async () => {
    for (const [position, expected] of [
      [undefined, 'max("position") + 1'],
      ['zero', ', 0, (now()'],
    ] as const) {
      const { db, store, statements } = fakeDb();
      await lookupOf(store, position).resolveTags(db, 't1', 'TAGS', [{ text: 'x' }], 'tags', 'en');
      expect(statements[1].sql).toContain(expected);
    }
  });

  it('refuses unknown ids before any write', async () => {
    const { db, store, statements } = fakeDb();
    const refused = await lookupOf(store)
      .resolveTags(db, 't1', 'TAGS', [{ text: 'New' }, { id: 'unknown' }], 'tags', 'en')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppException);
    expect((refused as AppException).problems).toEqual([
      { field: 'tags[1].id', rule: 'unknownEntry', args: { list: 'tags' } },
    ]);
    expect(statements.some((s) => s.sql.includes('INSERT'))).toBe(false);
  });
});
