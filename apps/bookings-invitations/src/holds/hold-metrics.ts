import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
import { acrossTenants } from '@crm/request-context';
import { HoldsRepository } from './holds.repository';

/** Seats held while buyers fill in their forms (an on-sale's holds; they expire by themselves). */
@Injectable()
export class HoldMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly holds: HoldsRepository,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('holds_open', 'Seat holds still active (all tenants)', () =>
      acrossTenants('gauge of open holds over all tenants', async () => this.holds.countActive()),
    );
  }
}
