import {
  buriedForeignRecords,
  buriedForeignRecordsInBulk,
  buryForeignRecords,
  foreignBulkLockKey,
  foreignLockKey,
  RawSql,
} from './foreign-references';

// The order of the statements is the guarantee (the races themselves run against PostgreSQL in
// crm-people's and crm-companies' *-race.int-spec.ts): lock first, sorted, then the tombstones.

function recorder(tombstoned: string[] = []) {
  const calls: { sql: string; values: unknown[] }[] = [];
  const record = (query: TemplateStringsArray, values: unknown[]) =>
    calls.push({ sql: query.join('?').replace(/\s+/g, ' ').trim(), values });
  const db: RawSql = {
    $executeRaw: async (query, ...values) => (record(query, values), 1),
    $queryRaw: async <T>(query: TemplateStringsArray, ...values: unknown[]) => {
      record(query, values);
      return (
        /FROM "Tombstone"/.test(query.join('?')) ? tombstoned.map((id) => ({ id })) : []
      ) as T;
    },
  };
  return { db, calls };
}

const ID1 = 'B0000000-0000-4000-a000-000000000001';
const ID2 = 'a0000000-0000-4000-a000-000000000002';

describe('buryForeignRecords', () => {
  it('locks the tenant-wide key, then every id exclusively in sorted order, then records the tombstones', async () => {
    const { db, calls } = recorder();
    await buryForeignRecords(db, 't1', 'company', [ID1, ID2, ID1.toLowerCase()]);
    expect(calls).toHaveLength(2);
    expect(calls[0].sql).toMatch(/pg_advisory_xact_lock\(/);
    expect(calls[0].values[0]).toEqual([
      foreignBulkLockKey('t1', 'company'),
      foreignLockKey('t1', 'company', ID2),
      foreignLockKey('t1', 'company', ID1),
    ]);
    expect(calls[1].sql).toMatch(/^INSERT INTO "Tombstone".*ON CONFLICT/);
    expect(calls[1].values).toEqual(['t1', 'company', [ID1.toLowerCase(), ID2]]);
  });

  it('locks a merge target with the ids, without a tombstone', async () => {
    const { db, calls } = recorder();
    await buryForeignRecords(db, 't1', 'person', [ID1], [ID2]);
    expect(calls[0].values[0]).toEqual([
      foreignBulkLockKey('t1', 'person'),
      foreignLockKey('t1', 'person', ID2),
      foreignLockKey('t1', 'person', ID1),
    ]);
    expect(calls[1].values[2]).toEqual([ID1.toLowerCase()]);
  });

  it('does nothing for no ids', async () => {
    const { db, calls } = recorder();
    await buryForeignRecords(db, 't1', 'person', []);
    expect(calls).toEqual([]);
  });
});

describe('buriedForeignRecords', () => {
  it('takes the shared locks, then reads the tombstones in a statement of its own', async () => {
    const { db, calls } = recorder([ID1.toLowerCase()]);
    const gone = await buriedForeignRecords(db, 't1', 'company', [ID1, ID2]);
    expect(gone).toEqual(new Set([ID1.toLowerCase()]));
    expect(calls.map((c) => c.sql)).toEqual([
      expect.stringMatching(/pg_advisory_xact_lock_shared\(/),
      expect.stringMatching(/^SELECT id::text AS id FROM "Tombstone"/),
    ]);
    expect(calls[0].values[0]).toEqual([
      foreignLockKey('t1', 'company', ID2),
      foreignLockKey('t1', 'company', ID1),
    ]);
  });

  it('in bulk: one shared lock for all records of the tenant and kind, then the tombstones', async () => {
    const ids = Array.from(
      { length: 1000 },
      (_, i) => `00000000-0000-4000-a000-${String(i).padStart(12, '0')}`,
    );
    const { db, calls } = recorder([ids[7]]);
    const gone = await buriedForeignRecordsInBulk(db, 't1', 'person', ids);
    expect(gone).toEqual(new Set([ids[7]]));
    expect(calls.map((c) => c.sql)).toEqual([
      expect.stringMatching(/pg_advisory_xact_lock_shared\(/),
      expect.stringMatching(/^SELECT id::text AS id FROM "Tombstone"/),
    ]);
    expect(calls[0].values).toEqual([foreignBulkLockKey('t1', 'person')]);
    expect(calls[1].values[2]).toHaveLength(1000);
    // the key the consumers take first, exclusively, and no id's key
    expect(ids.map((id) => foreignLockKey('t1', 'person', id))).not.toContain(
      foreignBulkLockKey('t1', 'person'),
    );
  });

  it('in bulk: no ids, no lock', async () => {
    const { db, calls } = recorder();
    expect(await buriedForeignRecordsInBulk(db, 't1', 'person', [])).toEqual(new Set());
    expect(calls).toEqual([]);
  });

  it('keys differ by tenant and kind, not by the case of the id', () => {
    expect(foreignLockKey('t1', 'company', ID1)).toBe(
      foreignLockKey('t1', 'company', ID1.toLowerCase()),
    );
    expect(foreignLockKey('t1', 'company', ID1)).not.toBe(foreignLockKey('t2', 'company', ID1));
    expect(foreignLockKey('t1', 'company', ID1)).not.toBe(foreignLockKey('t1', 'person', ID1));
  });
});
