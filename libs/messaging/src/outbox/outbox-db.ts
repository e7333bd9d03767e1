/**
 * The part of a database client the outbox needs. Every generated PrismaClient (and its
 * transaction client) satisfies it, so this library never imports an app's generated client;
 * tests can satisfy it with a few lines over `pg`. Placeholders are PostgreSQL's `$1, $2, ...`.
 */
export interface OutboxTx {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

export interface OutboxDb extends OutboxTx {
  $transaction<R>(
    fn: (tx: OutboxTx) => Promise<R>,
    options?: { maxWait?: number; timeout?: number },
  ): PromiseLike<R>;
}

/** Fixed table names: every service's schema has these two tables with the same shape. */
export const OUTBOX_TABLE = '"OutboxEvent"';
export const PROCESSED_TABLE = '"ProcessedEvent"';

/** PostgreSQL channel the writer notifies on commit, so the relay wakes at once. */
export const OUTBOX_CHANNEL = 'crm_outbox';

/**
 * The two tables as SQL, for tests and tools that create a scratch database without a service's
 * migrations. Must match the `OutboxEvent` and `ProcessedEvent` models of every schema.
 */
export const OUTBOX_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS "OutboxEvent" (
  "id" UUID PRIMARY KEY,
  "tenantId" TEXT NOT NULL,
  "subject" VARCHAR(200) NOT NULL,
  "payload" JSONB NOT NULL,
  "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "publishedAt" TIMESTAMP(3),
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "lastError" TEXT,
  "headers" JSONB
);
CREATE INDEX IF NOT EXISTS "OutboxEvent_publishedAt_dateCreated_idx"
  ON "OutboxEvent" ("publishedAt", "dateCreated");
CREATE TABLE IF NOT EXISTS "ProcessedEvent" (
  "id" UUID PRIMARY KEY,
  "subject" VARCHAR(200) NOT NULL,
  "dateProcessed" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);`;
