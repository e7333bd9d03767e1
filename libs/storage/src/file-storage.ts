import type { Readable } from 'node:stream';

/** What is known about a stored object without reading it. */
export interface StoredObject {
  key: string;
  /** Bytes. */
  size: number;
  contentType: string;
  /** Hex SHA-256 of the bytes: a strong validator (HTTP ETag) that survives copies. */
  sha256: string;
  lastModified: Date;
}

/** A stored object opened for reading. The caller must consume or destroy `stream`. */
export interface StoredFile extends StoredObject {
  stream: Readable;
}

/**
 * Binary objects of a service (profile images, documents, logos), addressed by keys built with
 * `storageKey(tenantId, ...)`, so every key starts with its tenant. Implementations must write
 * atomically: a reader sees the whole old object, the whole new one, or nothing, never a part.
 */
export interface FileStorage {
  /** Stores `body` under `key` (replacing an object there) and reports what was written. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<StoredObject>;
  /** Opens the object, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** The object's metadata without opening it, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removes one object; false when there was none (deleting is idempotent). */
  delete(key: string): Promise<boolean>;
  /**
   * Removes every object whose key lies under `prefix`, taken as a folder of whole segments
   * (`tenants/t1/people/p1` removes `tenants/t1/people/p1/**`, not `.../p10/**`). Returns the count.
   */
  deletePrefix(prefix: string): Promise<number>;
}

/** Nest injection token of the service's FileStorage. */
export const FILE_STORAGE = Symbol.for('crm.file-storage');

/** A key or prefix that is malformed or could leave the storage root. */
export class InvalidStorageKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid storage key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidStorageKeyError';
  }
}
