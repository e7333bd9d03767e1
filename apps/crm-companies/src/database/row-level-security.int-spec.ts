import { randomUUID } from 'node:crypto';
import { AppMetrics } from '@crm/metrics';
import {
  itActsAsCrmApp,
  itHoldsEveryTenantTable,
  itShowsEachScopeItsRows,
  ROW_LEVEL_SECURITY_REFUSAL as REFUSED,
  rowLevelSecurityFixture,
  runSql,
} from '@crm/testing';
import { CrmCompaniesConfig } from '../config';
import { PrismaService } from './prisma.service';

// Tenant isolation in crm_companies (migration row_level_security): what every service checks
// comes from rowLevelSecurityFixture; here, crm-companies' own tables, rows and writes.

const rls = rowLevelSecurityFixture({
  service: 'crm-companies',
  database: `crm_companies_it_rls_${process.pid}`,
  connect: (settings) =>
    new PrismaService(
      Object.assign(new CrmCompaniesConfig(), settings),
      new AppMetrics('crm-companies-rls-test'),
    ),
});
const { A, B, asA } = rls;
const companyOf = { [A]: randomUUID(), [B]: randomUUID() };

// as postgres, which row-level security does not hold
beforeAll(async () => {
  for (const tenant of [A, B]) {
    await runSql(
      rls.url,
      `INSERT INTO "Company" ("id", "tenantId", "name", "dateModified") VALUES ($1::uuid, $2, 'Acme', now())`,
      [companyOf[tenant], tenant],
    );
    await runSql(
      rls.url,
      `INSERT INTO "CompanyEmail" ("id", "tenantId", "companyId", "email", "domain", "dateModified")
       VALUES ($1::uuid, $2, $3::uuid, 'office@acme.test', 'acme.test', now())`,
      [randomUUID(), tenant, companyOf[tenant]],
    );
    await runSql(
      rls.url,
      `INSERT INTO "Tombstone" ("tenantId", "kind", "id") VALUES ($1, 'person', $2::uuid)`,
      [tenant, randomUUID()],
    );
  }
});

describe('row-level security of crm_companies', () => {
  itHoldsEveryTenantTable(rls);

  itShowsEachScopeItsRows(rls, {
    companies: (scope) =>
      scope(() => rls.prisma.company.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      ),
    emails: (scope) =>
      scope(
        () =>
          rls.prisma.$queryRaw<{ tenantId: string }[]>`
          SELECT "tenantId" FROM "CompanyEmail" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId)),
    tombstones: (scope) =>
      scope(() => rls.prisma.tombstone.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      ),
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
    const { prisma } = rls;
    await expect(
      asA(() => prisma.company.create({ data: { tenantId: B, name: 'Planted' } })),
    ).rejects.toThrow(REFUSED);
    await expect(
      asA(
        () => prisma.$executeRaw`
          INSERT INTO "Tombstone" ("tenantId", "kind", "id")
          VALUES (${B}, 'person', ${randomUUID()}::uuid)`,
      ),
    ).rejects.toThrow(REFUSED);

    const b = companyOf[B];
    const renamed = await asA(() =>
      prisma.company.updateMany({ where: { id: b }, data: { name: 'Renamed' } }),
    );
    const rawRenamed = await asA(
      () => prisma.$executeRaw`UPDATE "Company" SET "name" = 'Renamed' WHERE "id" = ${b}::uuid`,
    );
    const emailsDeleted = await asA(() =>
      prisma.companyEmail.deleteMany({ where: { companyId: b } }),
    );
    const deleted = await asA(() => prisma.company.deleteMany({ where: { id: b } }));
    expect([renamed.count, rawRenamed, emailsDeleted.count, deleted.count]).toEqual([0, 0, 0, 0]);
    const left = await runSql<{ name: string; emails: number }>(
      rls.url,
      `SELECT c."name", (SELECT count(*) FROM "CompanyEmail" e WHERE e."companyId" = c."id")::int AS "emails"
         FROM "Company" c WHERE c."id" = $1::uuid`,
      [b],
    );
    expect(left).toEqual([{ name: 'Acme', emails: 1 }]);

    // the same statement does reach A's own row: the zeros above are the policy, not the filter
    const own = await asA(() =>
      prisma.company.updateMany({ where: { id: companyOf[A] }, data: { name: 'Renamed' } }),
    );
    expect(own.count).toBe(1);
  });

  itActsAsCrmApp(rls);
});
