import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventSettingsLookup } from '../event-settings/event-settings-lookup.service';
import { addChanged } from './event-outbox';
import { EventsRepository } from './events.repository';

/**
 * A settings write that changes what other services keep of events (a cancellation condition's
 * tiers, a booking form field set's fields, a field set or condition removed by force) announces those events again:
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
      // the events of one write share a condition or field set: each is read once, in the write
      const tiersOf = new Map<string, Promise<unknown[] | null>>();
      const fieldsOf = new Map<string, Promise<unknown[] | null>>();
      const once = (
        cache: Map<string, Promise<unknown[] | null>>,
        id: string | null,
        read: (id: string) => Promise<unknown[] | null>,
      ) => {
        if (!id) return Promise.resolve(null);
        if (!cache.has(id)) cache.set(id, read(id));
        return cache.get(id)!;
      };
      for (const r of await this.repo.findByIds(tenantId, eventIds, tx)) {
        await addChanged(tx, r, {
          cancellationTiers: await once(tiersOf, r.cancellationConditionId, (id) =>
            this.lookup.cancellationTiers(tenantId, id, tx),
          ),
          bookingFormFields: await once(fieldsOf, r.bookingFormFieldSetId, (id) =>
            this.lookup.bookingFormFields(tenantId, id, tx),
          ),
        });
      }
    });
  }
}
