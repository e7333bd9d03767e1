import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { acrossTenants } from '@crm/request-context';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** How long a public booking's Idempotency-Key answers a retry (documented on BK1). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Purges Idempotency-Key rows older than 24 hours, hourly, on every replica (a DELETE by age:
 * running it twice at once is harmless). A retry after that makes a new booking.
 */
@Injectable()
export class IdempotencyKeyPurge implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyKeyPurge.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly keys: IdempotencyKeysRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.purge().catch((err) => this.logger.warn(`purge failed: ${(err as Error).message}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Deletes the expired keys; how many. Across tenants: a purge by age of every tenant's keys. */
  purge(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_HOURS * 3600_000);
    return acrossTenants('purge of expired Idempotency-Keys', async () =>
      this.keys.deleteOlderThan(before),
    );
  }
}
