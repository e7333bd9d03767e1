import { Logger } from '@nestjs/common';
import { headers as natsHeaders } from 'nats';
import { inSpan, traceHeaders } from '@crm/telemetry';
import { TENANT_HEADER } from '../message-context';
import { acrossTenants } from '@crm/request-context';
import { backoffMs } from './backoff';
import { CommitWakeup } from './commit-wakeup';
import { JetStreamConnection } from './jetstream-connection';
import { OUTBOX_CHANNEL, OUTBOX_TABLE, OutboxDb, OutboxTx, PROCESSED_TABLE } from './outbox-db';

export interface OutboxRelayOptions {
  service: string;
  db: OutboxDb;
  /** When given, the relay LISTENs here and wakes as soon as a writer's transaction commits. */
  databaseUrl?: string;
  /** Poll interval when nothing notifies (rows written without addOutboxEvent, other replicas). */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Per publish; the batch's rows stay locked meanwhile. */
  publishTimeoutMs?: number;
  /** Backoff of a failing row: base, doubling per attempt, up to max. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Published rows are kept this long (for operators), then deleted. Default 7 days. */
  publishedRetentionMs?: number;
  /**
   * Applied event ids are kept this long, then deleted. Must exceed the stream's max age (14
   * days): an event older than that cannot be delivered again. Default 30 days.
   */
  processedRetentionMs?: number;
}

const DAY = 24 * 60 * 60 * 1000;
/** How often the loop prunes old rows (the tables would otherwise grow forever). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

interface Row {
  id: string;
  tenantId: string;
  subject: string;
  payload: string;
  attempts: number;
  /**
   * The request that wrote the event (X-Request-Id, tenant) and its trace context (null when
   * written outside a request without tracing).
   */
  headers: Record<string, string> | null;
}

/** Errors of the connection (not of the message): every row would fail the same way. */
function isTransportError(r: PromiseSettledResult<void>): boolean {
  if (r.status === 'fulfilled') return false;
  const code = (r.reason as { code?: string })?.code;
  return ['TIMEOUT', 'CONNECTION_CLOSED', 'DISCONNECT', 'CONNECTION_DRAINING'].includes(code ?? '');
}

/**
 * Publishes the outbox table to JetStream: at least once, in creation order, `Nats-Msg-Id` = event
 * id so the stream drops a repeat within its duplicate window. Rows of a batch are locked
 * (FOR UPDATE SKIP LOCKED) while they are published, so replicas never publish a row concurrently.
 * A failing row records attempts and lastError and waits (1 s, 2 s, 4 s ... 60 s) while later rows
 * go on; while NATS is disconnected nothing is tried, and the reconnection wakes the relay.
 */
/** The relay publishes, counts and prunes the events of every tenant: one table, one order. */
const RELAY_SCOPE = 'outbox relay';

