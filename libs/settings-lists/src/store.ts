import { randomUUID } from 'node:crypto';

// The database side of the engine. A lib cannot import a service's generated Prisma client, so
// it names what it needs structurally: a service's model delegate (`prisma.settingsEntry`) and
// its clients (PrismaService, Prisma.TransactionClient) fit these interfaces as they are.

/** A tenant entry as the engine reads it. */
export interface EntryRow {
  id: string;
  text: string;
  color: string | null;
  category: string | null;
  position: number;
}

/** An entry as other domains use it: id, text (system ones translated), color, category. */
export interface EntryView {
  id: string;
  text: string;
  color: string | null;
  category: string | null;
}

/** An entry as S1-S5 answer it (the services' SettingsEntry output classes have this shape). */
export interface SettingsEntryData extends EntryView {
  /** Order among the tenant entries; null for system entries (they come first). */
  position: number | null;
  isSystem: boolean;
}

type EntrySelect = { id: true; text: true; color: true; category: true; position: true };
export const ENTRY_SELECT: EntrySelect = {
  id: true,
  text: true,
  color: true,
  category: true,
  position: true,
};

export interface EntryWhere<L extends string> {
  tenantId: string;
  list?: L;
  id?: { in: string[] };
  text?: { contains: string; mode: 'insensitive' };
}

/** A JSON value as an entry's structured `data` holds it. */
export type EntryDataValue = string | number | boolean | null | EntryDataValue[] | EntryData;
/** Structured data of an entry (a JSON object), for services whose table has a `data` column. */
export interface EntryData {
  [key: string]: EntryDataValue;
}

export interface NewEntry<L extends string> {
  id: string;
  tenantId: string;
  list: L;
  text: string;
  color: string | null;
  category: string | null;
  position?: number;
  /** Structured data of lists that carry it (a service's table with a `data` column). */
  data?: EntryData;
}

export interface EntryChanges {
  text?: string;
  color?: string | null;
  category?: string | null;
  position?: number;
  /** Structured data of lists that carry it (a service's table with a `data` column). */
  data?: EntryData;
}

/** The operations of the entry table's model delegate the engine uses. */
export interface EntryTable<L extends string> {
  findMany(args: {
    where: EntryWhere<L>;
    select: EntrySelect;
    orderBy?: { position?: 'asc'; dateCreated?: 'asc'; id?: 'asc' }[];
    skip?: number;
    take?: number;
  }): PromiseLike<EntryRow[]>;
  count(args: { where: EntryWhere<L> }): PromiseLike<number>;
  aggregate(args: {
    where: EntryWhere<L>;
    _max: { position: true };
  }): PromiseLike<{ _max: { position: number | null } }>;
  createManyAndReturn(args: { data: NewEntry<L>[]; select: EntrySelect }): PromiseLike<EntryRow[]>;
  update(args: {
    where: { id: string; tenantId: string };
    data: EntryChanges;
    select: EntrySelect;
  }): PromiseLike<EntryRow>;
  deleteMany(args: { where: EntryWhere<L> }): PromiseLike<{ count: number }>;
}

