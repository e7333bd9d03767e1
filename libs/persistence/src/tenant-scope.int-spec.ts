import { acrossTenants, asTenant, outsideTenants } from '@crm/request-context';
import { recreateDatabase, runSql } from '@crm/testing';
import { ensureAppRole, MeteredPool } from './pg-pool';

// The pool's half of row-level security (issue 23), against the test server: every checkout
// acts as the application role and carries the caller's tenant scope, whichever connection it
// gets and whatever scope that connection had before.

const A = '0a0a0a0a-0000-4000-8000-000000000001';
const B = '0b0b0b0b-0000-4000-8000-000000000002';

let url: string;
const pools: MeteredPool[] = [];
const pool = (max = 1, role?: string) => {
  const p = new MeteredPool({ connectionString: url, max }, role);
  pools.push(p);
  return p;
};
const tenantsSeen = async (p: MeteredPool) =>
  (
    await p.query<{ tenantId: string }>('SELECT "tenantId" FROM "Thing" ORDER BY "tenantId"')
  ).rows.map((r) => r.tenantId);

beforeAll(async () => {
  url = await recreateDatabase(`${process.env.TEST_DATABASE_PREFIX ?? ''}persistence_tenant_scope`);
  await ensureAppRole(url);
  // what a service's migration does for a table with a tenant column, by hand
  await runSql(
    url,
    `CREATE TABLE "Thing" ("id" serial PRIMARY KEY, "tenantId" text NOT NULL);
     GRANT SELECT, INSERT, UPDATE, DELETE ON "Thing" TO crm_app;
     GRANT USAGE ON SEQUENCE "Thing_id_seq" TO crm_app;
     ALTER TABLE "Thing" ENABLE ROW LEVEL SECURITY;
     ALTER TABLE "Thing" FORCE ROW LEVEL SECURITY;
     CREATE POLICY tenant_rows ON "Thing"
       USING ("tenantId" = current_setting('app.tenant', true) OR current_setting('app.all_tenants', true) = 'on')
       WITH CHECK ("tenantId" = current_setting('app.tenant', true) OR current_setting('app.all_tenants', true) = 'on');
     INSERT INTO "Thing" ("tenantId") VALUES ('${A}'), ('${A}'), ('${B}');`,
  );
});

afterAll(async () => {
  await Promise.all(pools.filter((p) => !p.ended && !p.ending).map((p) => p.end()));
});

describe('MeteredPool binds each checkout to its caller', () => {
  it('acts as crm_app, which cannot bypass row-level security', async () => {
    const { rows } = await pool().query<{ role: string; bypass: boolean }>(
      `SELECT current_user AS role,
              (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) AS bypass`,
    );
    expect(rows).toEqual([{ role: 'crm_app', bypass: false }]);
  });

  it('one connection, scopes in turn: each query sees its own scope only', async () => {
    const p = pool(1);
    expect(await asTenant(A, () => tenantsSeen(p))).toEqual([A, A]);
    expect(await asTenant(B, () => tenantsSeen(p))).toEqual([B]);
    expect(await tenantsSeen(p)).toEqual([]);
    expect(await acrossTenants('test', () => tenantsSeen(p))).toEqual([A, A, B]);
    expect(await asTenant(A, () => outsideTenants(() => tenantsSeen(p)))).toEqual([]);
    expect(await asTenant(A, () => tenantsSeen(p))).toEqual([A, A]);
  });

  it('concurrent callers of two tenants on a shared pool never see each other', async () => {
    const p = pool(3);
    const seen = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 2
          ? tenantsSeen(p).then((t) => ({ want: [] as string[], t }))
          : asTenant(i % 3 ? B : A, () => tenantsSeen(p)).then((t) => ({
              want: i % 3 ? [B] : [A, A],
              t,
            })),
      ),
    );
    for (const s of seen) expect(s.t).toEqual(s.want);
  });

  it("refuses to write another tenant's row and changes none of its rows", async () => {
    const p = pool(1);
    await expect(
      asTenant(A, () => p.query(`INSERT INTO "Thing" ("tenantId") VALUES ($1)`, [B])),
    ).rejects.toThrow(/row-level security/);
    const changed = await asTenant(A, () =>
      p.query(`UPDATE "Thing" SET "tenantId" = "tenantId" WHERE "tenantId" = $1`, [B]),
    );
    expect(changed.rowCount).toBe(0);
    const deleted = await asTenant(A, () =>
      p.query(`DELETE FROM "Thing" WHERE "tenantId" = $1`, [B]),
    );
    expect(deleted.rowCount).toBe(0);
  });

  it('a transaction keeps the scope it was checked out in', async () => {
    const p = pool(1);
    const client = await asTenant(A, () => p.connect());
    try {
      await client.query('BEGIN');
      // a caller of another scope using this client (a bug) still sees A only
      expect(
        (await asTenant(B, () => client.query('SELECT "tenantId" FROM "Thing"'))).rows,
      ).toHaveLength(2);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });

  it('refuses a login role that bypasses row-level security when no application role is taken', async () => {
    // the test server's login role is a superuser
    await expect(pool(1, '').query('SELECT 1')).rejects.toThrow(/bypasses row-level security/);
  });
});