export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly publishTimeoutMs: number;
  /** Rows that failed on their own (not a lost connection): id -> time of the next attempt. */
  private readonly retryAt = new Map<string, number>();
  /** Counters since start (for tests and logs): accepted as new, dropped as duplicate, failed. */
  readonly stats = { published: 0, duplicates: 0, failed: 0 };
  /** Batches in a row that failed for the connection's sake: the relay as a whole backs off. */
  private failedBatches = 0;
  private running = false;
  private readonly wakeup: CommitWakeup;
  private loopDone: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastPrune = 0;

  constructor(
    private readonly conn: JetStreamConnection,
    private readonly options: OutboxRelayOptions,
  ) {
    this.pollMs = options.pollIntervalMs ?? 1000;
    this.batchSize = options.batchSize ?? 100;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 3000;
    this.wakeup = new CommitWakeup(OUTBOX_CHANNEL, options.databaseUrl);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.conn.onReady(() => {
      this.failedBatches = 0;
      this.wake();
    });
    void this.conn.open().catch((err) => this.logger.error(`NATS: ${(err as Error).message}`));
    this.wakeup.start();
    this.loopDone = this.loop();
  }

  /**
   * What waits to be published: the rows not yet published and the age of the oldest (metrics:
   * a backlog that grows or ages says NATS or the relay is stuck).
   */
  async backlog(): Promise<{ pending: number; oldestSeconds: number }> {
    // "dateCreated" is a timestamp without zone written as CURRENT_TIMESTAMP: compared with
    // localtimestamp of the same session zone
    const [row] = await acrossTenants(RELAY_SCOPE, () =>
      this.options.db.$queryRawUnsafe<{ pending: bigint; oldest: number }[]>(
        `SELECT count(*) AS pending,
                COALESCE(EXTRACT(EPOCH FROM (localtimestamp - min("dateCreated"))), 0)::float8 AS oldest
           FROM ${OUTBOX_TABLE} WHERE "publishedAt" IS NULL`,
      ),
    );
    return { pending: Number(row?.pending ?? 0), oldestSeconds: Math.max(0, row?.oldest ?? 0) };
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wake();
    await this.loopDone;
    await this.wakeup.stop();
  }

  /** Look at the table now instead of at the next poll. */
  wake(): void {
    this.wakeup.wake();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let more = false;
      try {
        if (this.conn.ready) more = await this.publishBatch();
      } catch (err) {
        this.failedBatches++;
        this.logger.warn(`outbox relay: ${(err as Error).message}`);
      }
      if (more) continue;
      if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        await this.prune().catch((err) =>
          this.logger.warn(`outbox prune: ${(err as Error).message}`),
        );
      }
      await this.wakeup.sleep(
        this.failedBatches ? backoffMs(this.failedBatches, 500, 30_000) : this.pollMs,
      );
    }
  }

  /**
   * One batch in one transaction. Returns true when the batch was full (more may be waiting).
   * Exposed for tests and tools; the loop calls it.
   */
  async publishBatch(): Promise<boolean> {
    const now = Date.now();
    for (const [id, at] of this.retryAt) if (at <= now) this.retryAt.delete(id);
    const waiting = [...this.retryAt.keys()];
    return acrossTenants(RELAY_SCOPE, () => this.publishBatchIn(waiting));
  }

  private async publishBatchIn(waiting: string[]): Promise<boolean> {
    return this.options.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRawUnsafe<Row[]>(
          `SELECT "id"::text AS "id", "tenantId", "subject", "payload"::text AS "payload", "attempts",
                  "headers"
             FROM ${OUTBOX_TABLE}
            WHERE "publishedAt" IS NULL AND NOT ("id" = ANY($1::uuid[]))
            ORDER BY "dateCreated", "id"
            LIMIT $2
            FOR UPDATE SKIP LOCKED`,
          waiting,
          this.batchSize,
        );
        if (!rows.length) return false;
        const results = await Promise.allSettled(rows.map((r) => this.publish(r)));
        const sent = rows.filter((_, i) => results[i].status === 'fulfilled').map((r) => r.id);
        if (sent.length) {
          await tx.$executeRawUnsafe(
            `UPDATE ${OUTBOX_TABLE} SET "publishedAt" = now() WHERE "id" = ANY($1::uuid[])`,
            sent,
          );
          sent.forEach((id) => this.retryAt.delete(id));
        }
        const transport = await this.recordFailures(tx, rows, results);
        this.failedBatches = transport ? this.failedBatches + 1 : 0;
        // A full batch: more may be waiting (failed rows are skipped while they wait).
        return rows.length === this.batchSize && !transport;
      },
      { timeout: this.publishTimeoutMs * 2 + 10_000, maxWait: 10_000 },
    );
  }

  /** Deletes published rows and applied event ids past their retention; returns the counts. */
  async prune(now = new Date()): Promise<{ published: number; processed: number }> {
    return acrossTenants(RELAY_SCOPE, () => this.pruneNow(now));
  }

  private async pruneNow(now: Date): Promise<{ published: number; processed: number }> {
    const published = await this.options.db.$executeRawUnsafe(
      `DELETE FROM ${OUTBOX_TABLE} WHERE "publishedAt" < $1`,
      new Date(now.getTime() - (this.options.publishedRetentionMs ?? 7 * DAY)),
    );
    const processed = await this.options.db.$executeRawUnsafe(
      `DELETE FROM ${PROCESSED_TABLE} WHERE "dateProcessed" < $1`,
      new Date(now.getTime() - (this.options.processedRetentionMs ?? 30 * DAY)),
    );
    return { published, processed };
  }

  /**
   * Publishes a row in a span of the trace that wrote it (the row's headers): the message
   * carries the row's headers on to its consumers (the request id; the traceparent, replaced by
   * this span's when tracing is on) and the event's tenant.
   */
  private publish(row: Row): Promise<void> {
    const attributes = {
      'messaging.system': 'nats',
      'messaging.destination.name': row.subject,
      'messaging.message.id': row.id,
      'crm.tenant': row.tenantId,
    };
    return inSpan(`publish ${row.subject}`, 'producer', row.headers, attributes, async () => {
      const h = natsHeaders();
      const carried = { ...row.headers, ...traceHeaders(), [TENANT_HEADER]: row.tenantId };
      for (const [name, value] of Object.entries(carried)) h.set(name, value);
      const ack = await this.conn.js.publish(row.subject, row.payload, {
        msgID: row.id,
        headers: h,
        timeout: this.publishTimeoutMs,
      });
      if (ack.duplicate) {
        this.stats.duplicates++;
        this.logger.debug(`event ${row.id} was already in the stream`);
      } else {
        this.stats.published++;
      }
    });
  }

  private async recordFailures(
    tx: OutboxTx,
    rows: Row[],
    results: PromiseSettledResult<void>[],
  ): Promise<boolean> {
    // A lost connection is not the row's fault: the reconnection retries it, no per-row wait.
    const connectionLost = !this.conn.ready || results.some((r) => isTransportError(r));
    for (let i = 0; i < rows.length; i++) {
      const r = results[i];
      if (r.status === 'fulfilled') continue;
      const message = (r.reason as Error)?.message ?? String(r.reason);
      const attempts = rows[i].attempts + 1;
      this.stats.failed++;
      await tx.$executeRawUnsafe(
        `UPDATE ${OUTBOX_TABLE} SET "attempts" = "attempts" + 1, "lastError" = $2
          WHERE "id" = $1::uuid`,
        rows[i].id,
        message.slice(0, 2000),
      );
      if (!connectionLost) {
        this.retryAt.set(
          rows[i].id,
          Date.now() + backoffMs(attempts, this.options.retryBaseMs, this.options.retryMaxMs),
        );
      }
      this.logger.warn(`event ${rows[i].id} (${rows[i].subject}) not published: ${message}`);
    }
    return connectionLost && results.some((r) => r.status === 'rejected');
  }
}
