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
import { EventsConfig } from '../config';
import { PrismaService } from './prisma.service';

// Tenant isolation in events' database (migration row_level_security): what every service checks
// comes from rowLevelSecurityFixture; here, events' own tables, rows and writes.

const rls = rowLevelSecurityFixture({
  service: 'events',
  database: `events_it_rls_${process.pid}`,
  connect: (settings) =>
    new PrismaService(
      Object.assign(new EventsConfig(), settings),
      new AppMetrics('events-rls-test'),
    ),
});
const { run, A, B, asA } = rls;
const eventA = randomUUID();
const eventB = randomUUID();

// as postgres, which row-level security does not hold
beforeAll(async () => {
  for (const [tenant, event] of [
    [A, eventA],
    [B, eventB],
  ]) {
    await runSql(
      rls.url,
      `INSERT INTO "Event" ("id", "tenantId", "title", "timeZone", "dateModified")
       VALUES ($1::uuid, $2, 'Conference', 'Europe/Berlin', now())`,
      [event, tenant],
    );
    await runSql(
      rls.url,
      `INSERT INTO "Website" ("id", "tenantId", "name", "url", "urlKey", "dateModified")
       VALUES ($1::uuid, $2, 'Portal', $3, $4, now())`,
      [randomUUID(), tenant, `https://${tenant}.example.com/`, `${tenant}.example.com`],
    );
  }
});

describe('row-level security of events', () => {
  itHoldsEveryTenantTable(rls);

  itShowsEachScopeItsRows(rls, {
    events: (scope) =>
      scope(() => rls.prisma.event.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      ),
    raw: (scope) =>
      scope(
        () =>
          rls.prisma.$queryRaw<{ tenantId: string }[]>`
          SELECT "tenantId" FROM "Website" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId)),
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
    const { prisma } = rls;
    await expect(
      asA(() =>
        prisma.event.create({ data: { tenantId: B, title: 'Planted', timeZone: 'Europe/Berlin' } }),
      ),
    ).rejects.toThrow(REFUSED);
    await expect(
      asA(
        () =>
          prisma.$executeRaw`
          INSERT INTO "Website" ("id", "tenantId", "name", "url", "urlKey", "dateModified")
          VALUES (${randomUUID()}::uuid, ${B}, 'Planted', 'https://planted.example.com/',
                  ${`planted-${run}.example.com`}, now())`,
      ),
    ).rejects.toThrow(REFUSED);

    const renamed = await asA(() =>
      prisma.event.updateMany({ where: { id: eventB }, data: { title: 'Renamed' } }),
    );
    const deleted = await asA(() => prisma.event.deleteMany({ where: { id: eventB } }));
    const rawDeleted = await asA(
      () => prisma.$executeRaw`DELETE FROM "Website" WHERE "tenantId" = ${B}`,
    );
    expect([renamed.count, deleted.count, rawDeleted]).toEqual([0, 0, 0]);

    const left = await runSql<{ title: string; websites: number }>(
      rls.url,
      `SELECT e."title", (SELECT count(*)::int FROM "Website" w WHERE w."tenantId" = $2) AS "websites"
         FROM "Event" e WHERE e."id" = $1::uuid`,
      [eventB, B],
    );
    expect(left).toEqual([{ title: 'Conference', websites: 1 }]);
    // the same statement does reach A's own row: the zeros above are the policy, not the filter
    const own = await asA(() =>
      prisma.event.updateMany({ where: { id: eventA }, data: { title: 'Renamed' } }),
    );
    expect(own.count).toBe(1);
  });

  itActsAsCrmApp(rls);
});
