import { randomBytes, randomUUID } from 'node:crypto';
import { AppMetrics } from '@crm/metrics';
import {
  actingRoleQuery,
  freshDatabase,
  runSql,
  TEST_SERVER_URL,
  tablesWithoutTenantRows,
} from '@crm/testing';
import { CrmPeopleConfig } from '../config';
import { inTenant, overAllTenants } from '../test/tenant-scope';
import { PrismaService } from './prisma.service';

// Tenant isolation in the database (migration row_level_security): through crm-people's own
// PrismaService, as production connects (the pool acts as crm_app and binds each connection to
// the caller's scope), a query that names no tenant sees the rows of its scope only, and a write
// for another tenant is refused. Rows are arranged as postgres, which row-level security does not
// hold.

const run = randomBytes(4).toString('hex');
const A = `rls-a-${run}`;
const B = `rls-b-${run}`;
const personA = randomUUID();
const personB = randomUUID();

let url: string;
let prisma: PrismaService;

const asA = <T>(query: () => PromiseLike<T>) => inTenant(A, query);
/** No scope: the query is awaited (and so started) outside any. */
const unscoped = <T>(query: () => PromiseLike<T>): Promise<T> => Promise.resolve(query());

const REFUSED = /row-level security/;

beforeAll(async () => {
  url = await freshDatabase('crm-people', `crm_people_it_rls_${process.pid}`);
  for (const [tenant, person] of [
    [A, personA],
    [B, personB],
  ]) {
    await runSql(
      url,
      `INSERT INTO "Person" ("id", "tenantId", "firstname", "dateModified")
       VALUES ($1::uuid, $2, 'Anna', now())`,
      [person, tenant],
    );
    await runSql(
      url,
      `INSERT INTO "BusinessCard" ("id", "tenantId", "personId", "business", "dateModified")
       VALUES ($1::uuid, $2, $3::uuid, 'Acme', now())`,
      [randomUUID(), tenant, person],
    );
  }
  const config = Object.assign(new CrmPeopleConfig(), { DATABASE_URL: url, DATABASE_POOL_SIZE: 2 });
  prisma = new PrismaService(config, new AppMetrics('crm-people-rls-test'));
}, 120_000);

afterAll(async () => {
  await prisma?.$disconnect();
  if (url) {
    await runSql(
      TEST_SERVER_URL,
      `DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`,
    );
  }
});

describe('row-level security of crm-people', () => {
  it('holds every table with a tenant column once migrated', async () => {
    expect(await tablesWithoutTenantRows(url)).toEqual([]);
  });

  it("shows a query without a tenant filter only its scope's rows", async () => {
    const people = (scope: typeof asA) =>
      scope(() => prisma.person.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      );
    const cards = (scope: typeof asA) =>
      scope(
        () =>
          prisma.$queryRaw<{ tenantId: string }[]>`
            SELECT "tenantId" FROM "BusinessCard" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId));

    expect(await people(asA)).toEqual([A]);
    expect(await cards(asA)).toEqual([A]);

    expect(await people(unscoped)).toEqual([]);
    expect(await cards(unscoped)).toEqual([]);

    expect(await people(overAllTenants)).toEqual([A, B]);
    expect(await cards(overAllTenants)).toEqual([A, B]);
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
    await expect(
      asA(() => prisma.person.create({ data: { tenantId: B, firstname: 'Planted' } })),
    ).rejects.toThrow(REFUSED);
    await expect(
      asA(
        () =>
          prisma.$executeRaw`
            INSERT INTO "BusinessCard" ("id", "tenantId", "personId", "business", "dateModified")
            VALUES (${randomUUID()}::uuid, ${B}, ${personB}::uuid, 'Planted', now())`,
      ),
    ).rejects.toThrow(REFUSED);
    // a row of A moved over to B is a write for B as well
    await expect(
      asA(() => prisma.person.update({ where: { id: personA }, data: { tenantId: B } })),
    ).rejects.toThrow(REFUSED);

    const renamed = await asA(() =>
      prisma.person.updateMany({ where: { id: personB }, data: { firstname: 'Renamed' } }),
    );
    const cardsDeleted = await asA(() =>
      prisma.businessCard.deleteMany({ where: { personId: personB } }),
    );
    const rawDeleted = await asA(
      () => prisma.$executeRaw`DELETE FROM "Person" WHERE "id" = ${personB}::uuid`,
    );
    expect([renamed.count, cardsDeleted.count, rawDeleted]).toEqual([0, 0, 0]);

    const left = await runSql<{ firstname: string; cards: number }>(
      url,
      `SELECT p."firstname", (SELECT count(*)::int FROM "BusinessCard" c WHERE c."personId" = p."id") AS "cards"
         FROM "Person" p WHERE p."id" = $1::uuid AND p."tenantId" = $2`,
      [personB, B],
    );
    expect(left).toEqual([{ firstname: 'Anna', cards: 1 }]);
    // the same statement does reach A's own row: the zeros above are the policy, not the filter
    const own = await asA(() =>
      prisma.person.updateMany({ where: { id: personA }, data: { firstname: 'Renamed' } }),
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