/** A client or transaction: raw SQL for the lock, the comparisons ignoring case, tag inserts. */
export interface SettingsDb {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** How a service gives the engine its entry table. */
export interface SettingsStore<L extends string, Db extends SettingsDb> {
  /** The client of reads outside a transaction. */
  readonly client: Db;
  /** Runs `fn` in one interactive transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** The entry table of a client or transaction (`db => db.settingsEntry`). */
  table(db: Db): EntryTable<L>;
  /** Names for raw SQL: the table and the database enum of its `list` column. */
  readonly sql: { table: string; listEnum: string };
}

/** The tenant entry as S1-S5 answer it. */
export function toEntryData(row: EntryRow): SettingsEntryData {
  return {
    id: row.id,
    text: row.text,
    color: row.color,
    category: row.category,
    position: row.position,
    isSystem: false,
  };
}

export function toEntryView(row: EntryView): EntryView {
  return { id: row.id, text: row.text, color: row.color, category: row.category };
}

/** A tenant entry found for a text given: `given` is that text, `text` the entry's own. */
export interface EntryForText extends EntryView {
  given: string;
}

/** A tag entry to create for a text no entry has (see SettingsLookup.createTags). */
export interface NewTagEntry {
  text: string;
  category: string | null;
  /** Added to the end of the list (NewTagOptions.position `end`): its place after the others. */
  offset: number;
}

/**
 * Serializes the settings writes S2-S5 of one tenant until the transaction ends, so their checks
 * (texts taken, usage) and positions see each other. Texts unique ignoring case are the unique
 * index's job ("tenantId", "list", lower("text")): tags created by text do not take this lock.
 * One key per tenant, not per list: a transaction that locks two lists cannot deadlock another.
 */
export async function lockTenantSettings(
  tx: SettingsDb,
  keyPrefix: string,
  tenantId: string,
): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${keyPrefix}:${tenantId}`}, 0))`;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const quoted = (name: string): string => {
  if (!IDENTIFIER.test(name)) throw new Error(`settings lists: not an SQL identifier: ${name}`);
  return `"${name}"`;
};

const ORDER = [{ position: 'asc' }, { dateCreated: 'asc' }, { id: 'asc' }] as const;

/** Tenant entries of a service's settings lists; every query is scoped to the tenant. */
export class SettingsEntryRepository<L extends string, Db extends SettingsDb> {
  private readonly byTextsSql: string;
  private readonly listsOfSql: string;
  private readonly forTextsSql: string;
  private readonly insertTagsSql: { end: string; zero: string };

  constructor(
    private readonly store: SettingsStore<L, Db>,
    private readonly lockKeyPrefix: string,
  ) {
    // identifiers come from the service's code, never from a request; values are parameters
    const table = quoted(store.sql.table);
    const list = `$2::${quoted(store.sql.listEnum)}`;
    this.listsOfSql = `
      SELECT "id"::text AS "id", "list"::text AS "list" FROM ${table}
      WHERE "tenantId" = $1 AND "id" = ANY($2::uuid[])`;
    this.byTextsSql = `
      SELECT "id"::text AS "id", "text", "color", "category" FROM ${table}
      WHERE "tenantId" = $1 AND "list" = ${list}
        AND lower("text") IN (SELECT lower(t) FROM unnest($3::text[]) AS t)`;
    this.forTextsSql = `
      SELECT t."given", e."id"::text AS "id", e."text", e."color", e."category"
      FROM unnest($3::text[]) AS t("given")
      JOIN ${table} e ON e."tenantId" = $1 AND e."list" = ${list}
        AND lower(e."text") = lower(t."given")`;
    // ON CONFLICT without a target: every unique index is an arbiter. With the target
    // ("tenantId", "list", lower("text")) two writers of the same text in the same case could
    // still fail, on the case-sensitive unique index that is no arbiter then (PostgreSQL checks
    // the indexes in the order they were created, that one first). Rows are inserted in the
    // order given, which the caller sorts, so two inserts of several texts cannot deadlock.
    const insert = (position: string) => `
      INSERT INTO ${table} ("id", "tenantId", "list", "text", "color", "category", "position", "dateCreated")
      SELECT t."id", $1, ${list}, t."text", NULL, t."category", ${position}, (now() AT TIME ZONE 'UTC')
      FROM unnest($3::uuid[], $4::text[], $5::text[], $6::int[]) WITH ORDINALITY
        AS t("id", "text", "category", "offset", "n")
      ORDER BY t."n"
      ON CONFLICT DO NOTHING
      RETURNING "id"::text AS "id", "text", "color", "category"`;
    this.insertTagsSql = {
      end: insert(`(SELECT coalesce(max("position") + 1, 0) FROM ${table}
        WHERE "tenantId" = $1 AND "list" = ${list}) + t."offset"`),
      zero: insert('0'),
    };
  }

  get client(): Db {
    return this.store.client;
  }

  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.store.transaction(fn);
  }

  lock(tx: Db, tenantId: string): Promise<void> {
    return lockTenantSettings(tx, this.lockKeyPrefix, tenantId);
  }

  private where(tenantId: string, list: L, q?: string): EntryWhere<L> {
    return { tenantId, list, ...(q ? { text: { contains: q, mode: 'insensitive' } } : {}) };
  }

  /** One page in list order, and the total. */
  async page(
    tenantId: string,
    list: L,
    q: string | undefined,
    skip: number,
    take: number,
  ): Promise<[SettingsEntryData[], number]> {
    const table = this.store.table(this.store.client);
    const where = this.where(tenantId, list, q);
    const [rows, total] = await Promise.all([
      table.findMany({ where, select: ENTRY_SELECT, orderBy: [...ORDER], skip, take }),
      table.count({ where }),
    ]);
    return [rows.map(toEntryData), total];
  }

