import { contextSlot } from '@crm/call-context';
import type pg from 'pg';

/**
 * One database transaction around a whole request (a keyed POST, see idempotent-requests.ts):
 * everything the request writes through the pool commits or rolls back together with the record
 * of its answer. The pool hands out this transaction's connection to every checkout made in the
 * request (MeteredPool.connect), so repositories, Prisma and raw SQL need not know about it:
 *
 * - a transaction the request opens (`BEGIN`, Prisma's `$transaction`) becomes a savepoint, its
 *   `COMMIT` a release, its `ROLLBACK` a rollback to the savepoint; one at a time (a second waits
 *   for the first to end, as it would wait for a row lock);
 * - a statement outside such a transaction runs in a savepoint of its own, so that its error
 *   (caught by the caller, as a unique violation can be) leaves the request's transaction usable,
 *   as it left an autocommit statement alone before;
 * - the statements of the request go to the connection one at a time, so that no savepoint of one
 *   takes in another's statement.
 */
export class RequestTransaction {
  /** Statements in the order they run: each waits for the one before. */
  private chain: Promise<unknown> = Promise.resolve();
  /** The end of the inner transaction in progress, if any. */
  private inner: Promise<void> | null = null;
  private savepoints = 0;
  private unreleased: string | null = null;
  /** Set when a statement failed in a way that leaves the connection unusable. */
  broken: Error | null = null;
  /**
   * Committed or rolled back: checkouts get connections of their own again, and a statement of
   * work that outlived the request (started from it, still running) is refused, not run on a
   * connection that is back in the pool.
   */
  ended = false;
  private readonly committedHooks: (() => void)[] = [];

  constructor(
    /** The pool whose checkouts in this request get this transaction's connection. */
    readonly pool: pg.Pool,
    /** The connection, checked out for the request and in a transaction (BEGIN sent). */
    readonly client: pg.PoolClient,
    /** `all:tenant` of the scope it was begun in: a checkout in another scope gets its own connection. */
    readonly scopeKey: string,
  ) {
    // Its checkouts' listeners are not added to the connection (see RequestLease): this one
    // stands for them, so that a socket error marks the request failed instead of crashing.
    client.on('error', this.onError);
  }

  private readonly onError = (err: Error) => void (this.broken ??= err);

  /** The connection goes back to the pool (`err`: destroyed), the request is over. */
  release(err?: Error): void {
    this.client.removeListener('error', this.onError);
    this.client.release(err);
  }

  /** A checkout's view of the connection: what `pool.connect()` returns inside the request. */
  lease(): pg.PoolClient {
    return new RequestLease(this).client();
  }

  /** Runs `sql` on the connection in its turn (the request's own statements: record, commit). */
  run(sql: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    return this.serial(() => this.client.query(sql as string, values));
  }

  serial<T>(step: () => Promise<T>): Promise<T> {
    const guarded = () =>
      this.ended ? Promise.reject(new Error('the request transaction has ended')) : step();
    const next = this.chain.then(guarded, guarded);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Runs `fn` once the request has committed (not at all when it rolls back). */
  onCommit(fn: () => void): void {
    this.committedHooks.push(fn);
  }

  /** The request is over: `committed` runs what waited for the commit, outside the request. */
  end(committed: boolean): void {
    if (this.ended) return;
    this.ended = true;
    if (!committed) return;
    for (const fn of this.committedHooks.splice(0)) requests.run(undefined, fn);
  }

  /** A savepoint name, new each time. */
  savepoint(): string {
    return `crm_request_${++this.savepoints}`;
  }

  /**
   * `SAVEPOINT name`, after the release of the savepoint a statement before it left open: one
   * round trip for both. (Savepoints of statements that succeeded are released with the next
   * one's, or by the commit.)
   */
  savepointSql(name: string): string {
    const release = this.unreleased ? `RELEASE SAVEPOINT ${this.unreleased}; ` : '';
    this.unreleased = null;
    return `${release}SAVEPOINT ${name}`;
  }

  /** The savepoint left open for the next statement to release (null: none is, any more). */
  leaveUnreleased(name: string | null): void {
    this.unreleased = name;
  }

  /** Waits for the inner transaction in progress to end, then takes its place. */
  async openInner(): Promise<() => void> {
    while (this.inner) await this.inner;
    let end!: () => void;
    this.inner = new Promise<void>((resolve) => (end = resolve));
    return () => {
      this.inner = null;
      end();
    };
  }
}

const TRANSACTION_START = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
const TRANSACTION_COMMIT = /^\s*(COMMIT|END)\b/i;
const TRANSACTION_ROLLBACK = /^\s*ROLLBACK\s*;?\s*$/i;
/**
 * A read without locks: run without a savepoint of its own (two round trips less). Should it
 * fail, the request's transaction is aborted and the request fails; an answer below 500 is then
 * kept alone (IdempotentRequests.commit), since nothing of the request was written.
 */
const PLAIN_READ = /^\s*SELECT\b(?![\s\S]*\bFOR\s+(UPDATE|SHARE|NO\s+KEY|KEY\s+SHARE)\b)/i;
/** Inside a savepoint the request's transaction keeps the level it began with. */
const TRANSACTION_LEVEL = /^\s*SET\s+TRANSACTION\b/i;

const LISTENER_METHODS = new Set<string | symbol>([
  'on',
  'once',
  'addListener',
  'removeListener',
  'off',
  'removeAllListeners',
]);

type QueryCallback = (err: Error | null, result?: pg.QueryResult) => void;

/** One checkout of the request's connection (see RequestTransaction). */
class RequestLease {
  /** The savepoint of the transaction this checkout opened, and how to let the next one in. */
  private open: { savepoint: string; end: () => void } | null = null;

