import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

/** The repository root (this file is libs/testing/src/database.ts). */
const ROOT = path.resolve(__dirname, '../../..');

/** Server used by integration and end-to-end tests (CI starts it; see .ci/run). */
export const TEST_SERVER_URL =
  process.env.TEST_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string, server = TEST_SERVER_URL): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops database `name` on the test server (connections and all) and creates it again, empty or
 * as a copy of `template`; its URL.
 */
export async function recreateDatabase(name: string, template?: string): Promise<string> {
  const admin = new Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}

/**
 * What `tools/prisma.mjs deploy <service>` applies: the names and contents of the service's
 * migrations and the deploy tool itself, as 12 hex digits.
 */
function migrationsFingerprint(service: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, `${prefix}${entry.name}/`);
      else hash.update(`${prefix}${entry.name}\0`).update(readFileSync(full)).update('\0');
    }
  };
  walk(path.join(ROOT, 'prisma', service, 'migrations'), '');
  hash.update(readFileSync(path.join(ROOT, 'tools/prisma.mjs')));
  return hash.digest('hex').slice(0, 12);
}

/** Templates this process has asked for: service -> its database name, once found or built. */
const templates = new Map<string, Promise<string>>();

/**
 * A database of the test server holding exactly what the service's migrations make, applied by
 * the project's own migrate command once per version of the migrations (its name carries their
 * fingerprint), marked as a template that nobody may connect to. Jest workers and checkouts
 * testing on the same server build each one once: the first takes an advisory lock, builds it
 * under another name and renames it; the others wait on the lock and find it.
 */
function migratedTemplate(service: string): Promise<string> {
  let template = templates.get(service);
  if (!template) {
    template = buildTemplateOnce(service);
    templates.set(service, template);
    template.catch(() => templates.delete(service)); // a failed build is tried again next time
  }
  return template;
}

async function buildTemplateOnce(service: string): Promise<string> {
  const name = `tpl_${service.replace(/-/g, '_')}_${migrationsFingerprint(service)}`;
  const admin = new Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) {
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      execFileSync(
        process.execPath,
        [path.join(ROOT, 'tools/prisma.mjs'), 'deploy', service, '--url', databaseUrl(building)],
        { stdio: 'pipe' },
      );
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    }
  } finally {
    await admin.end(); // ends the session, and with it the advisory lock
  }
  return name;
}

/**
 * Drops and recreates database `name` as a copy of the service's migrated template: tests run
 * against exactly the schema production gets (the template is what the project's own migrate
 * command made), without running the migrate command again for every database (2-6 s each, a
 * few hundred times per CI run; a copy takes a fraction of a second).
 */
export async function freshDatabase(service: string, baseName: string): Promise<string> {
  // Two checkouts testing at once on one server (worktrees, CI beside a developer) keep apart.
  return recreateDatabase(
    `${process.env.TEST_DATABASE_PREFIX ?? ''}${baseName}`,
    await migratedTemplate(service),
  );
}

/** One SQL statement on database `url`, on a connection of its own: for arranging or inspecting rows. */
export async function runSql<T = Record<string, unknown>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query(text, params)).rows as T[];
  } finally {
    await db.end();
  }
}
