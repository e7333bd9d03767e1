import { readdirSync } from 'node:fs';
import path from 'node:path';
import { databaseUrl, freshDatabase, runSql, TEST_SERVER_URL } from './database';

// freshDatabase copies a template the project's migrate command built once: each copy must hold
// every migration, be a database of its own, and the template must stay out of reach.

const SERVICE = 'tenant-info';
const prefix = `${process.env.TEST_DATABASE_PREFIX ?? ''}fresh_db_`;
const migrationCount = readdirSync(
  path.resolve(__dirname, '../../../prisma', SERVICE, 'migrations'),
  {
    withFileTypes: true,
  },
).filter((e) => e.isDirectory()).length;

const applied = async (url: string) =>
  Number(
    (
      await runSql<{ n: string }>(
        url,
        'SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL',
      )
    )[0].n,
  );

afterAll(async () => {
  const server = databaseUrl('postgres', TEST_SERVER_URL);
  for (const name of ['a', 'b', 'c'])
    await runSql(server, `DROP DATABASE IF EXISTS "${prefix}${name}" WITH (FORCE)`);
});

it('copies the migrated template: every migration applied, three at once, each a database of its own', async () => {
  const [a, b, c] = await Promise.all(
    ['a', 'b', 'c'].map((name) => freshDatabase(SERVICE, `fresh_db_${name}`)),
  );
  expect(migrationCount).toBeGreaterThan(0);
  for (const url of [a, b, c]) expect(await applied(url)).toBe(migrationCount);

  // a row written into one copy is in none of the others, and a new copy starts empty again
  await runSql(a, 'CREATE TABLE copy_probe (id int)');
  await runSql(a, 'INSERT INTO copy_probe VALUES (1)');
  const exists = async (url: string) =>
    (await runSql(url, "SELECT 1 FROM pg_tables WHERE tablename = 'copy_probe'")).length === 1;
  expect(await exists(a)).toBe(true);
  expect(await exists(b)).toBe(false);
  const again = await freshDatabase(SERVICE, 'fresh_db_a');
  expect(await exists(again)).toBe(false);
  expect(await applied(again)).toBe(migrationCount);
});

it('keeps the template a template nobody connects to', async () => {
  await freshDatabase(SERVICE, 'fresh_db_c');
  const rows = await runSql<{ datname: string; datistemplate: boolean; datallowconn: boolean }>(
    databaseUrl('postgres', TEST_SERVER_URL),
    "SELECT datname, datistemplate, datallowconn FROM pg_database WHERE datname LIKE 'tpl\\_tenant\\_info\\_%' AND datname NOT LIKE '%\\_building'",
  );
  expect(rows.length).toBeGreaterThanOrEqual(1);
  for (const row of rows) expect(row).toMatchObject({ datistemplate: true, datallowconn: false });
  // the copies are ordinary databases
  const copy = await runSql<{ datistemplate: boolean; datallowconn: boolean }>(
    databaseUrl('postgres', TEST_SERVER_URL),
    'SELECT datistemplate, datallowconn FROM pg_database WHERE datname = $1',
    [`${prefix}c`],
  );
  expect(copy).toEqual([{ datistemplate: false, datallowconn: true }]);
});
