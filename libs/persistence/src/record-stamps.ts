/**
 * What a new record writes besides its own fields: its tenant, where its lifecycle starts and
 * who created it (people and companies alike; events will too).
 */
export interface NewRecordStamps {
  tenantId: string;
  lifecycleId: string | null;
  lifecycleChanged: Date | null;
  dateCreated: Date;
  createdBy: string;
  createdByUserId: string | null;
  modifiedBy: string;
  modifiedByUserId: string | null;
}
