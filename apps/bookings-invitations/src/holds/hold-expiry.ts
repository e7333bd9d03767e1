import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { acrossTenants } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { CapacityRepository } from '../capacity/capacity.repository';
import { SweepLoop } from '../common/sweep-loop';
import type { BookingsInvitationsConfig } from '../config';
import { HoldRow, HoldsRepository } from './holds.repository';

/** Holds expired per transaction. */
const EXPIRE_BATCH = 200;

/**
 * Puts expired holds back on sale: every SALE_SWEEP_INTERVAL_MS (half a second) each replica
 * marks the active holds past their expiry as expired and takes their seats off the held
 * counters, in one transaction. No timer per hold: a hold that expired while no replica ran is
 * swept by the first one that starts. A hold a booking's batch is deciding on is skipped (its
 * lock decides: the booking takes it, or it is swept next time).
 */
@Injectable()
export class HoldExpiry implements OnModuleInit, OnModuleDestroy {
  private readonly loop: SweepLoop;

  constructor(
    private readonly holds: HoldsRepository,
    private readonly capacity: CapacityRepository,
    @Inject(SERVICE_CONFIG) config: BookingsInvitationsConfig,
  ) {
    this.loop = new SweepLoop(new Logger(HoldExpiry.name), config.SALE_SWEEP_INTERVAL_MS, () =>
      this.sweep().then((n) => n === EXPIRE_BATCH),
    );
  }

  onModuleInit(): void {
    this.loop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One sweep; how many holds expired. Across tenants: the due holds of every tenant are expired
   * with their counters in one transaction (the sweep is about them all).
   */
  sweep(): Promise<number> {
    return acrossTenants('sweep of expired seat holds', async () => this.sweepAll());
  }

  private sweepAll(): Promise<number> {
    return this.holds.transaction(async (tx) => {
      const expired = await this.holds.expireDue(tx, EXPIRE_BATCH);
      // event by event in one order: the counters' locks are taken as every writer takes them
      for (const [, holds] of [...byEvent(expired)].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const { tenantId, eventId } = holds[0];
        await this.capacity.shift(tx, tenantId, eventId, {
          held: holds.flatMap((h) => h.seats.map((s) => ({ ...s, count: -s.count }))),
        });
      }
      return expired.length;
    });
  }
}

function byEvent(holds: HoldRow[]): Map<string, HoldRow[]> {
  const groups = new Map<string, HoldRow[]>();
  for (const h of holds) {
    const key = `${h.tenantId}/${h.eventId}`;
    const group = groups.get(key);
    if (group) group.push(h);
    else groups.set(key, [h]);
  }
  return groups;
}
