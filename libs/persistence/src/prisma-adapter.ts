import { PrismaPg } from '@prisma/adapter-pg';
import { createHash } from 'node:crypto';
import type { AppMetrics } from '@crm/metrics';
import { MeteredPool, meterPgPool } from './pg-pool';

/**
 * Statements with at most this many parameters are prepared once per connection and reused (the
 * one-statement creates have about 40, always the same). Longer ones are mostly `IN (...)` lists
 * of batches, whose text changes with the batch size: preparing each would only fill the
 * connection's statement cache.
 */
const MAX_PREPARED_ARGS = 64;
/** Connections are renewed after this long, which also bounds their statement caches. */
const CONNECTION_LIFETIME_S = 600;
/**
 * How long a query waits for a connection (queued behind others, or a new one being opened)
 * before it fails as "database unavailable" (503). Without it a server that accepts the TCP
 * connection and never answers, or a pool whose connections are all stuck, held the request for
 * ever. As long as an interactive transaction's maxWait (TRANSACTION_DEFAULTS).
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Every service's interactive transactions, unless a call says otherwise: Prisma's defaults
 * (2 s to get a connection, 5 s to run) turned a burst on a busy machine into errors. Longer
 * waits do not make a burst on one row safe: transactions queued for a row lock hold their
 * connections, and once the pool is taken every other query fails after CONNECT_TIMEOUT_MS. Work
 * that many requests of one process want on one row takes its turn first (InTurn, as the image
 * galleries do), so that it waits in memory.
 */
export const TRANSACTION_DEFAULTS = { maxWait: 10_000, timeout: 15_000 } as const;

const names = new Map<string, string>();

/**
 * A name per SQL text: node-pg then prepares the statement once per connection and PostgreSQL
 * can keep its plan. Measured on a person read by id (one query with lateral joins): planning
 * at every bind took 1-7 ms against 0.1 ms of execution.
 */
export function statementName(sql: string, argCount: number): string | undefined {
  if (argCount > MAX_PREPARED_ARGS) return undefined;
  let name = names.get(sql);
  if (!name) {
    name = `crm_${createHash('sha1').update(sql).digest('base64url')}`;
    if (names.size < 10_000) names.set(sql, name);
  }
  return name;
}

/**
 * The driver adapter every service's generated Prisma client runs on: a node-pg pool of our own
 * (MeteredPool), so that `metrics` exports its connections in use and idle, its maximum and the
 * queries waiting for a connection (`db_pool_*`, labelled `pool`). The adapter takes the pool as
 * it is and ends it with the client (`$disconnect`). `metrics` null: not exported (tools, tests).
 */
export function createPgAdapter(
  connectionString: string,
  poolSize: number,
  metrics: AppMetrics | null,
  poolName = 'main',
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
): PrismaPg {
  const pool = new MeteredPool({
    connectionString,
    max: poolSize,
    maxLifetimeSeconds: CONNECTION_LIFETIME_S,
    connectionTimeoutMillis: connectTimeoutMs,
    // a server gone without closing the socket (host down, network cut) is noticed by the kernel
    keepAlive: true,
  });
  if (metrics) meterPgPool(metrics, pool, poolName);
  const adapter = new PrismaPg(pool, {
    // The adapter passes the name on to pg; undefined leaves a statement unnamed.
    statementNameGenerator: (q) => statementName(q.sql, q.args.length) as string,
    // $disconnect ends the pool, as it ended the one the adapter made itself
    disposeExternalPool: true,
  });
  adapterPools.set(adapter, pool);
  return adapter;
}

const adapterPools = new WeakMap<PrismaPg, MeteredPool>();

/** The pool under an adapter of createPgAdapter (keyed POSTs run their transaction on it). */
export function poolOfAdapter(adapter: PrismaPg): MeteredPool {
  const pool = adapterPools.get(adapter);
  if (!pool) throw new Error('not an adapter of createPgAdapter');
  return pool;
}
