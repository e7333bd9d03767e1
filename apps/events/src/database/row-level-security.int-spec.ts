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
import { EventsConfig } from '../config';
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
  url = await freshDatabase('events', `events_it_rls_${process.pid}`);
  for (const [tenant, event] of [
    [A, eventA],
    [B, eventB],
  ]) {
    await runSql(
      url,
      `INSERT INTO "Event" ("id", "tenantId", "title", "timeZone", "dateModified")
       VALUES ($1::uuid, $2, 'Conference', 'Europe/Berlin', now())`,
      [event, tenant],
    );
    await runSql(
      url,
      `INSERT INTO "Website" ("id", "tenantId", "name", "url", "urlKey", "dateModified")
       VALUES ($1::uuid, $2, 'Portal', $3, $4, now())`,
      [randomUUID(), tenant, `https://${tenant}.example.com/`, `${tenant}.example.com`],
    );
  }
  const config = Object.assign(new EventsConfig(), { DATABASE_URL: url, DATABASE_POOL_SIZE: 2 });
  prisma = new PrismaService(config, new AppMetrics('events-rls-test'));
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

describe('row-level security of events', () => {
  it('holds every table with a tenant column once migrated', async () => {
    expect(await tablesWithoutTenantRows(url)).toEqual([]);
  });

  it("shows a query without a tenant filter only its scope's rows", async () => {
    const events = (scope: typeof asA) =>
      scope(() => prisma.event.findMany({ orderBy: { tenantId: 'asc' } })).then((rows) =>
        rows.map((r) => r.tenantId),
      );
    const raw = (scope: typeof asA) =>
      scope(
        () =>
          prisma.$queryRaw<{ tenantId: string }[]>`
          SELECT "tenantId" FROM "Website" ORDER BY "tenantId"`,
      ).then((rows) => rows.map((r) => r.tenantId));

    expect(await events(asA)).toEqual([A]);
    expect(await raw(asA)).toEqual([A]);

    expect(await events(unscoped)).toEqual([]);
    expect(await raw(unscoped)).toEqual([]);

    expect(await events(across)).toEqual([A, B]);
    expect(await raw(across)).toEqual([A, B]);
  });

  it("refuses to write another tenant's row and leaves its rows alone", async () => {
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
      url,
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

  it('acts as crm_app, which cannot bypass row-level security', async () => {
    const [role] = await asA(() =>
      prisma.$queryRawUnsafe<{ role: string; bypass: boolean }[]>(actingRoleQuery),
    );
    expect(role).toEqual({ role: 'crm_app', bypass: false });
  });
});
