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
import { BookingsInvitationsConfig } from '../config';
import { PrismaService } from './prisma.service';

// Tenant isolation in the database (migration row_level_security): through the service's own
// PrismaService, as production connects (the pool acts as crm_app and binds each connection to
// the caller's scope), a query that names no tenant sees the rows of its scope only, and a write
// for another tenant is refused. Rows are arranged as postgres, which row-level security does not
// hold.

const run = randomBytes(4).toString('hex');
const A = `rls-a-${run}`;
const B = `rls-b-${run}`;
const eventA = randomUUID();
const eventB = randomUUID();

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
  url = await freshDatabase('bookings-invitations', `bookings_invitations_it_rls_${process.pid}`);
  for (const [tenant, event] of [
    [A, eventA],
    [B, eventB],
  ]) {
    await runSql(
      url,
      `INSERT INTO "EventCopy" ("tenantId", "eventId", "sequence", "title", "timeZone", "published", "status")
       VALUES ($1, $2::uuid, 1, 'Conference', 'Europe/Berlin', true, 'planned')`,
      [tenant, event],
    );
    await runSql(
      url,
      `INSERT INTO "SalesLease" ("tenantId", "owner", "expiresAt")
       VALUES ($1, 'replica-1', now() + interval '1 minute')`,
      [tenant],
    );
  }
  const config = Object.assign(new BookingsInvitationsConfig(), {
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: 2,
  });
  prisma = new PrismaService(config, new AppMetrics('bookings-invitations-rls-test'));
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

describe('row-level security of bookings-invitations', () => {
  it('holds every table with a tenant column once migrated', async () => {
    expect(await tablesWithoutTenantRows(url)).toEqual([]);
  });

  it("shows a query without a tenant filter only its scope's rows", async () => {
    const copies = (scope: typeof asA) =>
      scope(() => prisma.eventCopy.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      );
    const raw = (scope: typeof asA) =>
      scope(
        () =>
          prisma.$queryRaw<{ tenantId: string }[]>`
          SELECT "tenantId" FROM "SalesLease" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId));

    expect(await copies(asA)).toEqual([A]);
    expect(await raw(asA)).toEqual([A]);

    expect(await copies(unscoped)).toEqual([]);
    expect(await raw(unscoped)).toEqual([]);

    expect(await copies(across)).toEqual([A, B]);
    expect(await raw(across)).toEqual([A, B]);
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
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
      url,
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

  it('acts as crm_app, which cannot bypass row-level security', async () => {
    const [role] = await asA(() =>
      prisma.$queryRawUnsafe<{ role: string; bypass: boolean }[]>(actingRoleQuery),
    );
    expect(role).toEqual({ role: 'crm_app', bypass: false });
  });
});
