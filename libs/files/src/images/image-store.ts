import type { Actor } from '@crm/persistence';

/** The owner's image column: the version of the current image (a folder in the FileStorage). */
export interface ImageState {
  /** As stored; only a uuid names a folder this library wrote, anything else counts as none. */
  version: string | null;
  /** When the image last changed, for services that keep it (null otherwise). */
  dateModified: Date | null;
}

/**
 * The table access a service supplies for one single image of an owner (a profile image, a logo,
 * an event image): one column on the owner's row holding the current version. Implemented by the
 * service's Prisma repository; `Tx` is its transaction client.
 */
export interface ImageStore<Tx> {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** The owner's image column; null when the tenant has no such owner. */
  state(tenantId: string, ownerId: string, db?: Tx): Promise<ImageState | null>;
  /**
   * Locks the owner's row until the transaction ends (`SELECT ... FOR UPDATE`), so two changes of
   * one image go one at a time; false when the tenant has no such owner.
   */
  lock(tx: Tx, tenantId: string, ownerId: string): Promise<boolean>;
  /** Sets the column and the owner's modified stamps; answers the time of the change. */
  set(tx: Tx, tenantId: string, ownerId: string, version: string | null, by: Actor): Promise<Date>;
}
