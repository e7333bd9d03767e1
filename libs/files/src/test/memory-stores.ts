import type { Actor } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import type {
  DocumentPageQuery,
  DocumentRecord,
  DocumentStore,
  NewDocumentRow,
} from '../documents/document-store';
import type { GalleryRow, GalleryStore, NewGalleryRow } from '../images/gallery-store';
import type { ImageState, ImageStore } from '../images/image-store';

/** Test support for the library's specs: stores kept in memory, with the semantics of a table. */

export const ctx = (tenantId = 'tenant-a'): RequestContext => ({
  tenantId,
  integrationName: 'test-suite',
  integrationProvider: 'jest',
  integrationContact: null,
  language: 'en',
  callerId: null,
});

/** A transaction of the memory stores: writes are applied only when `fn` succeeds. */
export interface MemoryTx {
  pending: (() => void)[];
  locks: (() => void)[];
}

/** Per-key mutex, held until the transaction that took it ends (like SELECT ... FOR UPDATE). */
class RowLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async take(key: string): Promise<() => void> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    this.tails.set(
      key,
      before.then(() => mine),
    );
    await before;
    return release;
  }
}

async function runTx<T>(fn: (tx: MemoryTx) => Promise<T>): Promise<T> {
  const tx: MemoryTx = { pending: [], locks: [] };
  try {
    const out = await fn(tx);
    tx.pending.forEach((apply) => apply());
    return out;
  } finally {
    tx.locks.forEach((release) => release());
  }
}

export interface MemoryDocument {
  id: string;
  ownerId: string;
  fileName: string;
  contentType: string;
  size: number;
  createdBy: string;
}

export class MemoryDocumentStore implements DocumentStore<MemoryDocument, MemoryTx> {
  /** `${tenantId}/${ownerId}` of the owners that exist. */
  readonly owners = new Set<string>();
  readonly rows: (NewDocumentRow & { dateCreated: Date })[] = [];
  /** When set, `insert` throws it (a database error, a foreign key refusing the row...). */
  failInsert: unknown = null;

  addOwner(tenantId: string, ownerId: string) {
    this.owners.add(`${tenantId}/${ownerId}`);
  }

  transaction<T>(fn: (tx: MemoryTx) => Promise<T>): Promise<T> {
    return runTx(fn);
  }

  async ownerExists(tenantId: string, ownerId: string): Promise<boolean> {
    return this.owners.has(`${tenantId}/${ownerId}`);
  }

  private of(tenantId: string, ownerId: string) {
    return this.rows.filter((r) => r.tenantId === tenantId && r.ownerId === ownerId);
  }

  private static toDocument(r: NewDocumentRow): MemoryDocument {
    return {
      id: r.id,
      ownerId: r.ownerId,
      fileName: r.fileName,
      contentType: r.contentType,
      size: r.size,
      createdBy: r.createdBy.name,
    };
  }

  async page(
    tenantId: string,
    ownerId: string,
    q: DocumentPageQuery,
  ): Promise<[MemoryDocument[], number]> {
    const all = this.of(tenantId, ownerId).filter(
      (r) => !q.q || r.fileName.toLowerCase().includes(q.q.toLowerCase()),
    );
    const [field, dir] = Object.entries(q.orderBy[0])[0] as [keyof MemoryDocument, string];
    const sorted = [...all].sort(
      (a, b) =>
        (String((a as never)[field]) < String((b as never)[field]) ? -1 : 1) *
        (dir === 'desc' ? -1 : 1),
    );
    return [
      sorted.slice(q.skip, q.skip + q.take).map((r) => MemoryDocumentStore.toDocument(r)),
      all.length,
    ];
  }

  async find(
    tenantId: string,
    ownerId: string,
    id: string,
  ): Promise<DocumentRecord<MemoryDocument> | null> {
    const r = this.of(tenantId, ownerId).find((x) => x.id === id);
    return r
      ? {
          document: MemoryDocumentStore.toDocument(r),
          storageKey: r.storageKey,
          fileName: r.fileName,
          contentType: r.contentType,
        }
      : null;
  }

  async insert(tx: MemoryTx, row: NewDocumentRow): Promise<MemoryDocument> {
    if (this.failInsert) throw this.failInsert;
    tx.pending.push(() => this.rows.push({ ...row, dateCreated: new Date() }));
    return MemoryDocumentStore.toDocument(row);
  }

  async delete(tx: MemoryTx, tenantId: string, ownerId: string, id: string): Promise<void> {
    tx.pending.push(() => {
      const i = this.rows.findIndex(
        (r) => r.tenantId === tenantId && r.ownerId === ownerId && r.id === id,
      );
      if (i >= 0) this.rows.splice(i, 1);
    });
  }
}

