import { Client } from 'pg';

/**
 * A connection of a test's own to a service's database, to force the order of two transactions
 * that race: hold rows one of them needs (`holdRows`), see who waits for which lock (`waiting`),
 * and read the outcome. Waiting is read from pg_stat_activity of that database, so a test waits
 * for a state, not for a time.
 */
export class LockProbe {
  private constructor(
    private readonly db: Client,
    private readonly url: string,
  ) {}

  static async connect(databaseUrl: string): Promise<LockProbe> {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    return new LockProbe(db, databaseUrl);
  }

  /** The first column of the first row, as a number (`SELECT count(*) ...`). */
  async count(sql: string, params: unknown[] = []): Promise<number> {
    const { rows } = await this.db.query<Record<string, unknown>>(sql, params);
    return Number(Object.values(rows[0] ?? {})[0] ?? 0);
  }

  /** Sessions of the database waiting for an advisory lock, or for a row (`transactionid`, `tuple`). */
  waiting(kind: 'advisory' | 'row'): Promise<number> {
    return this.count(
      `SELECT count(*)::int FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'
          AND wait_event = ANY($1::text[])`,
      [kind === 'advisory' ? ['advisory'] : ['transactionid', 'tuple']],
    );
  }

  /**
   * Locks the rows `select` finds (FOR UPDATE, at least one) in a transaction of another
   * connection, until the returned release is called.
   */
  async holdRows(select: string, params: unknown[]): Promise<() => Promise<void>> {
    const db = new Client({ connectionString: this.url });
    await db.connect();
    await db.query('BEGIN');
    const locked = await db.query(`${select} FOR UPDATE`, params);
    if (!locked.rowCount) {
      await db.end();
      throw new Error(`holdRows: nothing to lock: ${select}`);
    }
    return async () => {
      await db.query('ROLLBACK');
      await db.end();
    };
  }

  async close(): Promise<void> {
    await this.db.end();
  }
}

/** A request started earlier, its answer kept once it comes (`answer` null until then). */
export function tracked<T>(p: Promise<T>): { answer: T | null; done: Promise<T> } {
  const t: { answer: T | null; done: Promise<T> } = {
    answer: null,
    done: p.then((a) => (t.answer = a)),
  };
  return t;
}
