import { Injectable } from '@nestjs/common';
import type { Tx } from '../database/tx';

/**
 * Called in the transaction of a settings write that changed what other services keep of events
 * (EventChangedEvent: the booking form field set id, the cancellation condition's tiers): the
 * events' `sequence` has already grown; the hook writes their `events.events.changed` snapshots
 * to the outbox.
 */
export type EventsChangedHook = (tx: Tx, tenantId: string, eventIds: string[]) => Promise<void>;

/**
 * Where the events domain plugs in its snapshot writer (EventSettingsLookup.onEventsChanged), so
 * the settings never depend on the events domain. Until one is registered, nothing is announced.
 */
@Injectable()
export class EventsChangedNotifier {
  private hook: EventsChangedHook | null = null;

  register(hook: EventsChangedHook): void {
    this.hook = hook;
  }

  async changed(tx: Tx, tenantId: string, eventIds: string[]): Promise<void> {
    if (eventIds.length && this.hook) await this.hook(tx, tenantId, eventIds);
  }
}
