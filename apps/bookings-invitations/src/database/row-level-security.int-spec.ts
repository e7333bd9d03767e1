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
import { BookingsInvitationsConfig } from '../config';
import { PrismaService } from './prisma.service';

// Tenant isolation in bookings-invitations' database (migration row_level_security): what every
// service checks comes from rowLevelSecurityFixture; here, this service's tables, rows and writes.

const rls = rowLevelSecurityFixture({
  service: 'bookings-invitations',
  database: `bookings_invitations_it_rls_${process.pid}`,
  connect: (settings) =>
    new PrismaService(
      Object.assign(new BookingsInvitationsConfig(), settings),
      new AppMetrics('bookings-invitations-rls-test'),
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
      `INSERT INTO "EventCopy" ("tenantId", "eventId", "sequence", "title", "timeZone", "published", "status")
       VALUES ($1, $2::uuid, 1, 'Conference', 'Europe/Berlin', true, 'planned')`,
      [tenant, event],
    );
    await runSql(
      rls.url,
      `INSERT INTO "SalesLease" ("tenantId", "owner", "expiresAt")
       VALUES ($1, 'replica-1', now() + interval '1 minute')`,
      [tenant],
    );
  }
});

describe('row-level security of bookings-invitations', () => {
  itHoldsEveryTenantTable(rls);

  itShowsEachScopeItsRows(rls, {
    copies: (scope) =>
      scope(() => rls.prisma.eventCopy.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      ),
    raw: (scope) =>
      scope(
        () =>
          rls.prisma.$queryRaw<{ tenantId: string }[]>`
          SELECT "tenantId" FROM "SalesLease" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId)),
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
    const { prisma } = rls;
    await expect(
      asA(() =>
        prisma.eventCopy.create({
          data: {
            tenantId: B,
            eventId: randomUUID(),
            sequence: 1,
            title: 'Planted',
            timeZone: 'Europe/Berlin',
            published: true,
            status: 'planned',
          },
        }),
      ),
    ).rejects.toThrow(REFUSED);
    await expect(
      asA(
        () =>
          prisma.$executeRaw`
          INSERT INTO "SalesLease" ("tenantId", "owner", "expiresAt")
          VALUES (${`planted-${run}`}, 'replica-2', now())`,
      ),
    ).rejects.toThrow(REFUSED);

    const renamed = await asA(() =>
      prisma.eventCopy.updateMany({ where: { eventId: eventB }, data: { title: 'Renamed' } }),
    );
    const deleted = await asA(() => prisma.eventCopy.deleteMany({ where: { eventId: eventB } }));
    const rawDeleted = await asA(
      () => prisma.$executeRaw`DELETE FROM "SalesLease" WHERE "tenantId" = ${B}`,
    );
    expect([renamed.count, deleted.count, rawDeleted]).toEqual([0, 0, 0]);

    const left = await runSql<{ title: string; leases: number }>(
      rls.url,
      `SELECT c."title", (SELECT count(*)::int FROM "SalesLease" l WHERE l."tenantId" = $2) AS "leases"
         FROM "EventCopy" c WHERE c."eventId" = $1::uuid`,
      [eventB, B],
    );
    expect(left).toEqual([{ title: 'Conference', leases: 1 }]);
    // the same statement does reach A's own row: the zeros above are the policy, not the filter
    const own = await asA(() =>
      prisma.eventCopy.updateMany({ where: { eventId: eventA }, data: { title: 'Renamed' } }),
    );
    expect(own.count).toBe(1);
  });

  itActsAsCrmApp(rls);
});
