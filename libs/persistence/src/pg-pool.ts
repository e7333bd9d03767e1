import pg from 'pg';
import { performance } from 'node:perf_hooks';
import type { AppMetrics } from '@crm/metrics';
import { scopeSettings, tenantScope, type TenantScope } from '@crm/request-context';
import { requestTransaction } from './request-transaction';

/**
 * The role the services' connections act as: it owns nothing and cannot bypass row-level
 * security (each service's migration `row_level_security` creates it and grants it the tables).
 * `DATABASE_APP_ROLE` names another; empty keeps the login role, for a DATABASE_URL that logs in
 * as such a role already. The owner of the tables runs the migrations.
 */
export const appDatabaseRole = (): string => process.env.DATABASE_APP_ROLE ?? 'crm_app';

/**
 * Creates the application role on the server of `url` when it is missing, as each service's
 * migration does (for tests and tools that make a database without the migrations).
 */
export async function ensureAppRole(url: string, role = appDatabaseRole()): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `DO $$ BEGIN
         IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${client.escapeLiteral(role)}) THEN
           CREATE ROLE ${client.escapeIdentifier(role)} NOLOGIN NOSUPERUSER NOBYPASSRLS;
         END IF;
       EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
       END $$`,
    );
  } finally {
    await client.end();
  }
}

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

  constructor(
    config: pg.PoolConfig,
    /** The role every connection takes (SET ROLE) before its first statement; '' keeps the login role. */
    private readonly appRole: string = appDatabaseRole(),
  ) {
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
    // the caller's scope, read now: the checkout may complete in another's async context
    const scope = tenantScope();
    // Inside a request that runs as one transaction (a keyed POST): its connection, unless the
    // work looks across tenants (a lookup by a public token) and needs a connection of its own.
    const request = requestTransaction();
    if (request?.pool === this && !request.ended && request.scopeKey === scopeKey(scope)) {
      const lease = request.lease();
      if (!callback) return Promise.resolve(lease);
      return callback(undefined, lease, () => lease.release());
    }
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
      // Pool.query checks its connection out this way
      return super.connect((err, client, done) => {
        settle(err);
        if (err || !client) return callback(err, client, done);
        this.bind(client, scope).then(
          () => callback(undefined, client, done),
          (bindErr: Error) => {
            done(bindErr); // a connection whose scope is unknown is not used again
            callback(bindErr, undefined, () => undefined);
          },
        );
      });
    }
    return super.connect().then(
      async (client) => {
        settle();
        try {
          await this.bind(client, scope);
        } catch (err) {
          client.release(err as Error);
          throw err;
        }
        return client;
      },
      (err: Error) => {
        settle(err);
        throw err;
      },
    );
  }

  /**
   * Gives a connection the caller's tenant scope before anything runs on it (see tenant-scope):
   * one statement when the scope differs from the one it had, none when it is the same. Its
   * first use also takes the application role (`role`: owns nothing, cannot bypass row-level
   * security) and refuses a role that would see every tenant's rows anyway.
   *
   * Set for the session, not per transaction (`set_config(..., true)`): a statement outside a
   * transaction would need BEGIN, the setting and COMMIT around it (three round trips), and every
   * checkout passes here first, so no statement runs under a scope that is not its caller's.
   */
  private async bind(client: pg.PoolClient, scope: TenantScope | undefined): Promise<void> {
    const { tenant, all } = scopeSettings(scope);
    const key = scopeKey(scope);
    const bound = boundScopes.get(client);
    if (bound === key) return;
    // Checked out, the connection has no listener for a socket error until its user adds one
    // (the pool listens only while it is idle): one here, or such an error during the binding
    // crashes the process (seen: ECONNRESET while the database went away). The query fails too.
    const ignore = () => undefined;
    client.on('error', ignore);
    try {
      await this.bindNow(client, key, tenant, all, bound);
    } finally {
      client.removeListener('error', ignore);
    }
  }

  private async bindNow(
    client: pg.PoolClient,
    key: string,
    tenant: string,
    all: 'on' | 'off',
    bound: string | undefined,
  ): Promise<void> {
    if (bound === undefined) {
      const role = this.appRole ? `SET ROLE ${client.escapeIdentifier(this.appRole)}; ` : '';
      const results = (await client.query(
        `${role}SELECT (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) AS "bypass", ` +
          `set_config('app.tenant', ${client.escapeLiteral(tenant)}, false), ` +
          `set_config('app.all_tenants', '${all}', false)`,
      )) as unknown as pg.QueryResult | pg.QueryResult[];
      const rows = (Array.isArray(results) ? results[results.length - 1] : results).rows;
      if (rows[0]?.bypass !== false) {
        throw new Error(
          `the database role in use (${this.appRole || 'the login role'}) bypasses row-level ` +
            'security: give DATABASE_APP_ROLE a role without SUPERUSER and BYPASSRLS',
        );
      }
    } else {
      await client.query({
        name: 'crm_bind_tenant_scope',
        text: "SELECT set_config('app.tenant', $1, false), set_config('app.all_tenants', $2, false)",
        values: [tenant, all],
      });
    }
    boundScopes.set(client, key);
  }
}

/** What a connection bound to `scope` is bound to: `all:tenant`. */
export function scopeKey(scope: TenantScope | undefined): string {
  const { tenant, all } = scopeSettings(scope);
  return `${all}:${tenant}`;
}

/** The scope each connection was last given (`all:tenant`), so an unchanged one costs nothing. */
const boundScopes = new WeakMap<pg.PoolClient, string>();

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
