import { Injectable, Logger } from '@nestjs/common';
import {
  ConsumeEvent,
  EventContext,
  PeopleDeletedEvent,
  PeopleMergedEvent,
  Subjects,
} from '@crm/messaging';
import { ManagedByRepository, Tx } from './managed-by.repository';

/**
 * Keeps managed-by relations in step with crm-people. Each handler runs in the transaction that
 * records the event as applied (an event is applied once, also after a redelivery).
 */
@Injectable()
export class ManagedByEvents {
  private readonly logger = new Logger(ManagedByEvents.name);

  constructor(private readonly repo: ManagedByRepository) {}

  /** P6, P10: a deleted person manages nothing any more. */
  @ConsumeEvent(Subjects.crmPeople.peopleDeleted, PeopleDeletedEvent)
  async onPeopleDeleted(event: PeopleDeletedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const removed = await this.repo.deleteOfPeople(tx, event.tenantId, event.personIds);
    if (removed)
      this.logger.log(`people deleted in ${event.tenantId}: ${removed} relation(s) removed`);
  }

  /** P20: the sources' relations move to the target; repeats of the target's own are dropped. */
  @ConsumeEvent(Subjects.crmPeople.peopleMerged, PeopleMergedEvent)
  async onPeopleMerged(event: PeopleMergedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const target = event.targetId.toLowerCase();
    const sources = event.sourceIds.map((id) => id.toLowerCase()).filter((id) => id !== target);
    if (!sources.length) return;
    const done = await this.repo.mergePeople(tx, event.tenantId, target, sources);
    if (done.moved || done.dropped) {
      this.logger.log(
        `people merged in ${event.tenantId}: ${done.moved} relation(s) moved, ${done.dropped} dropped as repeats`,
      );
    }
  }
}