export class MemoryImageStore implements ImageStore<MemoryTx> {
  /** The image column of each owner, by `${tenantId}/${ownerId}`. */
  readonly owners = new Map<string, ImageState>();
  readonly writers: Actor[] = [];
  /** When set, `set` throws it. */
  failSet: unknown = null;
  /** How long `set` takes (a slow database): concurrent writers overlap for this long. */
  setDelayMs = 0;
  private readonly locks = new RowLocks();

  addOwner(tenantId: string, ownerId: string, version: string | null = null) {
    this.owners.set(`${tenantId}/${ownerId}`, { version, dateModified: null });
  }

  version(tenantId: string, ownerId: string): string | null | undefined {
    return this.owners.get(`${tenantId}/${ownerId}`)?.version;
  }

  transaction<T>(fn: (tx: MemoryTx) => Promise<T>): Promise<T> {
    return runTx(fn);
  }

  async state(tenantId: string, ownerId: string): Promise<ImageState | null> {
    const s = this.owners.get(`${tenantId}/${ownerId}`);
    return s ? { ...s } : null;
  }

  async lock(tx: MemoryTx, tenantId: string, ownerId: string): Promise<boolean> {
    const key = `${tenantId}/${ownerId}`;
    if (!this.owners.has(key)) return false;
    tx.locks.push(await this.locks.take(key));
    return true;
  }

  async set(
    tx: MemoryTx,
    tenantId: string,
    ownerId: string,
    version: string | null,
    by: Actor,
  ): Promise<Date> {
    if (this.failSet) throw this.failSet;
    if (this.setDelayMs) await new Promise((r) => setTimeout(r, this.setDelayMs));
    const at = new Date();
    tx.pending.push(() => {
      this.owners.set(`${tenantId}/${ownerId}`, { version, dateModified: at });
      this.writers.push(by);
    });
    return at;
  }
}

export class MemoryGalleryStore implements GalleryStore<MemoryTx> {
  readonly owners = new Set<string>();
  readonly rows: (GalleryRow & { tenantId: string; ownerId: string })[] = [];
  /** When set, `insert` throws it. */
  failInsert: unknown = null;
  /** How long `insert` takes: concurrent uploads overlap for this long. */
  insertDelayMs = 0;
  /** Transactions open now and the most at once: each would hold a pooled connection. */
  openTransactions = 0;
  mostOpenTransactions = 0;
  private readonly locks = new RowLocks();

  addOwner(tenantId: string, ownerId: string) {
    this.owners.add(`${tenantId}/${ownerId}`);
  }

  removeOwner(tenantId: string, ownerId: string) {
    this.owners.delete(`${tenantId}/${ownerId}`);
  }

  async transaction<T>(fn: (tx: MemoryTx) => Promise<T>): Promise<T> {
    this.mostOpenTransactions = Math.max(this.mostOpenTransactions, ++this.openTransactions);
    try {
      return await runTx(fn);
    } finally {
      this.openTransactions--;
    }
  }

  async ownerExists(tenantId: string, ownerId: string): Promise<boolean> {
    return this.owners.has(`${tenantId}/${ownerId}`);
  }

  async lock(tx: MemoryTx, tenantId: string, ownerId: string): Promise<boolean> {
    const key = `${tenantId}/${ownerId}`;
    if (!this.owners.has(key)) return false;
    tx.locks.push(await this.locks.take(key));
    return this.owners.has(key);
  }

  async list(tenantId: string, ownerId: string): Promise<GalleryRow[]> {
    return this.rows
      .filter((r) => r.tenantId === tenantId && r.ownerId === ownerId)
      .sort((a, b) => a.position - b.position || a.dateCreated.getTime() - b.dateCreated.getTime())
      .map(({ tenantId: _t, ownerId: _o, ...r }) => r);
  }

  async find(tenantId: string, ownerId: string, id: string): Promise<GalleryRow | null> {
    return (await this.list(tenantId, ownerId)).find((r) => r.id === id) ?? null;
  }

  async insert(tx: MemoryTx, row: NewGalleryRow): Promise<GalleryRow> {
    if (this.failInsert) throw this.failInsert;
    if (this.insertDelayMs) await new Promise((r) => setTimeout(r, this.insertDelayMs));
    const out: GalleryRow = {
      id: row.id,
      storageKey: row.storageKey,
      fileName: row.fileName,
      position: row.position,
      createdBy: row.createdBy.name,
      dateCreated: new Date(),
    };
    tx.pending.push(() => this.rows.push({ ...out, tenantId: row.tenantId, ownerId: row.ownerId }));
    return out;
  }

  async delete(tx: MemoryTx, tenantId: string, ownerId: string, id: string): Promise<boolean> {
    const exists = this.rows.some(
      (r) => r.tenantId === tenantId && r.ownerId === ownerId && r.id === id,
    );
    tx.pending.push(() => {
      const i = this.rows.findIndex(
        (r) => r.tenantId === tenantId && r.ownerId === ownerId && r.id === id,
      );
      if (i >= 0) this.rows.splice(i, 1);
    });
    return exists;
  }
}
