import { acrossTenants, asTenant } from '@crm/request-context';
import { recreateDatabase, runSql } from '@crm/testing';
import { ensureAppRole, MeteredPool } from './pg-pool';
import { IdempotentRequests } from './idempotent-requests';
import {
  afterCommit,
  inRequestTransaction,
  requestTransaction,
  type RequestTransaction,
} from './request-transaction';

// A keyed POST runs as one transaction (issue 23, doubled creates): every checkout of the request
// gets its connection, transactions inside it are savepoints, and what it did commits with the
// record of its key or not at all. Against the test server, as crm_app under row-level security.

const A = '0a0a0a0a-0000-4000-8000-00000000000a';
const B = '0b0b0b0b-0000-4000-8000-00000000000b';
const FP = 'f'.repeat(64);

let url: string;
let pool: MeteredPool;
let requests: IdempotentRequests;

const names = async (tenant = A) =>
  (
    await asTenant(tenant, () =>
      pool.query<{ name: string }>('SELECT name FROM "Thing" ORDER BY name'),
    )
  ).rows.map((r) => r.name);
const insert = (name: string) =>
  pool.query('INSERT INTO "Thing" (name, "tenantId") VALUES ($1, $2)', [name, A]);

/** Begins a keyed request of tenant A and runs `work` inside it, as the service's hook does. */
async function keyed<T>(
  key: string,
  work: () => Promise<T>,
): Promise<{ tx: RequestTransaction; result: T }> {
  const start = await asTenant(A, () => requests.begin(A, key, FP));
  if (start.kind !== 'run') throw new Error(`key ${key} was answered already`);
  const result = await asTenant(A, () => inRequestTransaction(start.tx, work));
  return { tx: start.tx, result };
}
const answer = (body: string) => ({
  status: 201,
  headers: { 'content-type': 'text/plain' },
  body: Buffer.from(body),
});

beforeAll(async () => {
  url = await recreateDatabase(`${process.env.TEST_DATABASE_PREFIX ?? ''}persistence_request_tx`);
  await ensureAppRole(url);
  await runSql(
    url,
    `CREATE TABLE "Thing" ("name" text PRIMARY KEY, "tenantId" text NOT NULL);
     CREATE TABLE "IdempotentRequest" (
       "tenantId" text NOT NULL, "key" varchar(200) NOT NULL, "fingerprint" char(64) NOT NULL,
       "status" integer, "headers" jsonb, "body" bytea,
       "dateCreated" timestamp(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
       PRIMARY KEY ("tenantId", "key"));
     GRANT SELECT, INSERT, UPDATE, DELETE ON "Thing", "IdempotentRequest" TO crm_app;
     ALTER TABLE "Thing" ENABLE ROW LEVEL SECURITY;
     ALTER TABLE "Thing" FORCE ROW LEVEL SECURITY;
     CREATE POLICY tenant_rows ON "Thing"
       USING ("tenantId" = current_setting('app.tenant', true) OR current_setting('app.all_tenants', true) = 'on')
       WITH CHECK ("tenantId" = current_setting('app.tenant', true) OR current_setting('app.all_tenants', true) = 'on');
     ALTER TABLE "IdempotentRequest" ENABLE ROW LEVEL SECURITY;
     ALTER TABLE "IdempotentRequest" FORCE ROW LEVEL SECURITY;
     CREATE POLICY tenant_rows ON "IdempotentRequest"
       USING ("tenantId" = current_setting('app.tenant', true) OR current_setting('app.all_tenants', true) = 'on')
       WITH CHECK ("tenantId" = current_setting('app.tenant', true) OR current_setting('app.all_tenants', true) = 'on');`,
  );
  pool = new MeteredPool({ connectionString: url, max: 4 });
  requests = new IdempotentRequests(pool);
});

beforeEach(async () => {
  await runSql(url, 'DELETE FROM "Thing"; DELETE FROM "IdempotentRequest"');
});

afterAll(async () => {
  await pool?.end();
});

