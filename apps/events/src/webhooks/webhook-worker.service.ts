import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { inMessageContext } from '@crm/messaging';
import { acrossTenants, asTenant } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { EventsConfig } from '../config';
import { nextAttemptAt, parseSchedule } from './webhook-rules';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSender } from './webhook-sender';
import type { Tx } from '../database/tx';
import { AttemptRecord, ClaimedDelivery, WebhooksRepository } from './webhooks.repository';

const PRUNE_EVERY_MS = 3_600_000;

/**
 * Sends due webhook deliveries; every replica runs one. A round claims a small batch in one
 * statement (`FOR UPDATE SKIP LOCKED`, then the claim pushes `nextAttemptAt` past the send
 * timeout), so two replicas never send the same attempt at once and no transaction stays open
 * during HTTP. The claim is the only statement across tenants; each tenant's results are written
 * as that tenant, with their attempt log rows, in one transaction; the retry schedule, 410 Gone
 * and the failing-for-days rule decide what follows.
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
    private readonly repo: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    @Inject(SERVICE_CONFIG) private readonly config: EventsConfig,
  ) {
    this.schedule = parseSchedule(config.WEBHOOK_RETRY_SCHEDULE_S);
    this.sender = new WebhookSender({
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    });
  }

  /** Sends from `worker` and `all` processes; an `api` process leaves it to its worker. */
  onApplicationBootstrap(): void {
    if (this.config.PROCESS_ROLE === 'api') return;
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
      // retention is one rule for every tenant's messages
      const n = await acrossTenants(
        'webhook retention over every tenant',
        async () => await this.repo.pruneMessages(cutoff),
      );
      total += n;
      if (n < 1000 || this.stopped) return total;
    }
  }

  /**
   * One round: claims due deliveries (with their endpoints and messages, one statement), sends
   * them side by side, then records every result in one transaction. Returns how many.
   */
  async runOnce(): Promise<number> {
    const now = new Date();
    const lease = new Date(
      now.getTime() + this.config.WEBHOOK_TIMEOUT_MS + this.config.WEBHOOK_LEASE_MARGIN_MS,
    );
    // one queue for every tenant: a round takes the due deliveries whoever they belong to
    const claimed = await acrossTenants(
      'webhook worker claims due deliveries',
      async () => await this.repo.claimDue(now, lease, this.config.WEBHOOK_WORKER_BATCH_SIZE),
    );
    if (!claimed.length) return 0;
    const sent = await Promise.all(claimed.map((c) => this.send(c)));
    const results = sent.filter((r): r is AttemptRecord => r !== null);
    // Each tenant's results as that tenant. Not recorded (the database is away): the lease runs
    // out and they are sent again, which receivers dedupe by webhook-id.
    await Promise.all(
      [...byTenant(results)].map(([tenantId, theirs]) =>
        asTenant(tenantId, () => this.record(theirs)).catch((err: Error) =>
          this.logger.error(
            `webhook round of ${claimed.length}: ${theirs.length} result(s) of tenant ${tenantId} not recorded: ${err.message}`,
          ),
        ),
      ),
    );
    return claimed.length;
  }

  /**
   * Sends one delivery as part of the request that caused its message: the lines about it carry
   * that request's id (the delivery's id when it names none) and, with tracing on, it is a span
   * of its trace.
   */
  private send(c: ClaimedDelivery): Promise<AttemptRecord | null> {
    const span = { name: 'send webhook', kind: 'client' as const };
    return inMessageContext(span, c.headers, () => this.sendNow(c), c.id);
  }

  /**
   * One attempt; null (nothing sent, nothing recorded) when the endpoint's stored secret cannot
   * be opened (a key id SECRETS_KEY lacks): the lease runs out and it is tried again, so a
   * SECRETS_KEY fixed meanwhile loses nothing, and the endpoint does not count it as its failure.
   */
  private async sendNow(c: ClaimedDelivery): Promise<AttemptRecord | null> {
    const now = new Date();
    const overlap =
      c.previousSecret && c.previousSecretExpiresAt && new Date(c.previousSecretExpiresAt) > now;
    let secret: string;
    let previousSecret: string | null;
    try {
      secret = this.secrets.open(c.secret);
      previousSecret = overlap ? this.secrets.open(c.previousSecret!) : null;
    } catch (err) {
      this.logger.error(
        `webhook delivery ${c.id}: the secret of endpoint ${c.endpointId} cannot be opened (${(err as Error).message}); not sent`,
      );
      return null;
    }
    const r = await this.sender.send(
      { id: c.messageId, url: c.url, body: JSON.stringify(c.payload), secret, previousSecret },
      now,
    );
    const attempts = c.attempts + 1;
    const next = r.succeeded || r.gone ? null : nextAttemptAt(this.schedule, attempts, now);
    this.logger.debug(
      `webhook delivery ${c.id} (attempt ${attempts}): ${r.responseCode ?? r.error ?? 'no answer'}`,
    );
    return {
      delivery: c,
      attemptedAt: now,
      responseCode: r.responseCode,
      durationMs: r.durationMs,
      error: r.error,
      status: r.succeeded ? 'succeeded' : next ? 'pending' : 'failed',
      nextAttemptAt: next,
      gone: r.gone,
    };
  }

  /**
   * One tenant's attempt rows and deliveries of the round, then its endpoints: one that had a success in the
   * round is not failing; one that answered 410 Gone is disabled; one that only failed starts
   * or continues its run of failures (disabled after WEBHOOK_DISABLE_AFTER_FAILING_S).
   */
  private async record(results: AttemptRecord[]): Promise<void> {
    const byEndpoint = new Map<string, { ok: boolean; gone: boolean }>();
    for (const r of results) {
      const e = byEndpoint.get(r.delivery.endpointId) ?? { ok: false, gone: false };
      e.ok ||= r.status === 'succeeded';
      e.gone ||= r.gone;
      byEndpoint.set(r.delivery.endpointId, e);
    }
    const now = new Date();
    await this.repo.transaction(async (tx) => {
      await this.repo.recordAttempts(tx, results);
      const ok = [...byEndpoint].filter(([, e]) => e.ok && !e.gone).map(([id]) => id);
      if (ok.length) await this.repo.endFailing(tx, ok);
      for (const [id, e] of byEndpoint) {
        if (e.gone) {
          this.logger.warn(`webhook endpoint ${id} answered 410 Gone: disabled`);
          const reason = `The receiver answered 410 Gone at ${now.toISOString()}`;
          await this.repo.disableEndpoint(tx, id, now, reason, now);
        } else if (!e.ok) await this.failing(tx, id, now);
      }
    });
  }

  /** Starts or continues the endpoint's run of failures; disables it after the configured time. */
  private async failing(tx: Tx, endpointId: string, now: Date): Promise<void> {
    const since = await this.repo.markFailing(tx, endpointId, now);
    if (!since) return;
    const limitMs = this.config.WEBHOOK_DISABLE_AFTER_FAILING_S * 1000;
    if (now.getTime() - since.getTime() < limitMs) return;
    this.logger.warn(
      `webhook endpoint ${endpointId} failing since ${since.toISOString()}: disabled`,
    );
    await this.repo.disableEndpoint(
      tx,
      endpointId,
      now,
      `Every delivery has failed since ${since.toISOString()} ` +
        `(no success for ${Math.round(limitMs / 3_600_000)} h)`,
    );
  }
}

/** A round's results by the tenant of their delivery. */
function byTenant(results: AttemptRecord[]): Map<string, AttemptRecord[]> {
  const groups = new Map<string, AttemptRecord[]>();
  for (const r of results) {
    const group = groups.get(r.delivery.tenantId);
    if (group) group.push(r);
    else groups.set(r.delivery.tenantId, [r]);
  }
  return groups;
}
