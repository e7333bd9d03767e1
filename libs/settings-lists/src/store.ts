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

export interface NewEntry<L extends string> {
  id: string;
  tenantId: string;
  list: L;
  text: string;
  color: string | null;
  category: string | null;
  position?: number;
}

export interface EntryChanges {
  text?: string;
  color?: string | null;
  category?: string | null;
  position?: number;
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

/** A client or transaction: raw SQL for the lock and the comparisons ignoring case. */
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

/**
 * Serializes the writers of one tenant's settings lists until the transaction ends, so "unique
 * ignoring case" (which the case-sensitive unique index cannot enforce) holds under concurrency.
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

  constructor(
    private readonly store: SettingsStore<L, Db>,
    private readonly lockKeyPrefix: string,
  ) {
    // identifiers come from the service's code, never from a request; values are parameters
    this.byTextsSql = `
      SELECT "id"::text AS "id", "text", "color", "category" FROM ${quoted(store.sql.table)}
      WHERE "tenantId" = $1 AND "list" = $2::${quoted(store.sql.listEnum)}
        AND lower("text") IN (SELECT lower(t) FROM unnest($3::text[]) AS t)`;
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

  /** Entries whose text equals one of `texts`, ignoring case (compared by PostgreSQL's lower()). */
  findByTexts(db: Db, tenantId: string, list: L, texts: string[]): PromiseLike<EntryView[]> {
    return db.$queryRawUnsafe<EntryView[]>(this.byTextsSql, tenantId, list, texts);
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
