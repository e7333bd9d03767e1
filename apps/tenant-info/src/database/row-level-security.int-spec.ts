import { randomBytes, randomUUID } from 'node:crypto';
import { AppMetrics } from '@crm/metrics';
import {
  itActsAsCrmApp,
  itHoldsEveryTenantTable,
  itShowsEachScopeItsRows,
  ROW_LEVEL_SECURITY_REFUSAL as REFUSED,
  rowLevelSecurityFixture,
  runSql,
} from '@crm/testing';
import { TenantInfoConfig } from '../config';
import { PrismaService } from './prisma.service';

// Tenant isolation in tenant_info (migration row_level_security): what every service checks comes
// from rowLevelSecurityFixture; here, tenant-info's own tables (Tenant held by its id), rows and
// writes.

const rls = rowLevelSecurityFixture({
  service: 'tenant-info',
  database: `tenant_info_it_rls_${process.pid}`,
  connect: (settings) =>
    new PrismaService(
      Object.assign(new TenantInfoConfig(), settings),
      new AppMetrics('tenant-info-rls-test'),
    ),
});
const { run, A, B, asA } = rls;
const keyA = randomUUID();
const keyB = randomUUID();

// as postgres, which row-level security does not hold
beforeAll(async () => {
  for (const [tenant, key] of [
    [A, keyA],
    [B, keyB],
  ]) {
    await runSql(
      rls.url,
      `INSERT INTO "Tenant" ("id", "name", "tariffId", "dateModified") VALUES ($1, $2, 'starter', now())`,
      [tenant, tenant],
    );
    await runSql(rls.url, `INSERT INTO "Subscription" ("tenantId") VALUES ($1)`, [tenant]);
    await runSql(
      rls.url,
      `INSERT INTO "ApiKey" ("id", "tenantId", "name", "prefix", "hash", "scopes")
       VALUES ($1::uuid, $2, 'key', 'crm_x', $3, ARRAY['crm:read'])`,
      [key, tenant, randomBytes(32).toString('hex')],
    );
  }
});

describe('row-level security of tenant_info', () => {
  itHoldsEveryTenantTable(rls, { Tenant: 'id' });

  itShowsEachScopeItsRows(rls, {
    keys: (scope) =>
      scope(() => rls.prisma.apiKey.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      ),
    tenants: (scope) =>
      scope(() => rls.prisma.tenant.findMany({ orderBy: { id: 'asc' } })).then((rows) =>
        rows.map((r) => r.id),
      ),
    raw: (scope) =>
      scope(
        () =>
          rls.prisma.$queryRaw<{ tenantId: string }[]>`
          SELECT "tenantId" FROM "Subscription" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId)),
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
    const { prisma } = rls;
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
      rls.url,
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

  itActsAsCrmApp(rls);
});
