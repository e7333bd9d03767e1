import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { EventsConfig } from '../config';
import { PrismaService } from '../database/prisma.service';
import { nextAttemptAt, parseSchedule } from './webhook-rules';
import { AttemptResult, WebhookSender } from './webhook-sender';

interface Claimed {
  id: string;
  tenantId: string;
  endpointId: string;
  messageId: string;
  attempts: number;
}

const ts = (d: Date) => d.toISOString();
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Sends due webhook deliveries; every replica runs one. A round claims a small batch in one
 * statement (`FOR UPDATE SKIP LOCKED`, then the claim pushes `nextAttemptAt` past the send
 * timeout), so two replicas never send the same attempt at once and no transaction stays open
 * during HTTP. Each result is written with its attempt log row in one transaction; the retry
 * schedule, 410 Gone and the failing-for-days rule decide what follows.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookWorker.name);
  private readonly schedule: number[];
  private readonly sender: WebhookSender;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private stopping: Promise<void> | null = null;
  private prunedAt = 0;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(SERVICE_CONFIG) private readonly config: EventsConfig,
  ) {
    this.schedule = parseSchedule(config.WEBHOOK_RETRY_SCHEDULE_S);
    this.sender = new WebhookSender({
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    });
  }

  onApplicationBootstrap(): void {
    this.plan(this.config.WEBHOOK_WORKER_POLL_MS);
  }

  /** Stops polling and waits for the round in flight (at most one send timeout). Idempotent. */
  onApplicationShutdown(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      if (this.timer) clearTimeout(this.timer);
      await this.running;
      await this.sender.close();
    })();
    return this.stopping;
  }

  private plan(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => (this.running = null));
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    let full = false;
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.prune().catch((err: Error) =>
        this.logger.warn(`webhook retention failed: ${err.message}`),
      );
    }
    try {
      full = (await this.runOnce()) >= this.config.WEBHOOK_WORKER_BATCH_SIZE;
    } catch (err) {
      this.logger.warn(`webhook round failed: ${(err as Error).message}`);
    }
    // A full batch: more may be due, go on at once.
    this.plan(full ? 0 : this.config.WEBHOOK_WORKER_POLL_MS);
  }

  /**
   * Deletes messages older than WEBHOOK_RETENTION_DAYS that no pending delivery needs (their
   * deliveries and attempts go by cascade), in bounded batches. Replicas may run it at once.
   */
  async prune(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.WEBHOOK_RETENTION_DAYS * 86_400_000);
    let total = 0;
    for (;;) {
      const n = await this.prisma.$executeRaw`
        DELETE FROM "WebhookMessage" WHERE id IN (
          SELECT m.id FROM "WebhookMessage" m
          WHERE m."dateCreated" < ${ts(cutoff)}::timestamp(3)
            AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d
                            WHERE d."messageId" = m.id AND d.status = 'pending')
          LIMIT 1000)`;
      total += n;
      if (n < 1000 || this.stopped) return total;
    }
  }

  /** One round: claims due deliveries, sends them side by side, records. Returns how many. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    if (!claimed.length) return 0;
    const [endpoints, messages] = await Promise.all([
      this.prisma.webhookEndpoint.findMany({
        where: { id: { in: [...new Set(claimed.map((c) => c.endpointId))] } },
      }),
      this.prisma.webhookMessage.findMany({
        where: { id: { in: [...new Set(claimed.map((c) => c.messageId))] } },
      }),
    ]);
    const endpointById = new Map(endpoints.map((e) => [e.id, e]));
    const messageById = new Map(messages.map((m) => [m.id, m]));
    await Promise.all(
      claimed.map(async (c) => {
        const endpoint = endpointById.get(c.endpointId);
        const message = messageById.get(c.messageId);
        if (!endpoint || !message) return; // removed meanwhile (cascade)
        const now = new Date();
        const overlap =
          endpoint.previousSecret &&
          endpoint.previousSecretExpiresAt &&
          endpoint.previousSecretExpiresAt > now;
        const result = await this.sender.send(
          {
            id: message.id,
            url: endpoint.url,
            body: JSON.stringify(message.payload),
            secret: endpoint.secret,
            previousSecret: overlap ? endpoint.previousSecret : null,
          },
          now,
        );
        await this.record(c, result).catch((err: Error) =>
          this.logger.error(`webhook delivery ${c.id}: result not recorded: ${err.message}`),
        );
      }),
    );
    return claimed.length;
  }

  /** Due deliveries of enabled endpoints, locked and pushed out by the lease in one statement. */
  private claim(): Promise<Claimed[]> {
    const now = new Date();
    const lease = new Date(now.getTime() + this.config.WEBHOOK_TIMEOUT_MS + 60_000);
    return this.prisma.$queryRaw<Claimed[]>`
      UPDATE "WebhookDelivery" d SET "nextAttemptAt" = ${ts(lease)}::timestamp(3)
      FROM (
        SELECT d2.id FROM "WebhookDelivery" d2
        JOIN "WebhookEndpoint" e ON e.id = d2."endpointId" AND e.enabled
        WHERE d2.status = 'pending' AND d2."nextAttemptAt" <= ${ts(now)}::timestamp(3)
        ORDER BY d2."nextAttemptAt", d2.id
        LIMIT ${this.config.WEBHOOK_WORKER_BATCH_SIZE}
        FOR UPDATE OF d2 SKIP LOCKED
      ) due
      WHERE d.id = due.id
      RETURNING d.id::text AS id, d."tenantId", d."endpointId"::text AS "endpointId",
        d."messageId"::text AS "messageId", d.attempts`;
  }

  /** The attempt's log row, the delivery's state and, on failures, the endpoint's. */
  private async record(c: Claimed, r: AttemptResult): Promise<void> {
    const now = new Date();
    const attempts = c.attempts + 1;
    const next = r.succeeded || r.gone ? null : nextAttemptAt(this.schedule, attempts, now);
    const status = r.succeeded ? 'succeeded' : next ? 'pending' : 'failed';
    await this.prisma.$transaction(async (tx) => {
      await tx.webhookAttempt.create({
        data: {
          tenantId: c.tenantId,
          deliveryId: c.id,
          attemptedAt: now,
          responseCode: r.responseCode,
          durationMs: r.durationMs,
          error: r.error,
        },
      });
      // Only the claim's own run: a redelivery (I4, I5) meanwhile started a new one.
      await tx.webhookDelivery.updateMany({
        where: { id: c.id, status: 'pending', attempts: c.attempts },
        data: {
          status,
          attempts,
          nextAttemptAt: next,
          lastResponseCode: r.responseCode,
          lastDurationMs: r.durationMs,
          lastError: r.error,
          ...(r.succeeded ? { dateDelivered: now } : {}),
        },
      });
      if (r.succeeded) {
        await tx.webhookEndpoint.updateMany({
          where: { id: c.endpointId, failingSince: { not: null } },
          data: { failingSince: null },
        });
        return;
      }
      if (r.gone) {
        this.logger.warn(`webhook endpoint ${c.endpointId} answered 410 Gone: disabled`);
        await tx.webhookEndpoint.updateMany({
          where: { id: c.endpointId, enabled: true },
          data: {
            enabled: false,
            disabledAt: now,
            disabledReason: `The receiver answered 410 Gone at ${now.toISOString()}`,
            failingSince: now,
          },
        });
        return;
      }
      await this.failing(tx, c.endpointId, now);
    });
  }

  /** Starts or continues the endpoint's run of failures; disables it after the configured time. */
  private async failing(
    tx: Parameters<Parameters<PrismaService['$transaction']>[0]>[0],
    endpointId: string,
    now: Date,
  ): Promise<void> {
    const rows = await tx.$queryRaw<{ failingSince: Date }[]>`
      UPDATE "WebhookEndpoint" SET "failingSince" = coalesce("failingSince", ${ts(now)}::timestamp(3))
      WHERE id = ${endpointId}::uuid RETURNING "failingSince"`;
    if (!rows[0]?.failingSince) return;
    const since = new Date(rows[0].failingSince);
    const limitMs = this.config.WEBHOOK_DISABLE_AFTER_FAILING_S * 1000;
    if (now.getTime() - since.getTime() < limitMs) return;
    this.logger.warn(
      `webhook endpoint ${endpointId} failing since ${since.toISOString()}: disabled`,
    );
    await tx.webhookEndpoint.updateMany({
      where: { id: endpointId, enabled: true },
      data: {
        enabled: false,
        disabledAt: now,
        disabledReason:
          `Every delivery has failed since ${since.toISOString()} ` +
          `(no success for ${Math.round(limitMs / 3_600_000)} h)`,
      },
    });
  }
}
