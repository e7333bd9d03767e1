import type { Actor } from '@crm/persistence';

/** One image row of a gallery: where its folder is and how it is ordered. */
export interface GalleryRow {
  id: string;
  /** The image's folder (its sizes and manifest.json), as `ImageGalleryRules.folder` built it. */
  storageKey: string;
  fileName: string | null;
  position: number;
  createdBy: string | null;
  dateCreated: Date;
}

/** The row of a new gallery image. */
export interface NewGalleryRow {
  id: string;
  tenantId: string;
  ownerId: string;
  storageKey: string;
  fileName: string | null;
  position: number;
  createdBy: Actor;
}

/**
 * The table access a service supplies for a gallery (several images of one owner: event images,
 * website images): one row per image, the owner's row locked while the gallery changes. Every
 * method is scoped to the tenant and the owner; `Tx` is the service's transaction client.
 */
export interface GalleryStore<Tx> {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Whether the tenant has the owner (`ownerId` is a lower-case uuid). */
  ownerExists(tenantId: string, ownerId: string, db?: Tx): Promise<boolean>;
  /** `SELECT ... FOR UPDATE` on the owner's row until the transaction ends; false when none. */
  lock(tx: Tx, tenantId: string, ownerId: string): Promise<boolean>;
  /** The owner's images in gallery order (position, dateCreated, id): at most the gallery's max. */
  list(tenantId: string, ownerId: string, db?: Tx): Promise<GalleryRow[]>;
  find(tenantId: string, ownerId: string, id: string, db?: Tx): Promise<GalleryRow | null>;
  insert(tx: Tx, row: NewGalleryRow): Promise<GalleryRow>;
  /** False when the owner has no such image. */
  delete(tx: Tx, tenantId: string, ownerId: string, id: string): Promise<boolean>;
}