  constructor(private readonly tx: RequestTransaction) {}

  /** The connection as a pool client: queries and release go through here, the rest to it. */
  client(): pg.PoolClient {
    const real = this.tx.client;
    const proxy: pg.PoolClient = new Proxy(real, {
      get: (target, prop) => {
        if (prop === 'query') return this.query;
        if (prop === 'release') return this.release;
        // Listeners of a checkout (pg's Pool.query adds one per query, Prisma one per
        // transaction) would pile up on the one connection: the transaction listens for them.
        if (LISTENER_METHODS.has(prop)) return () => proxy;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function'
          ? (value as (...args: unknown[]) => unknown).bind(target)
          : value;
      },
    });
    return proxy;
  }

  private readonly query = (
    config: string | pg.QueryConfig,
    valuesOrCallback?: unknown[] | QueryCallback,
    callback?: QueryCallback,
  ): Promise<pg.QueryResult> | void => {
    const cb = typeof valuesOrCallback === 'function' ? valuesOrCallback : callback;
    const values = Array.isArray(valuesOrCallback) ? valuesOrCallback : undefined;
    const result = this.statement(config, values);
    if (!cb) return result;
    result.then(
      (r) => cb(null, r),
      (err: Error) => cb(err),
    );
  };

  private async statement(
    config: string | pg.QueryConfig,
    values: unknown[] | undefined,
  ): Promise<pg.QueryResult> {
    const text = typeof config === 'string' ? config : config.text;
    if (TRANSACTION_START.test(text)) return this.begin();
    if (TRANSACTION_COMMIT.test(text)) return this.end('RELEASE SAVEPOINT', 'COMMIT');
    if (TRANSACTION_ROLLBACK.test(text)) return this.end('ROLLBACK TO SAVEPOINT', 'ROLLBACK');
    if (this.open && TRANSACTION_LEVEL.test(text)) return emptyResult('SET');
    const tx = this.tx;
    if (this.open || PLAIN_READ.test(text))
      return tx.serial(() => tx.client.query(config as string, values));
    // A write of its own: in a savepoint, so that its failure leaves the transaction usable.
    return tx.serial(async () => {
      const savepoint = tx.savepoint();
      await tx.client.query(tx.savepointSql(savepoint));
      try {
        return await tx.client.query(config as string, values);
      } catch (err) {
        await tx.client
          .query(`ROLLBACK TO SAVEPOINT ${savepoint}`)
          .catch((lost: Error) => (tx.broken ??= lost));
        throw err;
      } finally {
        tx.leaveUnreleased(savepoint);
      }
    });
  }

  private async begin(): Promise<pg.QueryResult> {
    if (this.open) throw new Error('a transaction is already open on this connection');
    const end = await this.tx.openInner();
    const savepoint = this.tx.savepoint();
    try {
      await this.tx.run(this.tx.savepointSql(savepoint));
    } catch (err) {
      end();
      throw err;
    }
    this.open = { savepoint, end };
    return emptyResult('BEGIN');
  }

  private async end(
    how: 'RELEASE SAVEPOINT' | 'ROLLBACK TO SAVEPOINT',
    command: string,
  ): Promise<pg.QueryResult> {
    const open = this.open;
    if (!open) return emptyResult(command);
    this.open = null;
    try {
      const release = `RELEASE SAVEPOINT ${open.savepoint}`;
      await this.tx.run(
        how === 'RELEASE SAVEPOINT' ? release : `${how} ${open.savepoint}; ${release}`,
      );
    } finally {
      // what statements left open inside it went with it
      this.tx.leaveUnreleased(null);
      open.end();
    }
    return emptyResult(command);
  }

  /** The connection stays with the request; a transaction left open is rolled back. */
  private readonly release = (err?: Error | boolean): void => {
    if (err instanceof Error && isConnectionLost(err)) this.tx.broken ??= err;
    if (this.open) {
      void this.end('ROLLBACK TO SAVEPOINT', 'ROLLBACK').catch(
        (lost: Error) => (this.tx.broken ??= lost),
      );
    }
  };
}

function emptyResult(command: string): pg.QueryResult {
  return { command, rowCount: null, oid: 0, fields: [], rows: [] };
}

/** An error that says the connection itself is gone (no SQLSTATE from the server). */
function isConnectionLost(err: Error): boolean {
  return !(err as { code?: unknown }).code || String((err as { code?: unknown }).code).length !== 5;
}

const requests = contextSlot<RequestTransaction>();

/** The request transaction the current work runs in, if any. */
export const requestTransaction = (): RequestTransaction | undefined => requests.get();

/**
 * Runs `fn` once what the current work wrote is committed: at once outside a request
 * transaction, after its commit inside one (a worker kicked for a row the request wrote would
 * not see it before, and would work inside the request). Not at all when the request rolls back.
 */
export function afterCommit(fn: () => void): void {
  const tx = requests.get();
  if (tx && !tx.ended) tx.onCommit(fn);
  else fn();
}

/** Runs `fn` (and everything it starts) inside `tx`: the pool's checkouts get its connection. */
export function inRequestTransaction<T>(tx: RequestTransaction, fn: () => T): T {
  return requests.run(tx, fn);
}
