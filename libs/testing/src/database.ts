import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';

/** Server used by integration and end-to-end tests (CI starts it; see .ci/run). */
export const TEST_SERVER_URL =
  process.env.TEST_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string, server = TEST_SERVER_URL): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops database `name` on the test server (connections and all) and creates it empty; its URL. */
export async function recreateDatabase(name: string): Promise<string> {
  const admin = new Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}

/**
 * Drops and recreates database `name`, then applies the service's migrations with the project's
 * own migrate command: tests run against exactly the schema production gets.
 */
export async function freshDatabase(service: string, baseName: string): Promise<string> {
  // Two checkouts testing at once on one server (worktrees, CI beside a developer) keep apart.
  const url = await recreateDatabase(`${process.env.TEST_DATABASE_PREFIX ?? ''}${baseName}`);
  const root = path.resolve(__dirname, '../../..');
  execFileSync(
    process.execPath,
    [path.join(root, 'tools/prisma.mjs'), 'deploy', service, '--url', url],
    {
      stdio: 'pipe',
    },
  );
  return url;
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
