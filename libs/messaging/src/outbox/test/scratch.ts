import { Client, Pool, PoolClient } from 'pg';
import { recreateDatabase } from '@crm/testing';
import { OUTBOX_TABLES_SQL, OutboxDb, OutboxTx } from '../outbox-db';

export { natsServer, type NatsProcess } from '@crm/testing';

// Test support for the outbox: a scratch database with the two tables, an OutboxDb over `pg`
// (proof that the library needs no generated Prisma client) and a nats-server of the test's own.

function onClient(c: Pool | PoolClient): OutboxTx {
  return {
    $executeRawUnsafe: async (q: string, ...values: unknown[]) =>
      (await c.query(q, values)).rowCount ?? 0,
    $queryRawUnsafe: async <T>(q: string, ...values: unknown[]) =>
      (await c.query(q, values)).rows as T,
  };
}

/** OutboxDb over a pg pool: BEGIN/COMMIT on one pooled connection per transaction. */
export function pgOutboxDb(pool: Pool): OutboxDb {
  return {
    ...onClient(pool),
    async $transaction<R>(fn: (tx: OutboxTx) => Promise<R>): Promise<R> {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const result = await fn(onClient(c));
        await c.query('COMMIT');
        return result;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        c.release();
      }
    },
  };
}

/**
 * Drops and creates database `name` with the outbox tables (and any extra SQL). Prefixed with
 * TEST_DATABASE_PREFIX like the services' test databases, so two runs on one server keep apart.
 */
export async function scratchDatabase(name: string, extraSql = ''): Promise<string> {
  const url = await recreateDatabase(`${process.env.TEST_DATABASE_PREFIX ?? ''}${name}`);
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(OUTBOX_TABLES_SQL + extraSql);
  } finally {
    await db.end();
  }
  return url;
}

/** Polls `check` until it returns a truthy value or `ms` pass (then the last error is thrown). */
export async function waitFor<T>(
  check: () => Promise<T>,
  ms = 45_000,
  label = 'condition',
): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) {
      throw new Error(
        `${label} not met within ${ms} ms${last ? `: ${(last as Error).message}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
