// Seeds many people into tenants of a crm-people database, fast and deterministic: one
// INSERT ... SELECT FROM generate_series per table and tenant, so the rows are made inside
// PostgreSQL (no row crosses the network). Every second person has a business card (e-mail and
// position), every person with a lifecycle its lifecycle history entry (as P3 writes it), and one
// in 250 has no lastname (NULLs sort last, as in a real address book).
// `ensureSeeded` keeps a seeded database between runs: a marker table records what was seeded,
// and when it matches the wish, nothing is written.
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';

/** Bump when the generated rows change, so kept databases are seeded again. */
export const SEED_VERSION = 2;

const FIRST = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Eva',
  'Felix',
  'Greta',
  'Hannes',
  'Ida',
  'Jonas',
  'Karla',
  'Lukas',
  'Mia',
  'Noah',
  'Olga',
  'Paul',
  'Quirin',
  'Rosa',
  'Sven',
  'Tina',
  'Uwe',
  'Vera',
  'Willi',
  'Xenia',
  'Yusuf',
  'Zoe',
];
const LAST = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Koch',
  'Richter',
  'Klein',
  'Wolf',
  'Schröder',
  'Neumann',
  'Schwarz',
  'Zimmermann',
  'Braun',
  'Krüger',
  'Hofmann',
  'Hartmann',
  'Lange',
  'Schmitt',
  'Werner',
];
const STATUS = ['active', 'inactive', 'retired', null];
const LIFECYCLES = [
  '00000000-0000-4000-a000-000000000101',
  '00000000-0000-4000-a000-000000000102',
  '00000000-0000-4000-a000-000000000103',
  null,
];

// Deterministic numbers per person k of a tenant: bytes of md5(tenant:k). A person's id is the
// same md5 as a UUID, so every run seeds the same rows.
const PEOPLE_SQL = `
  INSERT INTO "Person" (id, "tenantId", firstname, lastname, "customerNumber", "employeeStatus",
    "lifecycleId", "lifecycleChanged", "createdBy", "modifiedBy", "dateCreated", "dateModified")
  SELECT h::uuid, $1,
         ($2::text[])[1 + get_byte(decode(h, 'hex'), 0) % cardinality($2::text[])],
         CASE WHEN k % 250 = 0 THEN NULL
              ELSE ($3::text[])[1 + get_byte(decode(h, 'hex'), 1) % cardinality($3::text[])]
                   || CASE WHEN k % 1000 = 2 THEN ''
                           ELSE '-' || ((get_byte(decode(h, 'hex'), 2) * 256 + get_byte(decode(h, 'hex'), 3)) % 1000) END
         END,
         'C-' || lpad(k::text, 7, '0'),
         ($4::text[])[1 + get_byte(decode(h, 'hex'), 4) % 4],
         ($5::uuid[])[1 + get_byte(decode(h, 'hex'), 5) % 4],
         CASE WHEN ($5::uuid[])[1 + get_byte(decode(h, 'hex'), 5) % 4] IS NULL THEN NULL
              ELSE timestamp '2024-01-01' + k * interval '1 second' END,
         'bench', 'bench',
         timestamp '2024-01-01' + k * interval '1 second',
         timestamp '2024-01-01' + k * interval '1 second'
           + get_byte(decode(h, 'hex'), 6) * interval '1 day'
  FROM (SELECT k, md5($1 || ':' || k) AS h FROM generate_series(1, $6::int) AS k) AS s`;

const CARDS_SQL = `
  INSERT INTO "BusinessCard" (id, "tenantId", "personId", business, emails, "businessPositions",
    "isFavorite", "dateCreated", "dateModified")
  SELECT md5($1 || ':card:' || k)::uuid, $1, md5($1 || ':' || k)::uuid, 'Company ' || (k % 500),
         jsonb_build_array(jsonb_build_object('mail', 'person.' || k || '@example.com', 'isFavorite', true)),
         '[{"position": "Manager", "isFavorite": true}]'::jsonb, true,
         timestamp '2024-01-01' + k * interval '1 second',
         timestamp '2024-01-01' + k * interval '1 second'
  FROM generate_series(2, $2::int, 2) AS k`;

const HISTORY_SQL = `
  INSERT INTO "LifecycleHistory" (id, "tenantId", "personId", "lifecycleId", "dateChanged")
  SELECT md5(p.id::text || ':lc')::uuid, p."tenantId", p.id, p."lifecycleId", p."lifecycleChanged"
  FROM "Person" p WHERE p."tenantId" = $1 AND p."lifecycleId" IS NOT NULL`;

/** Seeds `count` people into `tenantId` (which must hold none yet). */
export async function seedPeople(db, tenantId, count) {
  await db.query(PEOPLE_SQL, [tenantId, FIRST, LAST, STATUS, LIFECYCLES, count]);
  await db.query(CARDS_SQL, [tenantId, count]);
  await db.query(HISTORY_SQL, [tenantId]);
}

const MARKER = 'list_bench_seed';
const TABLES = ['Person', 'BusinessCard', 'LifecycleHistory'];

/**
 * Makes the database at `connectionString` hold exactly `tenants` ({ tenantId: count }) as seeded
 * by this version: keeps it when the marker says so, else empties the people tables and seeds.
 * Returns whether it seeded.
 */
export async function ensureSeeded(connectionString, tenants) {
  const wish = { version: SEED_VERSION, tenants };
  const db = new pg.Client({ connectionString });
  await db.connect();
  try {
    await db.query(`CREATE TABLE IF NOT EXISTS ${MARKER} (seeded jsonb NOT NULL)`);
    const { rows } = await db.query(`SELECT seeded FROM ${MARKER}`);
    if (rows.length === 1 && isDeepStrictEqual(rows[0].seeded, wish)) {
      // the marker is written last, but check the rows too: someone may have deleted some
      const counts = await db.query(
        `SELECT "tenantId" AS t, count(*)::int AS n FROM "Person" GROUP BY 1`,
      );
      const have = Object.fromEntries(counts.rows.map((r) => [r.t, r.n]));
      if (
        Object.entries(tenants).every(([t, n]) => have[t] === n) &&
        counts.rows.length === Object.keys(tenants).length
      )
        return false;
    }
    await db.query(`DELETE FROM ${MARKER}`);
    // One transaction: an interrupted seed leaves the tables (and their indexes) as they were.
    await db.query('BEGIN');
    await db.query(`TRUNCATE "Person" CASCADE`);
    // Bulk load: the secondary indexes are built once afterwards (faster than maintained per
    // row, the trigram ones above all), and a superuser skips the per-row foreign key checks
    // (the rows are consistent by construction).
    const { rows: indexes } = await db.query(
      `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
       WHERE t.relname = ANY($1) AND t.relnamespace = 'public'::regnamespace
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
      [TABLES],
    );
    for (const ix of indexes) await db.query(`DROP INDEX ${ix.name}`);
    const su = await db.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    if (su.rows[0]?.rolsuper) await db.query(`SET LOCAL session_replication_role = replica`);
    for (const [tenantId, count] of Object.entries(tenants)) await seedPeople(db, tenantId, count);
    await db.query(`SET LOCAL session_replication_role = DEFAULT`);
    await db.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    for (const ix of indexes) await db.query(ix.def);
    await db.query('COMMIT');
    // as autovacuum would soon: statistics, and the visibility map index-only scans rely on
    for (const table of TABLES) await db.query(`VACUUM ANALYZE "${table}"`);
    await db.query(`INSERT INTO ${MARKER} (seeded) VALUES ($1)`, [JSON.stringify(wish)]);
    return true;
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await db.end();
  }
}