describe('a keyed request is one transaction', () => {
  it('commits its statements, its inner transactions and its answer together', async () => {
    const { tx } = await keyed('k1', async () => {
      await insert('plain');
      const inner = await pool.connect();
      await inner.query('BEGIN');
      await inner.query('INSERT INTO "Thing" (name, "tenantId") VALUES ($1, $2)', ['inner', A]);
      await inner.query('COMMIT');
      inner.release();
      // not visible to anyone else before the request commits
      expect(await runSql(url, 'SELECT count(*)::int AS n FROM "Thing"')).toEqual([{ n: 0 }]);
    });
    await asTenant(A, () => requests.commit(tx, answer('made')));
    expect(await names()).toEqual(['inner', 'plain']);
    const kept = await runSql(
      url,
      'SELECT status, convert_from(body, \'UTF8\') AS body FROM "IdempotentRequest"',
    );
    expect(kept).toEqual([{ status: 201, body: 'made' }]);
  });

  it('rolled back, leaves nothing: not its statements, not its key', async () => {
    const { tx } = await keyed('k2', async () => {
      await insert('gone');
      const inner = await pool.connect();
      await inner.query('BEGIN');
      await inner.query('INSERT INTO "Thing" (name, "tenantId") VALUES ($1, $2)', ['gone too', A]);
      await inner.query('COMMIT');
      inner.release();
    });
    await requests.rollback(tx);
    expect(await names()).toEqual([]);
    expect(await runSql(url, 'SELECT count(*)::int AS n FROM "IdempotentRequest"')).toEqual([
      { n: 0 },
    ]);
  });

  it('a failed statement that the caller catches, and an inner rollback, leave the rest usable', async () => {
    await asTenant(A, () => insert('taken'));
    const { tx } = await keyed('k3', async () => {
      await expect(insert('taken')).rejects.toMatchObject({ code: '23505' });
      const inner = await pool.connect();
      await inner.query('BEGIN');
      await inner.query('INSERT INTO "Thing" (name, "tenantId") VALUES ($1, $2)', ['undone', A]);
      await inner.query('ROLLBACK');
      inner.release();
      await insert('after');
    });
    await asTenant(A, () => requests.commit(tx, answer('ok')));
    expect(await names()).toEqual(['after', 'taken']);
  });

  it('every checkout of the request shares its one connection, concurrent ones in turn', async () => {
    const before = pool.totalCount;
    const { tx } = await keyed('k4', async () => {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => insert(`n${String(i).padStart(2, '0')}`)),
      );
      // two inner transactions at once take turns: neither sees a savepoint of the other vanish
      await Promise.all(
        ['x', 'y'].map(async (name) => {
          const inner = await pool.connect();
          await inner.query('BEGIN');
          await inner.query('INSERT INTO "Thing" (name, "tenantId") VALUES ($1, $2)', [name, A]);
          await inner.query(name === 'x' ? 'ROLLBACK' : 'COMMIT');
          inner.release();
        }),
      );
    });
    expect(pool.totalCount - before).toBeLessThanOrEqual(1);
    await asTenant(A, () => requests.commit(tx, answer('ok')));
    const seen = await names();
    expect(seen).toHaveLength(21);
    expect(seen).toContain('y');
    expect(seen).not.toContain('x');
  });

  it('a commit of a transaction that an error aborted is refused, not taken for a commit', async () => {
    const { tx } = await keyed('k5', async () => {
      await insert('lost');
      // outside the lease (no savepoint): the request's transaction is aborted
      await requestTransaction()!
        .run('SELECT 1/0')
        .catch(() => undefined);
    });
    await expect(asTenant(A, () => requests.commit(tx, answer('no')))).rejects.toThrow();
    expect(await names()).toEqual([]);
    expect(await runSql(url, 'SELECT count(*)::int AS n FROM "IdempotentRequest"')).toEqual([
      { n: 0 },
    ]);
  });

  it('a refusal after a failed read (which aborts the transaction) is kept alone; nothing else is', async () => {
    const { tx } = await keyed('k7', async () => {
      await insert('written before');
      // a read runs without a savepoint of its own: its failure aborts the request's transaction
      await expect(pool.query('SELECT 1/0')).rejects.toMatchObject({ code: '22012' });
    });
    const refusal = { status: 400, headers: {}, body: Buffer.from('{"bad":true}') };
    await asTenant(A, () => requests.commit(tx, refusal));
    expect(await names()).toEqual([]);
    expect(
      await runSql(url, `SELECT key, status FROM "IdempotentRequest" WHERE key = 'k7'`),
    ).toEqual([{ key: 'k7', status: 400 }]);
  });

  it('work across tenants inside the request gets a connection of its own', async () => {
    await asTenant(B, () =>
      pool.query('INSERT INTO "Thing" (name, "tenantId") VALUES ($1, $2)', ['of B', B]),
    );
    const { tx, result } = await keyed('k6', async () => {
      return acrossTenants('test: a lookup by a public token', () =>
        pool.query<{ name: string }>('SELECT name FROM "Thing"'),
      );
    });
    expect(result.rows.map((r) => r.name)).toEqual(['of B']);
    await asTenant(A, () => requests.commit(tx, answer('ok')));
  });
});

