import { Injectable, Logger } from '@nestjs/common';
import {
  ConsumeEvent,
  EventContext,
  PeopleDeletedEvent,
  PeopleMergedEvent,
  Subjects,
} from '@crm/messaging';
import { ManagedByRepository } from './managed-by.repository';
import { TombstonesRepository } from './tombstones.repository';
import type { Tx } from '../database/tx';

/**
 * Keeps managed-by relations in step with crm-people. Each handler runs in the transaction that
 * records the event as applied (an event is applied once, also after a redelivery), and first
 * locks and tombstones the people gone: a relation write that confirmed one of them over NATS
 * either commits before (and is removed or moved here) or finds the tombstone and is refused as
 * for an unknown person. One event per transaction: in a batch, rows an earlier event changed
 * would be held while waiting for the lock of a later one, which a write holding that lock may
 * be waiting for (a deadlock).
 */
@Injectable()
export class ManagedByEvents {
  private readonly logger = new Logger(ManagedByEvents.name);

  constructor(
    private readonly repo: ManagedByRepository,
    private readonly tombstones: TombstonesRepository,
  ) {}

  /** P6, P10: a deleted person manages nothing any more. */
  @ConsumeEvent(Subjects.crmPeople.peopleDeleted, PeopleDeletedEvent, { maxBatch: 1 })
  async onPeopleDeleted(event: PeopleDeletedEvent, { tx }: EventContext<Tx>): Promise<void> {
    await this.tombstones.buryPeople(tx, event.tenantId, event.personIds);
    const removed = await this.repo.deleteOfPeople(tx, event.tenantId, event.personIds);
    if (removed)
      this.logger.log(`people deleted in ${event.tenantId}: ${removed} relation(s) removed`);
  }

  /**
   * P20: the sources' relations move to the target; repeats of the target's own are dropped. A
   * write naming a source is refused from now on, as crm-people's check refuses it after the
   * merge (it is not redirected). The target is locked too: if its deletion was applied first
   * (the two subjects are consumed apart), the sources' relations are removed instead of moved.
   */
  @ConsumeEvent(Subjects.crmPeople.peopleMerged, PeopleMergedEvent, { maxBatch: 1 })
  async onPeopleMerged(event: PeopleMergedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const target = event.targetId.toLowerCase();
    const sources = event.sourceIds.map((id) => id.toLowerCase()).filter((id) => id !== target);
    if (!sources.length) return;
    await this.tombstones.buryPeople(tx, event.tenantId, sources, target);
    if ((await this.tombstones.deletedPeople(tx, event.tenantId, [target])).size) {
      const removed = await this.repo.deleteOfPeople(tx, event.tenantId, sources);
      if (removed) {
        this.logger.log(
          `people merged in ${event.tenantId} into a deleted person: ${removed} relation(s) removed`,
        );
      }
      return;
    }
    const done = await this.repo.mergePeople(tx, event.tenantId, target, sources);
    if (done.moved || done.dropped) {
      this.logger.log(
        `people merged in ${event.tenantId}: ${done.moved} relation(s) moved, ${done.dropped} dropped as repeats`,
      );
    }
  }
}
