// References to records another service owns (a card's company, a managed-by relation's person)
// are plain ids, confirmed over NATS before the writing transaction opens. The owner's
// deleted/merged event is applied by a consumer that disconnects the rows pointing at the record.
// Without more, a write whose check came before the deletion and whose commit comes after the
// consumer's would leave a dangling id. The two sides meet on an advisory lock per
// (tenant, kind, id) and a tombstone table in the same database:
//
// - the consumer takes the lock exclusively, records the tombstones and disconnects, in one
//   transaction (`buryForeignRecords`);
// - a write takes the lock shared, first thing in its transaction (before any row lock, so it
//   never holds a row the consumer waits for while waiting for the consumer), then reads the
//   tombstones in a new statement (`buriedForeignRecords`): under READ COMMITTED that statement
//   sees a tombstone committed while it waited.
//
// Either the consumer commits first (the write finds the tombstone and is refused as if the
// record were unknown) or the write commits first (the consumer, waiting on the lock, then
// disconnects its row too). Writes of the same record take the lock shared: they never wait for
// each other. Keys are taken in sorted order on both sides, so two of them cannot deadlock.
//
// A bulk write (an import chunk of up to 1,000 people) takes one lock for all of the tenant's
// records of the kind instead (`buriedForeignRecordsInBulk`): one lock per id would put a
// thousand entries per transaction into PostgreSQL's lock table, which the whole server shares
// (max_locks_per_transaction x max_connections); a few imports at once would exhaust it, and then
// every transaction on the server needing a lock fails. The consumer takes that tenant-wide lock
// exclusively as well, first (its key sorts before every id's): a deletion waits for a running
// chunk of the tenant, a chunk for a running deletion.
//
// A lib cannot import a service's generated client: the service's PrismaService and
// Prisma.TransactionClient fit `RawSql` as they are. Each service declares the table in its
// schema (model Tombstone: tenantId, kind, id, deletedAt; primary key tenantId, kind, id) and
// reaches it through one repository of its own, which calls these functions.

/** What a foreign id names. */
export type ForeignKind = 'company' | 'person';

/** The raw-SQL part of a Prisma client or transaction client. */
export interface RawSql {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
}

/** The advisory lock key of a foreign record, hashed to 64 bits by PostgreSQL. */
export const foreignLockKey = (tenantId: string, kind: ForeignKind, id: string): string =>
  `foreign-ref:${kind}:${tenantId}:${id.toLowerCase()}`;

const distinctLower = (ids: readonly string[]) => [...new Set(ids.map((i) => i.toLowerCase()))];

/** The key bulk writes hold shared: every record of the kind of the tenant ('*' sorts first). */
export const foreignBulkLockKey = (tenantId: string, kind: ForeignKind): string =>
  `foreign-ref:${kind}:${tenantId}:*`;

function sortedKeys(tenantId: string, kind: ForeignKind, ids: string[]): string[] {
  return ids.map((id) => foreignLockKey(tenantId, kind, id)).sort();
}

async function tombstonedOf(
  tx: RawSql,
  tenantId: string,
  kind: ForeignKind,
  unique: string[],
): Promise<Set<string>> {
  // a statement of its own: its snapshot is taken after the lock was granted
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM "Tombstone"
     WHERE "tenantId" = ${tenantId} AND kind = ${kind} AND id = ANY(${unique}::uuid[])`;
  return new Set(rows.map((r) => r.id.toLowerCase()));
}

/**
 * The consumer's side, in the transaction that disconnects the rows: locks the records
 * exclusively until the commit (waiting for writes of them in flight) and records their
 * tombstones. `alsoLock` are locked with them (in the same sorted order) without a tombstone: a
 * merge's target, which rows are moved to. Call it before touching any row.
 */
export async function buryForeignRecords(
  tx: RawSql,
  tenantId: string,
  kind: ForeignKind,
  ids: readonly string[],
  alsoLock: readonly string[] = [],
): Promise<void> {
  const unique = distinctLower(ids);
  const locked = distinctLower([...unique, ...alsoLock]);
  if (!locked.length) return;
  const keys = [foreignBulkLockKey(tenantId, kind), ...sortedKeys(tenantId, kind, locked)];
  await tx.$queryRaw`
    SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))::int AS n
      FROM unnest(${keys}::text[]) WITH ORDINALITY AS x(k, n)`;
  if (!unique.length) return;
  await tx.$executeRaw`
    INSERT INTO "Tombstone" ("tenantId", kind, id, "deletedAt")
    SELECT ${tenantId}, ${kind}, id, now() FROM unnest(${unique}::uuid[]) AS id
    ON CONFLICT ("tenantId", kind, id) DO NOTHING`;
}

/**
 * The writer's side, first thing in the transaction that sets references to `ids`: locks them
 * shared until the commit and answers those that are tombstoned (lower case), which the caller
 * refuses as it refuses an id the owner does not know.
 */
export async function buriedForeignRecords(
  tx: RawSql,
  tenantId: string,
  kind: ForeignKind,
  ids: readonly string[],
): Promise<Set<string>> {
  const unique = distinctLower(ids);
  if (!unique.length) return new Set();
  await tx.$queryRaw`
    SELECT count(pg_advisory_xact_lock_shared(hashtextextended(k, 0)))::int AS n
      FROM unnest(${sortedKeys(tenantId, kind, unique)}::text[]) WITH ORDINALITY AS x(k, n)`;
  return tombstonedOf(tx, tenantId, kind, unique);
}

/**
 * `buriedForeignRecords` for a bulk write (many ids in one transaction): one shared lock on all
 * of the tenant's records of the kind instead of one per id (see the top of this file).
 */
export async function buriedForeignRecordsInBulk(
  tx: RawSql,
  tenantId: string,
  kind: ForeignKind,
  ids: readonly string[],
): Promise<Set<string>> {
  const unique = distinctLower(ids);
  if (!unique.length) return new Set();
  // counted: Prisma cannot read a column of type void
  await tx.$queryRaw`
    SELECT count(pg_advisory_xact_lock_shared(hashtextextended(${foreignBulkLockKey(tenantId, kind)}, 0)))::int AS n`;
  return tombstonedOf(tx, tenantId, kind, unique);
}
