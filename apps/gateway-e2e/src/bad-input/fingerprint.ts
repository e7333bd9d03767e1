import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

/**
 * What the databases hold, as one digest per table: a count and an md5 over every row's text.
 * Columns that change without a write of the caller (bookkeeping of the outbox relay, a key's
 * last use) and the consumer's processed-event table and the sales leases are left out; everything else, every
 * tenant's rows included, is compared.
 */
// By table: Event.publishedAt and Website.publishedAt (events), WebhookDelivery.attempts and
// .lastError are data a refused request must not change, and are compared.
const VOLATILE_COLUMNS: Record<string, Set<string>> = {
  OutboxEvent: new Set(['publishedAt', 'attempts', 'lastError']),
  ApiKey: new Set(['lastUsed']),
};
// SalesLease: which replica writes a tenant's sales, claimed or renewed by any sale request
// that reaches the writer, refused ones too (bookkeeping, not the caller's data).
const SKIPPED_TABLES = new Set(['_prisma_migrations', 'ProcessedEvent', 'SalesLease']);

export class Fingerprinter {
  private constructor(
    private readonly dbs: { name: string; client: Client; sql: string; tenantSql: string }[],
  ) {}

  static async open(urls: Record<string, string>): Promise<Fingerprinter> {
    const dbs = [];
    for (const [name, url] of Object.entries(urls)) {
      const client = new Client({ connectionString: url });
      await client.connect();
      const cols = await client.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
      );
      const tables = new Map<string, string[]>();
      for (const r of cols.rows) {
        if (SKIPPED_TABLES.has(r.table_name)) continue;
        if (VOLATILE_COLUMNS[r.table_name]?.has(r.column_name)) continue;
        tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
      }
      const digest = (table: string, columns: string[], where: string) =>
        `SELECT '${table}' AS t, count(*)::int AS n,
                md5(coalesce(string_agg(r, E'\\n' ORDER BY r), '')) AS h
           FROM (SELECT ROW(${columns.map((c) => `"${c}"`).join(', ')})::text AS r
                   FROM "${table}" ${where}) s`;
      const all = [...tables].map(([t, c]) => digest(t, c, ''));
      // one tenant's rows: tables with a tenant column, and its own tenant row
      const tenant = [...tables]
        .filter(([t, c]) => c.includes('tenantId') || t === 'Tenant')
        .map(([t, c]) =>
          digest(t, c, t === 'Tenant' ? 'WHERE "id" = $1' : 'WHERE "tenantId" = $1'),
        );
      dbs.push({
        name,
        client,
        sql: all.join('\nUNION ALL\n'),
        tenantSql: tenant.join('\nUNION ALL\n'),
      });
    }
    return new Fingerprinter(dbs);
  }

  /** Every table of every database. */
  async all(): Promise<Map<string, string>> {
    return this.collect((db) => db.client.query(db.sql));
  }

  /** The rows of one tenant. */
  async tenant(tenantId: string): Promise<Map<string, string>> {
    return this.collect((db) => db.client.query(db.tenantSql, [tenantId]));
  }

  private async collect(
    run: (db: { name: string; client: Client; sql: string; tenantSql: string }) => Promise<{
      rows: { t: string; n: number; h: string }[];
    }>,
  ): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const results = await Promise.all(this.dbs.map(async (db) => ({ db, res: await run(db) })));
    for (const { db, res } of results) {
      for (const r of res.rows) out.set(`${db.name}.${r.t}`, `${r.n}:${r.h}`);
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(this.dbs.map((db) => db.client.end()));
  }
}

/** Tables whose digest differs between two fingerprints. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k));
}

/**
 * Every message of the catalogues (every library's and every app's) as a pattern per language: placeholders
 * match any text. A translated answer's message matches one of its language's patterns.
 */
export function messagePatterns(root: string): Record<'en' | 'de', RegExp[]> {
  // every library's catalogue (libs/i18n, libs/files, ...) and every app's
  const dirs: string[] = [];
  for (const lib of readdirSync(path.join(root, 'libs'))) {
    const d = path.join(root, 'libs', lib, 'src/locales');
    if (existsSync(d)) dirs.push(d);
  }
  for (const app of readdirSync(path.join(root, 'apps'))) {
    const d = path.join(root, 'apps', app, 'src/i18n');
    if (existsSync(d)) dirs.push(d);
  }
  const out: Record<'en' | 'de', RegExp[]> = { en: [], de: [] };
  const walk = (lang: 'en' | 'de', v: unknown) => {
    if (typeof v === 'string') {
      // a text that is nothing but placeholders would match anything: it proves no translation
      if (v.replace(/\{\w+\}/g, '').replace(/\W/g, '').length < 4) return;
      const source = v
        .split(/\{\w+\}/)
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[\\s\\S]*');
      out[lang].push(new RegExp(`^${source}$`));
    } else if (v && typeof v === 'object') Object.values(v).forEach((x) => walk(lang, x));
  };
  for (const dir of dirs) {
    for (const lang of ['en', 'de'] as const) {
      const d = path.join(dir, lang);
      if (!existsSync(d)) continue;
      for (const f of readdirSync(d).filter((x) => x.endsWith('.json'))) {
        walk(lang, JSON.parse(readFileSync(path.join(d, f), 'utf8')));
      }
    }
  }
  return out;
}
