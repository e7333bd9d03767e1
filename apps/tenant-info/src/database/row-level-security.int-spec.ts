import { randomBytes, randomUUID } from 'node:crypto';
import { AppMetrics } from '@crm/metrics';
import { acrossTenants, asTenant } from '@crm/request-context';
import {
  actingRoleQuery,
  freshDatabase,
  runSql,
  TEST_SERVER_URL,
  tablesWithoutTenantRows,
} from '@crm/testing';
import { TenantInfoConfig } from '../config';
import { PrismaService } from './prisma.service';

// Tenant isolation in the database (migration row_level_security): through the service's own
// PrismaService, as production connects (the pool acts as crm_app and binds each connection to
// the caller's scope), a query that names no tenant sees the rows of its scope only, and a write
// for another tenant is refused. Rows are arranged as postgres, which row-level security does not
// hold.

const run = randomBytes(4).toString('hex');
const A = `rls-a-${run}`;
const B = `rls-b-${run}`;
const keyA = randomUUID();
const keyB = randomUUID();

let url: string;
let prisma: PrismaService;

/** A Prisma query starts when awaited: it is awaited inside the scope, or it would run in none. */
const inScope =
  (scope: <T>(fn: () => T) => T) =>
  <T>(query: () => PromiseLike<T>): Promise<T> =>
    scope(async () => await query());
const asA = inScope((fn) => asTenant(A, fn));
const across = inScope((fn) => acrossTenants('test: rows of both tenants', fn));
const unscoped = <T>(query: () => PromiseLike<T>): Promise<T> => Promise.resolve(query());

const REFUSED = /row-level security/;

beforeAll(async () => {
  url = await freshDatabase('tenant-info', `tenant_info_it_rls_${process.pid}`);
  for (const [tenant, key] of [
    [A, keyA],
    [B, keyB],
  ]) {
    await runSql(
      url,
      `INSERT INTO "Tenant" ("id", "name", "tariffId", "dateModified") VALUES ($1, $2, 'starter', now())`,
      [tenant, tenant],
    );
    await runSql(url, `INSERT INTO "Subscription" ("tenantId") VALUES ($1)`, [tenant]);
    await runSql(
      url,
      `INSERT INTO "ApiKey" ("id", "tenantId", "name", "prefix", "hash", "scopes")
       VALUES ($1::uuid, $2, 'key', 'crm_x', $3, ARRAY['crm:read'])`,
      [key, tenant, randomBytes(32).toString('hex')],
    );
  }
  const config = Object.assign(new TenantInfoConfig(), {
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: 2,
  });
  prisma = new PrismaService(config, new AppMetrics('tenant-info-rls-test'));
});

afterAll(async () => {
  await prisma?.$disconnect();
  if (url) {
    await runSql(
      TEST_SERVER_URL,
      `DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`,
    );
  }
});

describe('row-level security of tenant_info', () => {
  it('holds every table with a tenant column (Tenant by its id) once migrated', async () => {
    expect(await tablesWithoutTenantRows(url, { Tenant: 'id' })).toEqual([]);
  });

  it("shows a query without a tenant filter only its scope's rows", async () => {
    const keys = (scope: typeof asA) =>
      scope(() => prisma.apiKey.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      );
    const tenants = (scope: typeof asA) =>
      scope(() => prisma.tenant.findMany({ orderBy: { id: 'asc' } })).then((rows) =>
        rows.map((r) => r.id),
      );
    const raw = (scope: typeof asA) =>
      scope(
        () =>
          prisma.$queryRaw<{ tenantId: string }[]>`
          SELECT "tenantId" FROM "Subscription" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId));

    expect(await keys(asA)).toEqual([A]);
    expect(await tenants(asA)).toEqual([A]);
    expect(await raw(asA)).toEqual([A]);

    expect(await keys(unscoped)).toEqual([]);
    expect(await tenants(unscoped)).toEqual([]);
    expect(await raw(unscoped)).toEqual([]);

    expect(await keys(across)).toEqual([A, B]);
    expect(await tenants(across)).toEqual([A, B]);
    expect(await raw(across)).toEqual([A, B]);
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
    await expect(
      asA(() =>
        prisma.apiKey.create({
          data: { tenantId: B, name: 'stolen', prefix: 'crm_y', hash: randomUUID(), scopes: [] },
        }),
      ),
    ).rejects.toThrow(REFUSED);
    await expect(
      asA(() => prisma.tenant.create({ data: { id: `rls-c-${run}`, name: 'Another' } })),
    ).rejects.toThrow(REFUSED);

    const renamed = await asA(() =>
      prisma.apiKey.updateMany({ where: { id: keyB }, data: { name: 'renamed' } }),
    );
    const deleted = await asA(() => prisma.apiKey.deleteMany({ where: { id: keyB } }));
    const tenantDeleted = await asA(() => prisma.tenant.deleteMany({ where: { id: B } }));
    expect([renamed.count, deleted.count, tenantDeleted.count]).toEqual([0, 0, 0]);

    const left = await runSql<{ name: string }>(
      url,
      `SELECT k."name" FROM "ApiKey" k JOIN "Tenant" t ON t."id" = k."tenantId" WHERE k."id" = $1`,
      [keyB],
    );
    expect(left).toEqual([{ name: 'key' }]);
    // the same statements do reach A's own rows: the zeros above are the policy, not the filter
    const own = await asA(() =>
      prisma.apiKey.updateMany({ where: { id: keyA }, data: { name: 'renamed' } }),
    );
    expect(own.count).toBe(1);
  });

  it('acts as crm_app, which cannot bypass row-level security', async () => {
    const [role] = await asA(() =>
      prisma.$queryRawUnsafe<{ role: string; bypass: boolean }[]>(actingRoleQuery),
    );
    expect(role).toEqual({ role: 'crm_app', bypass: false });
  });
});
