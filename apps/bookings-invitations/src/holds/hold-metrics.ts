import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
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
      this.holds.countActive(),
    );
  }
}
