import {
  EntryRow,
  EntryTable,
  lockTenantSettings,
  SettingsDb,
  SettingsEntryRepository,
  SettingsStore,
  toEntryData,
} from './store';

type List = 'TAGS';

/** A fake client recording the raw SQL and the table calls (unit tests of the query shapes). */
function fakeStore(rows: EntryRow[] = []) {
  const calls: { op: string; args: unknown[] }[] = [];
  const record =
    <T>(op: string, answer: T) =>
    (...args: unknown[]) => {
      calls.push({ op, args });
      return Promise.resolve(answer);
    };
  const table: EntryTable<List> = {
    findMany: record('findMany', rows),
    count: record('count', rows.length),
    aggregate: record('aggregate', { _max: { position: null } }),
    // the database answers in an order of its own
    createManyAndReturn: (args) => {
      calls.push({ op: 'createManyAndReturn', args: [args] });
      return Promise.resolve([...args.data].reverse().map((d) => ({ ...d, position: 0 })));
    },
    update: record('update', rows[0]),
    deleteMany: record('deleteMany', { count: 0 }),
  };
  const db: SettingsDb = {
    $executeRaw: (query: TemplateStringsArray, ...values: unknown[]) => {
      calls.push({ op: '$executeRaw', args: [query.join('?'), ...values] });
      return Promise.resolve(1);
    },
    $queryRawUnsafe: <T>(query: string, ...values: unknown[]) => {
      calls.push({ op: '$queryRawUnsafe', args: [query, ...values] });
      return Promise.resolve([] as T);
    },
  };
  const store = (sql = { table: 'SettingsEntry', listEnum: 'TestList' }) =>
    ({
      client: db,
      transaction: (fn) => fn(db),
      table: () => table,
      sql,
    }) satisfies SettingsStore<List, SettingsDb>;
  return { calls, db, store };
}

describe('SettingsEntryRepository', () => {
  it('compares texts by lower() on its own table, with the values as parameters', async () => {
    const { calls, db, store } = fakeStore();
    await new SettingsEntryRepository(store(), 'x').findByTexts(db, 't1', 'TAGS', ["O'Brien"]);
    const [sql, ...values] = calls[0].args as [string, ...unknown[]];
    expect(sql).toContain('FROM "SettingsEntry"');
    expect(sql).toContain('"list" = $2::"TestList"');
    expect(sql).toContain('lower("text") IN (SELECT lower(t) FROM unnest($3::text[]) AS t)');
    expect(sql).not.toContain("O'Brien");
    expect(values).toEqual(['t1', 'TAGS', ["O'Brien"]]);
  });

  it('refuses table or enum names that are not plain identifiers', () => {
    const { store } = fakeStore();
    for (const sql of [
      { table: 'Settings"; DROP TABLE x; --', listEnum: 'TestList' },
      { table: 'SettingsEntry', listEnum: 'a b' },
    ])
      expect(() => new SettingsEntryRepository(store(sql), 'x')).toThrow(/not an SQL identifier/);
  });

  it('answers created entries in input order', async () => {
    const { db, store } = fakeStore();
    const data = ['a', 'b', 'c'].map((id) => ({
      id,
      tenantId: 't1',
      list: 'TAGS' as const,
      text: id.toUpperCase(),
      color: null,
      category: null,
    }));
    const created = await new SettingsEntryRepository(store(), 'x').createMany(db, data);
    expect(created.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('appends at the end of the list (0 for an empty one)', async () => {
    const { db, store } = fakeStore();
    expect(await new SettingsEntryRepository(store(), 'x').nextPosition(db, 't1', 'TAGS')).toBe(0);
  });

  it('scopes a page to the tenant and list, searching ignoring case, in list order', async () => {
    const row = { id: 'a', text: 'A', color: null, category: null, position: 3 };
    const { calls, store } = fakeStore([row]);
    const [items, total] = await new SettingsEntryRepository(store(), 'x').page(
      't1',
      'TAGS',
      'vi',
      5,
      10,
    );
    expect(items).toEqual([toEntryData(row)]);
    expect(total).toBe(1);
    expect(calls[0].args[0]).toMatchObject({
      where: { tenantId: 't1', list: 'TAGS', text: { contains: 'vi', mode: 'insensitive' } },
      orderBy: [{ position: 'asc' }, { dateCreated: 'asc' }, { id: 'asc' }],
      skip: 5,
      take: 10,
    });
  });

  it('locks per tenant under the service prefix', async () => {
    const { calls, db } = fakeStore();
    await lockTenantSettings(db, 'company-settings', 't1');
    expect(calls[0].args).toEqual([
      'SELECT pg_advisory_xact_lock(hashtextextended(?, 0))',
      'company-settings:t1',
    ]);
  });
});

describe('toEntryData', () => {
  it('shows a tenant entry as S1-S5 answer it', () => {
    expect(
      toEntryData({ id: 'a', text: 'A', color: '#000000', category: null, position: 2 }),
    ).toEqual({
      id: 'a',
      text: 'A',
      color: '#000000',
      category: null,
      position: 2,
      isSystem: false,
    });
  });
});
