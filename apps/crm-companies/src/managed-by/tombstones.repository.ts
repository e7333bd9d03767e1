import { Injectable } from '@nestjs/common';
import { buriedForeignRecords, buryForeignRecords } from '@crm/persistence';
import type { Tx } from '../database/tx';

/**
 * Tombstones of crm-people's deleted and merged-away people (table Tombstone, kind person): how
 * a managed-by write that confirmed its people over NATS learns, in its transaction, that their
 * deletion or merge was applied meanwhile (see @crm/persistence foreign-references.ts).
 */
@Injectable()
export class TombstonesRepository {
  /**
   * people.deleted, people.merged: locks the people (and a merge's target, not buried) against
   * writes and other consumers in flight, then records the people gone.
   */
  buryPeople(tx: Tx, tenantId: string, personIds: string[], target?: string): Promise<void> {
    return buryForeignRecords(tx, tenantId, 'person', personIds, target ? [target] : []);
  }

  /**
   * First statement of a write that points relations at `personIds`: holds the people against
   * their deletion's or merge's consumer until the commit; answers those gone already (lower
   * case). In a transaction that buried them itself it reads without waiting.
   */
  deletedPeople(tx: Tx, tenantId: string, personIds: string[]): Promise<Set<string>> {
    return buriedForeignRecords(tx, tenantId, 'person', personIds);
  }
}
