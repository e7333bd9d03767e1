import type { Actor } from '@crm/persistence';

/** The fields a document list sorts by (C31, P22), in every service that keeps documents. */
export const DOCUMENT_SORT_FIELDS = [
  'fileName',
  'contentType',
  'size',
  'dateCreated',
  'id',
] as const;
export type DocumentSortField = (typeof DOCUMENT_SORT_FIELDS)[number];

/** One page of a document list, in the form a Prisma `findMany` takes. */
export interface DocumentPageQuery {
  skip: number;
  take: number;
  orderBy: Record<DocumentSortField, 'asc' | 'desc'>[];
  /** Part of the file name, case-insensitive; absent: every document. */
  q?: string;
}

/** A stored document: what the API shows (`document`) and where its bytes are. */
export interface DocumentRecord<D> {
  document: D;
  storageKey: string;
  fileName: string;
  contentType: string;
}

/** The row of a new document. `ownerId` is the service's owner column (personId, companyId...). */
export interface NewDocumentRow {
  id: string;
  tenantId: string;
  ownerId: string;
  fileName: string;
  contentType: string;
  size: number;
  storageKey: string;
  createdBy: Actor;
}

/**
 * The table access a service supplies for documents of one kind of owner (a person, a company, an
 * event): implemented by its Prisma repository, which maps rows to the service's output type `D`.
 * Every method is scoped to the tenant and the owner. `Tx` is the service's transaction client;
 * the library never sees a Prisma client.
 */
export interface DocumentStore<D, Tx> {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Whether the tenant has the owner (`ownerId` is a lower-case uuid). */
  ownerExists(tenantId: string, ownerId: string, db?: Tx): Promise<boolean>;
  page(tenantId: string, ownerId: string, query: DocumentPageQuery): Promise<[D[], number]>;
  find(tenantId: string, ownerId: string, id: string, db?: Tx): Promise<DocumentRecord<D> | null>;
  /**
   * Inserts the row. When the owner is deleted meanwhile the owner's foreign key must refuse it
   * (Prisma's P2003), which the service answers with the owner's 404.
   */
  insert(tx: Tx, row: NewDocumentRow): Promise<D>;
  delete(tx: Tx, tenantId: string, ownerId: string, id: string): Promise<void>;
}