  /** Every matching entry (for sorting by translated text together with the system entries). */
  async all(tenantId: string, list: L, q: string | undefined): Promise<SettingsEntryData[]> {
    const rows = await this.store.table(this.store.client).findMany({
      where: this.where(tenantId, list, q),
      select: ENTRY_SELECT,
      orderBy: [...ORDER],
    });
    return rows.map(toEntryData);
  }

  /** The tenant's entries among `ids`, of `list` (or of any list when it is undefined). */
  async findByIds(
    db: Db,
    tenantId: string,
    list: L | undefined,
    ids: string[],
  ): Promise<EntryRow[]> {
    return this.store.table(db).findMany({
      where: { tenantId, ...(list !== undefined ? { list } : {}), id: { in: ids } },
      select: ENTRY_SELECT,
    });
  }

  /** The list of each of the tenant's entries among `ids` (any list), in one query. */
  async listsOf(db: Db, tenantId: string, ids: string[]): Promise<Map<string, L>> {
    const rows = await db.$queryRawUnsafe<{ id: string; list: L }[]>(
      this.listsOfSql,
      tenantId,
      ids,
    );
    return new Map(rows.map((r) => [r.id, r.list]));
  }

  /** Entries whose text equals one of `texts`, ignoring case (compared by PostgreSQL's lower()). */
  findByTexts(db: Db, tenantId: string, list: L, texts: string[]): PromiseLike<EntryView[]> {
    return db.$queryRawUnsafe<EntryView[]>(this.byTextsSql, tenantId, list, texts);
  }

  /**
   * For each of `texts`, the entry with that text ignoring case (compared by PostgreSQL's
   * lower(), as the unique index does), with the text it was found for.
   */
  findForTexts(db: Db, tenantId: string, list: L, texts: string[]): PromiseLike<EntryForText[]> {
    return db.$queryRawUnsafe<EntryForText[]>(this.forTextsSql, tenantId, list, texts);
  }

  /**
   * Inserts the tag entries in the order given, each unless its text is taken ignoring case
   * (ON CONFLICT DO NOTHING, no lock), and answers those inserted. A text that another
   * transaction inserted and has not committed yet makes the insert wait for it: when it
   * commits, the text is skipped, and the next statement (READ COMMITTED) sees its entry.
   * `end` appends after the list's last entry (by `offset`), `zero` puts them at 0.
   */
  insertTags(
    db: Db,
    tenantId: string,
    list: L,
    rows: NewTagEntry[],
    position: 'end' | 'zero',
  ): PromiseLike<EntryView[]> {
    return db.$queryRawUnsafe<EntryView[]>(
      this.insertTagsSql[position],
      tenantId,
      list,
      rows.map(() => randomUUID()),
      rows.map((r) => r.text),
      rows.map((r) => r.category),
      rows.map((r) => r.offset),
    );
  }

  /** Next free position at the end of the tenant's list. */
  async nextPosition(tx: Db, tenantId: string, list: L): Promise<number> {
    const max = await this.store.table(tx).aggregate({
      where: { tenantId, list },
      _max: { position: true },
    });
    return max._max.position === null ? 0 : max._max.position + 1;
  }

  /** Creates the entries and answers them in input order. */
  async createMany(tx: Db, rows: NewEntry<L>[]): Promise<EntryRow[]> {
    const saved = await this.store.table(tx).createManyAndReturn({
      data: rows,
      select: ENTRY_SELECT,
    });
    // createManyAndReturn does not promise input order
    const byId = new Map(saved.map((r) => [r.id, r]));
    return rows.map((r) => byId.get(r.id)!);
  }

  /** The caller found the entry in this tenant within the same transaction. */
  update(tx: Db, tenantId: string, id: string, data: EntryChanges): PromiseLike<EntryRow> {
    return this.store.table(tx).update({ where: { id, tenantId }, data, select: ENTRY_SELECT });
  }

  deleteMany(tx: Db, tenantId: string, list: L, ids: string[]): PromiseLike<{ count: number }> {
    return this.store.table(tx).deleteMany({ where: { tenantId, list, id: { in: ids } } });
  }
}
