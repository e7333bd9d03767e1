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
import { CrmCompaniesConfig } from '../config';
import { PrismaService } from './prisma.service';

// Tenant isolation in the database (migration row_level_security): through the service's own
// PrismaService, as production connects (the pool acts as crm_app and binds each connection to
// the caller's scope), a query that names no tenant sees the rows of its scope only, and a write
// for another tenant is refused. Rows are arranged as postgres, which row-level security does not
// hold.

const run = randomBytes(4).toString('hex');
const A = `rls-a-${run}`;
const B = `rls-b-${run}`;
const companyOf = { [A]: randomUUID(), [B]: randomUUID() };

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
type Scope = typeof asA;

const REFUSED = /row-level security/;

beforeAll(async () => {
  url = await freshDatabase('crm-companies', `crm_companies_it_rls_${process.pid}`);
  for (const tenant of [A, B]) {
    await runSql(
      url,
      `INSERT INTO "Company" ("id", "tenantId", "name", "dateModified") VALUES ($1::uuid, $2, 'Acme', now())`,
      [companyOf[tenant], tenant],
    );
    await runSql(
      url,
      `INSERT INTO "CompanyEmail" ("id", "tenantId", "companyId", "email", "domain", "dateModified")
       VALUES ($1::uuid, $2, $3::uuid, 'office@acme.test', 'acme.test', now())`,
      [randomUUID(), tenant, companyOf[tenant]],
    );
    await runSql(
      url,
      `INSERT INTO "Tombstone" ("tenantId", "kind", "id") VALUES ($1, 'person', $2::uuid)`,
      [tenant, randomUUID()],
    );
  }
  const config = Object.assign(new CrmCompaniesConfig(), {
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: 2,
  });
  prisma = new PrismaService(config, new AppMetrics('crm-companies-rls-test'));
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

describe('row-level security of crm_companies', () => {
  it('holds every table with a tenant column once migrated', async () => {
    expect(await tablesWithoutTenantRows(url)).toEqual([]);
  });

  it("shows a query without a tenant filter only its scope's rows", async () => {
    const companies = (scope: Scope) =>
      scope(() => prisma.company.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      );
    const emails = (scope: Scope) =>
      scope(
        () =>
          prisma.$queryRaw<{ tenantId: string }[]>`
          SELECT "tenantId" FROM "CompanyEmail" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId));
    const tombstones = (scope: Scope) =>
      scope(() => prisma.tombstone.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      );

    expect(await companies(asA)).toEqual([A]);
    expect(await emails(asA)).toEqual([A]);
    expect(await tombstones(asA)).toEqual([A]);

    expect(await companies(unscoped)).toEqual([]);
    expect(await emails(unscoped)).toEqual([]);
    expect(await tombstones(unscoped)).toEqual([]);

    expect(await companies(across)).toEqual([A, B]);
    expect(await emails(across)).toEqual([A, B]);
    expect(await tombstones(across)).toEqual([A, B]);
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
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
      url,
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

  it('acts as crm_app, which cannot bypass row-level security', async () => {
    const [role] = await asA(() =>
      prisma.$queryRawUnsafe<{ role: string; bypass: boolean }[]>(actingRoleQuery),
    );
    expect(role).toEqual({ role: 'crm_app', bypass: false });
  });
});
