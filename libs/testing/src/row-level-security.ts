import { randomBytes } from 'node:crypto';
import { acrossTenants, asTenant } from '@crm/request-context';
import { freshDatabase, runSql, TEST_SERVER_URL } from './database';

/**
 * The tables of database `url` that hold a tenant column (`tenantId`, or the columns named in
 * `alsoTenantColumns` by table) but lack what each service's migration `row_level_security`
 * gives them: row-level security enabled and forced, and the policy `tenant_rows`. A table a
 * later migration adds without `SELECT crm_tenant_rows('Table')` shows up here.
 */
export async function tablesWithoutTenantRows(
  url: string,
  alsoTenantColumns: Record<string, string> = {},
): Promise<string[]> {
  const rows = await runSql<{ table: string; column: string; forced: boolean; policy: boolean }>(
    url,
    `SELECT c.relname AS "table", col.column_name AS "column",
            c.relrowsecurity AND c.relforcerowsecurity AS "forced",
            EXISTS (SELECT 1 FROM pg_policies p
                     WHERE p.schemaname = 'public' AND p.tablename = c.relname
                       AND p.policyname = 'tenant_rows') AS "policy"
       FROM information_schema.columns col
       JOIN pg_class c ON c.relname = col.table_name AND c.relkind = 'r'
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      WHERE col.table_schema = 'public'`,
  );
  return rows
    .filter((r) => r.column === 'tenantId' || alsoTenantColumns[r.table] === r.column)
    .filter((r) => !r.forced || !r.policy)
    .map((r) => r.table)
    .sort();
}

/** Who the pool's connections act as: the role, and whether it could see past row-level security. */
export const actingRoleQuery = `SELECT current_user AS "role",
  (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) AS "bypass"`;

/** What PostgreSQL says when a policy refuses a write ("violates row-level security policy"). */
export const ROW_LEVEL_SECURITY_REFUSAL = /row-level security/;

/** Runs a query in a tenant scope (or in none) and awaits it there. */
export type QueryScope = <T>(query: () => PromiseLike<T>) => Promise<T>;

/** What the shared checks use of a service's PrismaService (libs/testing cannot import apps). */
export interface RowLevelSecurityClient {
  $queryRawUnsafe<T>(query: string): PromiseLike<T>;
  $disconnect(): Promise<void>;
}

/** The settings of a service config that point its PrismaService at the test database. */
export interface TestDatabaseSettings {
  DATABASE_URL: string;
  DATABASE_POOL_SIZE: number;
}

export interface RowLevelSecurityFixture<P extends RowLevelSecurityClient> {
  /** Random per run: ids a test plants do not meet those of an earlier run. */
  readonly run: string;
  /** The tenant the checks run as, and the other one whose rows they must not reach. */
  readonly A: string;
  readonly B: string;
  /** The test database, for runSql as postgres (which row-level security does not hold). */
  readonly url: string;
  /** The service's own client, as production connects: acting as crm_app, bound to the scope. */
  readonly prisma: P;
  readonly asA: QueryScope;
  readonly across: QueryScope;
  /** No scope: the query is awaited (and so started) outside any. */
  readonly unscoped: QueryScope;
}

/**
 * Tenant isolation in the database (migration row_level_security), checked through the service's
 * own PrismaService; called at the top of a spec. Before all tests: a fresh database of
 * `service`'s migrations and the client `connect` makes for it (the spec seeds its rows for A and
 * B in a beforeAll of its own, after this one); after all: the client disconnected and the
 * database dropped.
 */
export function rowLevelSecurityFixture<P extends RowLevelSecurityClient>(options: {
  /** The service whose migrations build the database (freshDatabase). */
  service: string;
  database: string;
  connect: (settings: TestDatabaseSettings) => P;
  setupTimeout?: number;
}): RowLevelSecurityFixture<P> {
  const run = randomBytes(4).toString('hex');
  const A = `rls-a-${run}`;
  const B = `rls-b-${run}`;
  let url: string | undefined;
  let prisma: P | undefined;

  // A Prisma query starts when awaited: it is awaited inside the scope, or it would run in none.
  const inScope =
    (scope: <T>(fn: () => T) => T): QueryScope =>
    (query) =>
      scope(async () => await query());

  beforeAll(async () => {
    url = await freshDatabase(options.service, options.database);
    prisma = options.connect({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2 });
  }, options.setupTimeout);

  afterAll(async () => {
    await prisma?.$disconnect();
    if (url) {
      await runSql(
        TEST_SERVER_URL,
        `DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`,
      );
    }
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is set up in beforeAll`);
    return value;
  };
  return {
    run,
    A,
    B,
    get url() {
      return ready(url, 'the test database');
    },
    get prisma() {
      return ready(prisma, 'the client');
    },
    asA: inScope((fn) => asTenant(A, fn)),
    across: inScope((fn) => acrossTenants('test: rows of both tenants', fn)),
    unscoped: (query) => Promise.resolve(query()),
  };
}

/**
 * Every table with a tenant column (`tenantId`, or those in `alsoTenantColumns`) has row-level
 * security forced and the policy tenant_rows: a table a later migration forgets fails here.
 */
export function itHoldsEveryTenantTable(
  rls: RowLevelSecurityFixture<RowLevelSecurityClient>,
  alsoTenantColumns: Record<string, string> = {},
): void {
  const also = Object.entries(alsoTenantColumns).map(
    ([table, column]) => `${table} by its ${column}`,
  );
  const which = also.length > 0 ? ` (${also.join(', ')})` : '';
  it(`holds every table with a tenant column${which} once migrated`, async () => {
    expect(await tablesWithoutTenantRows(rls.url, alsoTenantColumns)).toEqual([]);
  });
}

/**
 * Each of `reads` (a query that names no tenant, returning the tenants of the rows it finds) sees
 * A's rows as A, none in no scope, and both tenants' across them.
 */
export function itShowsEachScopeItsRows(
  rls: RowLevelSecurityFixture<RowLevelSecurityClient>,
  reads: Record<string, (scope: QueryScope) => Promise<string[]>>,
): void {
  it("shows a query without a tenant filter only its scope's rows", async () => {
    // by name, so that a failure says which read saw what
    const seen = async (scope: QueryScope) => {
      const tenants: Record<string, string[]> = {};
      for (const [name, read] of Object.entries(reads)) tenants[name] = await read(scope);
      return tenants;
    };
    const each = (tenants: string[]) =>
      Object.fromEntries(Object.keys(reads).map((name) => [name, tenants]));

    expect(await seen(rls.asA)).toEqual(each([rls.A]));
    expect(await seen(rls.unscoped)).toEqual(each([]));
    expect(await seen(rls.across)).toEqual(each([rls.A, rls.B]));
  });
}

/** The pool acts as crm_app, a role that is no superuser and cannot bypass row-level security. */
export function itActsAsCrmApp(rls: RowLevelSecurityFixture<RowLevelSecurityClient>): void {
  it('acts as crm_app, which cannot bypass row-level security', async () => {
    const [role] = await rls.asA(() =>
      rls.prisma.$queryRawUnsafe<{ role: string; bypass: boolean }[]>(actingRoleQuery),
    );
    expect(role).toEqual({ role: 'crm_app', bypass: false });
  });
}
