import { runSql } from './database';

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
