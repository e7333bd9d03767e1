import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventSettingsLookup } from '../event-settings/event-settings-lookup.service';
import { addChanged } from './event-outbox';
import { EventsRepository } from './events.repository';

/**
 * A settings write that changes what other services keep of events (a cancellation condition's
 * tiers, a booking form field set or condition removed by force) announces those events again:
 * `events.events.changed` per event, in that write's transaction, after the settings raised
 * their sequence. Registered here so the settings never depend on the events domain.
 */
@Injectable()
export class EventSnapshotsOnSettingsChange implements OnModuleInit {
  constructor(
    private readonly repo: EventsRepository,
    private readonly lookup: EventSettingsLookup,
  ) {}

  onModuleInit(): void {
    this.lookup.onEventsChanged(async (tx, tenantId, eventIds) => {
      const tiersOf = new Map<string, Promise<unknown[] | null>>();
      for (const r of await this.repo.findByIds(tenantId, eventIds, tx)) {
        const conditionId = r.cancellationConditionId;
        if (conditionId && !tiersOf.has(conditionId))
          // the events of one write share a condition: its tiers are read once, in the write
          tiersOf.set(conditionId, this.lookup.cancellationTiers(tenantId, conditionId, tx));
        await addChanged(tx, r, conditionId ? await tiersOf.get(conditionId)! : null);
      }
    });
  }
}