describe('work that outlives the request', () => {
  it('afterCommit runs after the commit, outside the request, and not after a rollback', async () => {
    const seen: string[][] = [];
    // a worker kicked for the row the request wrote: it must see it, on a connection of its own
    const kick = () => void names().then((n) => seen.push(n));
    const { tx } = await keyed('kicked', async () => {
      await insert('queued job');
      afterCommit(kick);
    });
    expect(seen).toEqual([]);
    await asTenant(A, () => requests.commit(tx, answer('ok')));
    await waitUntil(() => seen.length === 1);
    expect(seen).toEqual([['queued job']]);

    const { tx: failing } = await keyed('kicked-not', async () => afterCommit(kick));
    await requests.rollback(failing);
    let ranAnyway = false;
    afterCommit(() => (ranAnyway = true)); // outside a request: at once
    expect(ranAnyway).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('a query started from the request after it ended gets a connection of its own', async () => {
    let later: (() => Promise<string[]>) | null = null;
    const { tx } = await keyed('ended', async () => {
      await insert('of the request');
      later = () => names();
    });
    await asTenant(A, () => requests.commit(tx, answer('ok')));
    expect(tx.ended).toBe(true);
    // still in the request's async context, as a background job it started would be
    expect(await inRequestTransaction(tx, () => later!())).toEqual(['of the request']);
    await expect(tx.run('SELECT 1')).rejects.toThrow(/ended/);
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}

describe('a key is carried out once', () => {
  it('a repeat after the commit finds the answer; another fingerprint is told apart by the caller', async () => {
    const { tx } = await keyed('once', () => insert('first'));
    await asTenant(A, () => requests.commit(tx, answer('the answer')));
    const again = await asTenant(A, () => requests.begin(A, 'once', FP));
    expect(again).toMatchObject({
      kind: 'answered',
      answer: { fingerprint: FP, status: 201, headers: { 'content-type': 'text/plain' } },
    });
    expect(again.kind === 'answered' && again.answer.body?.toString()).toBe('the answer');
    // the same key of another tenant is another key
    const otherTenant = await asTenant(B, () => requests.begin(B, 'once', FP));
    expect(otherTenant.kind).toBe('run');
    if (otherTenant.kind === 'run') await requests.rollback(otherTenant.tx);
  });

  it('20 concurrent calls with one key: one runs, the others wait for its commit and get its answer', async () => {
    const calls = Array.from({ length: 20 }, async (_, i) => {
      const start = await asTenant(A, () => requests.begin(A, 'race', FP));
      if (start.kind === 'answered') return start.answer.body!.toString();
      await asTenant(A, () => inRequestTransaction(start.tx, () => insert(`winner ${i}`)));
      await asTenant(A, () => requests.commit(start.tx, answer(`made by ${i}`)));
      return `made by ${i}`;
    });
    const answers = await Promise.all(calls);
    expect(new Set(answers).size).toBe(1);
    expect(await names()).toHaveLength(1);
  });

  it('a call that rolled back frees its key for the repeat', async () => {
    const { tx } = await keyed('retry', () => insert('not kept'));
    await requests.rollback(tx);
    const { tx: again } = await keyed('retry', () => insert('kept'));
    await asTenant(A, () => requests.commit(again, answer('ok')));
    expect(await names()).toEqual(['kept']);
  });

  it('purges answers older than 24 hours, of every tenant', async () => {
    await runSql(
      url,
      `INSERT INTO "IdempotentRequest" ("tenantId", key, fingerprint, status, "dateCreated") VALUES
         ('${A}', 'old', '${FP}', 201, now() - interval '25 hours'),
         ('${B}', 'old', '${FP}', 201, now() - interval '25 hours'),
         ('${A}', 'new', '${FP}', 201, now())`,
    );
    expect(await requests.purge()).toBe(2);
    expect(await runSql(url, 'SELECT key FROM "IdempotentRequest"')).toEqual([{ key: 'new' }]);
  });
});
