import { Injectable } from '@nestjs/common';
import { buriedForeignRecords, buryForeignRecords } from '@crm/persistence';
import type { Tx } from '../database/tx';

/**
 * Tombstones of crm-companies' deleted companies (table Tombstone, kind company): how a card or
 * touchpoint write that confirmed its company over NATS learns, in its transaction, that the
 * company's deletion was applied meanwhile (see @crm/persistence foreign-references.ts).
 */
@Injectable()
export class TombstonesRepository {
  /** companies.deleted: locks the companies against writes in flight, then records them. */
  buryCompanies(tx: Tx, tenantId: string, companyIds: string[]): Promise<void> {
    return buryForeignRecords(tx, tenantId, 'company', companyIds);
  }

  /**
   * First statement of a write that points rows at `companyId` (null: nothing to do): holds the
   * company against its deletion's consumer until the commit; true when it is deleted already.
   */
  async companyDeleted(tx: Tx, tenantId: string, companyId: string | null): Promise<boolean> {
    if (!companyId) return false;
    return (await buriedForeignRecords(tx, tenantId, 'company', [companyId])).size > 0;
  }
}
