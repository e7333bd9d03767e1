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
import { CrmPeopleConfig } from '../config';
import { PrismaService } from './prisma.service';

// Tenant isolation in crm-people's database (migration row_level_security): what every service
// checks comes from rowLevelSecurityFixture; here, crm-people's own tables, rows and writes.

const rls = rowLevelSecurityFixture({
  service: 'crm-people',
  database: `crm_people_it_rls_${process.pid}`,
  connect: (settings) =>
    new PrismaService(
      Object.assign(new CrmPeopleConfig(), settings),
      new AppMetrics('crm-people-rls-test'),
    ),
  setupTimeout: 120_000,
});
const { A, B, asA } = rls;
const personA = randomUUID();
const personB = randomUUID();

// as postgres, which row-level security does not hold
beforeAll(async () => {
  for (const [tenant, person] of [
    [A, personA],
    [B, personB],
  ]) {
    await runSql(
      rls.url,
      `INSERT INTO "Person" ("id", "tenantId", "firstname", "dateModified")
       VALUES ($1::uuid, $2, 'Anna', now())`,
      [person, tenant],
    );
    await runSql(
      rls.url,
      `INSERT INTO "BusinessCard" ("id", "tenantId", "personId", "business", "dateModified")
       VALUES ($1::uuid, $2, $3::uuid, 'Acme', now())`,
      [randomUUID(), tenant, person],
    );
  }
});

describe('row-level security of crm-people', () => {
  itHoldsEveryTenantTable(rls);

  itShowsEachScopeItsRows(rls, {
    people: (scope) =>
      scope(() => rls.prisma.person.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      ),
    cards: (scope) =>
      scope(
        () =>
          rls.prisma.$queryRaw<{ tenantId: string }[]>`
            SELECT "tenantId" FROM "BusinessCard" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId)),
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
    const { prisma } = rls;
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
      rls.url,
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

  itActsAsCrmApp(rls);
});
