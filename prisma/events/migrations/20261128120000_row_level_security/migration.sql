-- Row-level security: PostgreSQL refuses what a forgotten tenant filter would leak
-- (libs/persistence/src/tenant-scope.ts). The services act as role crm_app, which owns nothing and
-- cannot bypass row-level security, the pool sets app.tenant (and app.all_tenants for work that is
-- about every tenant) on each connection before it is used. Forced, so the owner is held too
-- (superusers are not: the services never act as one, the pool refuses it).

-- The role, once per server (roles are the servers), two databases migrated at once may race.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'crm_app') THEN
    CREATE ROLE crm_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;

-- The login role that runs the services takes crm_app (SET ROLE): it must be a member.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'crm_app', 'MEMBER') THEN
    EXECUTE format('GRANT crm_app TO %I', current_user);
  END IF;
END $$;

GRANT USAGE ON SCHEMA public TO crm_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO crm_app;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO crm_app;
REVOKE ALL ON "_prisma_migrations" FROM crm_app;
-- tables and sequences of later migrations (run by the same owner) are granted as they come
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO crm_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO crm_app;

-- Forces row-level security on a table whose rows belong to the tenant in `tenant_column`: a
-- later migration that adds such a table calls it (each services row-level-security test fails
-- for a table with a tenant column that has none).
CREATE OR REPLACE FUNCTION crm_tenant_rows(table_name text, tenant_column text DEFAULT 'tenantId')
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', table_name);
  EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', table_name);
  EXECUTE format('DROP POLICY IF EXISTS tenant_rows ON %I', table_name);
  EXECUTE format(
    'CREATE POLICY tenant_rows ON %I USING (%I = current_setting(''app.tenant'', true) '
    'OR current_setting(''app.all_tenants'', true) = ''on'') '
    'WITH CHECK (%I = current_setting(''app.tenant'', true) '
    'OR current_setting(''app.all_tenants'', true) = ''on'')',
    table_name, tenant_column, tenant_column);
END
$fn$;

-- Every table of this database with a tenant column
DO $$
DECLARE t record;
BEGIN
  FOR t IN
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = 'public' AND c.column_name = 'tenantId' AND tb.table_type = 'BASE TABLE'
  LOOP
    PERFORM crm_tenant_rows(t.table_name);
  END LOOP;
END $$;
