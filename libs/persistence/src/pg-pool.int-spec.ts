import { AppMetrics } from '@crm/metrics';
import { TEST_SERVER_URL } from '@crm/testing';
import { createPgAdapter } from './prisma-adapter';
import { ensureAppRole, MeteredPool, meterPgPool } from './pg-pool';

// The PostgreSQL pool on /metrics (issue 22): what the gauges and counters say while queries
// hold and wait for connections, against the test server.

/** The value of the sample of `name` whose labels include `labels`; undefined when absent. */
async function sample(
  metrics: AppMetrics,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  for (const line of (await metrics.text()).split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const has = Object.fromEntries([...m[2].matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => has[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('MeteredPool on /metrics', () => {
  const pools: MeteredPool[] = [];
  // the pool acts as the application role, which the services' migrations create
  beforeAll(() => ensureAppRole(TEST_SERVER_URL));
  afterAll(async () => {
    await Promise.all(pools.filter((p) => !p.ended && !p.ending).map((p) => p.end()));
  });

  it('counts connections in use and idle, queries waiting, the waits and the errors', async () => {
    const metrics = new AppMetrics('pool-test');
    const pool = new MeteredPool({ connectionString: TEST_SERVER_URL, max: 2 });
    pools.push(pool);
    meterPgPool(metrics, pool);
    const main = { pool: 'main', app: 'pool-test' };

    const a = await pool.connect();
    const b = await pool.connect();
    const third = pool.query('SELECT 1 AS one');
    expect(await sample(metrics, 'db_pool_connections', { ...main, state: 'in_use' })).toBe(2);
    expect(await sample(metrics, 'db_pool_connections', { ...main, state: 'idle' })).toBe(0);
    expect(await sample(metrics, 'db_pool_waiting_clients', main)).toBe(1);
    expect(await sample(metrics, 'db_pool_max_connections', main)).toBe(2);
    expect(await sample(metrics, 'db_pool_acquire_waits_total', main)).toBe(1);

    a.release();
    expect((await third).rows).toEqual([{ one: 1 }]);
    b.release();
    expect(await sample(metrics, 'db_pool_waiting_clients', main)).toBe(0);
    expect(await sample(metrics, 'db_pool_connections', { ...main, state: 'in_use' })).toBe(0);
    expect(await sample(metrics, 'db_pool_connections', { ...main, state: 'idle' })).toBe(2);
    expect(await sample(metrics, 'db_pool_acquire_waits_total', main)).toBe(1);
    expect(await sample(metrics, 'db_pool_acquire_wait_seconds_total', main)).toBeGreaterThan(0);
    expect(await sample(metrics, 'db_pool_errors_total', main)).toBe(0);

    // a second pool of the process: its own series, labelled by its name
    const unreachable = new URL(TEST_SERVER_URL);
    unreachable.port = '1';
    const broken = new MeteredPool({ connectionString: unreachable.toString(), max: 1 });
    pools.push(broken);
    meterPgPool(metrics, broken, 'batch');
    await expect(broken.query('SELECT 1')).rejects.toThrow();
    expect(await sample(metrics, 'db_pool_errors_total', { pool: 'batch' })).toBe(1);
    expect(await sample(metrics, 'db_pool_max_connections', { pool: 'batch' })).toBe(1);
    expect(await sample(metrics, 'db_pool_errors_total', main)).toBe(0);
  });

  it("createPgAdapter hands its metered pool to Prisma's adapter, which ends it", async () => {
    const metrics = new AppMetrics('adapter-test');
    const adapter = await createPgAdapter(TEST_SERVER_URL, 3, metrics).connect();
    const result = await adapter.queryRaw({ sql: 'SELECT 1 AS one', args: [], argTypes: [] });
    expect(result.rows).toEqual([[1]]);
    const labels = { pool: 'main', app: 'adapter-test' };
    expect(await sample(metrics, 'db_pool_max_connections', labels)).toBe(3);
    // the query's connection went back to the pool: the adapter runs on this pool, no other
    expect(await sample(metrics, 'db_pool_connections', { ...labels, state: 'idle' })).toBe(1);
    expect(await sample(metrics, 'db_pool_connections', { ...labels, state: 'in_use' })).toBe(0);
    await adapter.dispose();
    expect(await sample(metrics, 'db_pool_connections', { ...labels, state: 'idle' })).toBe(0);
  });
});
