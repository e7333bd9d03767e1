import pg from 'pg';
import { performance } from 'node:perf_hooks';
import type { AppMetrics } from '@crm/metrics';

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * A node-pg pool that counts what its gauges cannot show between two scrapes: acquisitions that
 * found every connection in use and queued (and how long they waited), and errors (a connection
 * that could not be opened or checked out, an idle connection lost). Only a queued acquisition
 * reads the clock; the others cost two comparisons. Every query goes through `connect`
 * (`Pool.query` checks a client out with it, and the Prisma adapter's transactions call it).
 */
export class MeteredPool extends pg.Pool {
  /** Acquisitions that queued for a connection (counted when they start waiting). */
  acquireWaits = 0;
  /** Seconds the queued acquisitions waited until they had a connection or failed, summed. */
  acquireWaitSeconds = 0;
  /** Connections that could not be opened or checked out (timeouts too), idle ones lost. */
  errors = 0;

  constructor(config: pg.PoolConfig) {
    super(config);
    // Errors of idle connections (the server closed them): the adapter logs them as well.
    this.on('error', () => void this.errors++);
  }

  /** The configured maximum of connections (pg-pool defaults it to 10). */
  get maxConnections(): number {
    return this.options.max ?? 10;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    // pg-pool queues a checkout behind earlier ones, or when no connection is idle and no new
    // one may be opened.
    const queued =
      !this.ending &&
      (this.waitingCount > 0 || (this.idleCount === 0 && this.totalCount >= this.maxConnections));
    const started = queued ? performance.now() : 0;
    if (queued) this.acquireWaits++;
    const settle = (err?: Error) => {
      if (queued) this.acquireWaitSeconds += (performance.now() - started) / 1000;
      if (err) this.errors++;
    };
    if (callback) {
      return super.connect((err, client, done) => {
        settle(err);
        callback(err, client, done);
      });
    }
    return super.connect().then(
      (client) => {
        settle();
        return client;
      },
      (err: Error) => {
        settle(err);
        throw err;
      },
    );
  }
}

/** The pools of each app's metrics, by name: one set of gauges per app reads them all. */
const poolsOf = new WeakMap<AppMetrics, Map<string, MeteredPool>>();

/**
 * Exports `pool`'s state on `metrics`, labelled `pool` (`main`: the Prisma client's; another
 * name for another pool of the same process). The gauges are registered with the first pool of
 * an app and read every pool of it when scraped; a pool registered again under its name replaces
 * the earlier one.
 */
export function meterPgPool(metrics: AppMetrics, pool: MeteredPool, name = 'main'): void {
  let pools = poolsOf.get(metrics);
  if (!pools) {
    pools = new Map();
    poolsOf.set(metrics, pools);
    registerPoolMetrics(metrics, pools);
  }
  pools.set(name, pool);
}

function registerPoolMetrics(metrics: AppMetrics, pools: Map<string, MeteredPool>): void {
  const each = (value: (p: MeteredPool) => number) => () =>
    [...pools].map(([pool, p]) => ({ labels: { pool }, value: value(p) }));
  metrics.gauge(
    'db_pool_connections',
    'Connections of the PostgreSQL pool: in_use (checked out for a query or transaction) or idle',
    () =>
      [...pools].flatMap(([pool, p]) => [
        { labels: { pool, state: 'in_use' }, value: p.totalCount - p.idleCount },
        { labels: { pool, state: 'idle' }, value: p.idleCount },
      ]),
    ['pool', 'state'],
  );
  metrics.gauge(
    'db_pool_max_connections',
    'Connections the PostgreSQL pool may open (DATABASE_POOL_SIZE)',
    each((p) => p.maxConnections),
    ['pool'],
  );
  metrics.gauge(
    'db_pool_waiting_clients',
    'Queries and transactions waiting for a connection of the PostgreSQL pool',
    each((p) => p.waitingCount),
    ['pool'],
  );
  metrics.counter(
    'db_pool_acquire_waits_total',
    'Checkouts from the PostgreSQL pool that had to wait: every connection was in use',
    each((p) => p.acquireWaits),
    ['pool'],
  );
  metrics.counter(
    'db_pool_acquire_wait_seconds_total',
    'Seconds the waiting checkouts from the PostgreSQL pool waited, summed',
    each((p) => p.acquireWaitSeconds),
    ['pool'],
  );
  metrics.counter(
    'db_pool_errors_total',
    'PostgreSQL connections that could not be opened or checked out, and idle ones lost',
    each((p) => p.errors),
    ['pool'],
  );
}
