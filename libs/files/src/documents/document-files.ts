import { Logger } from '@nestjs/common';
import { Paged, paged } from '@crm/envelope';
import { AppException, isUuid } from '@crm/errors';
import { actorOf } from '@crm/persistence';
import { PageQuery, parseSort, skipTake, toOrderBy } from '@crm/paging';
import { readRequestContext } from '@crm/request-context';
import type { RequestContext } from '@crm/request-context';
import {
  DocumentUploadEngine,
  FileStorage,
  normalizeContentType,
  sanitizeFileName,
} from '@crm/storage';
import type { FileAnswer, StoredUpload } from '@crm/storage';
import { DOCUMENT_SORT_FIELDS, DocumentStore } from './document-store';

/** Largest document accepted by default (C31, P22): 20 MB. */
export const DEFAULT_DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;

/** What a service says about its documents besides the table access. */
export interface DocumentRules {
  /** Logger name, e.g. `CompanyDocuments`. */
  name: string;
  /** Where the bytes of a document go: a key built with `storageKey(tenantId, ...)`. */
  key(tenantId: string, ownerId: string, documentId: string): string;
  /** The 404 of an owner the tenant does not have (`Person x not found`...). */
  ownerNotFound(ctx: RequestContext, ownerId: string): AppException;
  /** The 404 of a document the owner does not have. */
  documentNotFound(ctx: RequestContext, documentId: string): AppException;
}

/** Answer of a delete of a file resource. */
export interface FileDeleted {
  id: string;
  deleted: boolean;
}

const isForeignKeyViolation = (err: unknown) => (err as { code?: string })?.code === 'P2003';

/**
 * Documents of one kind of owner: rows through the service's DocumentStore, bytes in the
 * FileStorage. The upload is streamed into storage by `uploadEngine()` (the owner is checked
 * first, so an unknown or foreign owner stores nothing); `create` then records it in a
 * transaction that checks the owner again, and removes the bytes when the row cannot be written,
 * so no file is ever left without a row. A delete removes the row first and the bytes after the
 * commit: a failure leaves unreachable bytes (logged), never a row without its file.
 *
 * Owner ids are taken in the database's lower case (uuids), so an owner's files share one folder
 * however the id was written in the path.
 */
export class DocumentFiles<D, Tx> {
  protected readonly logger: Logger;

  constructor(
    protected readonly storage: FileStorage,
    protected readonly store: DocumentStore<D, Tx>,
    protected readonly rules: DocumentRules,
  ) {
    this.logger = new Logger(rules.name);
  }

  /** 404 unless the tenant has the owner. */
  protected async requireOwner(ctx: RequestContext, ownerId: string, db?: Tx): Promise<void> {
    if (!isUuid(ownerId) || !(await this.store.ownerExists(ctx.tenantId, ownerId, db))) {
      throw this.rules.ownerNotFound(ctx, ownerId);
    }
  }

  /**
   * The streaming upload engine of the upload route (provide it under `DocumentUploadEngine`,
   * use `documentUploadInterceptor` on the route): the owner is `:id` of the path.
   */
  uploadEngine(ownerParam = 'id'): DocumentUploadEngine {
    return new DocumentUploadEngine(this.storage, async (req, documentId) => {
      const ctx = readRequestContext(req.headers);
      const ownerId = String(req.params[ownerParam] ?? '').toLowerCase();
      await this.requireOwner(ctx, ownerId);
      return this.rules.key(ctx.tenantId, ownerId, documentId);
    });
  }

  /** Paged; `q` searches file names; sorted by DOCUMENT_SORT_FIELDS, newest first by default. */
  async list(ctx: RequestContext, path: string, query: PageQuery): Promise<Paged<D>> {
    const ownerId = path.toLowerCase();
    const sort = parseSort(
      query.sort,
      DOCUMENT_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'desc' }],
      'id',
    );
    await this.requireOwner(ctx, ownerId);
    const [items, total] = await this.store.page(ctx.tenantId, ownerId, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
      q: query.q?.trim() || undefined,
    });
    return paged(items, total);
  }

  /**
   * Records an upload the engine has streamed into storage. The bytes are removed again when the
   * row cannot be written (no or an empty file, owner gone meanwhile, database error).
   */
  async create(ctx: RequestContext, path: string, upload: StoredUpload | undefined): Promise<D> {
    const ownerId = path.toLowerCase();
    if (!upload) {
      await this.requireOwner(ctx, ownerId);
      throw AppException.invalidField('file', 'isDefined');
    }
    try {
      if (!upload.size) throw AppException.invalidField('file', 'isNotEmpty');
      return await this.store
        .transaction(async (tx) => {
          await this.requireOwner(ctx, ownerId, tx);
          return this.store.insert(tx, {
            id: upload.documentId,
            tenantId: ctx.tenantId,
            ownerId,
            fileName: sanitizeFileName(upload.originalname),
            contentType: normalizeContentType(upload.mimetype),
            size: upload.size,
            storageKey: upload.storageKey,
            createdBy: actorOf(ctx),
          });
        })
        .catch((err: unknown) => {
          // the owner was deleted between the check and the insert
          if (isForeignKeyViolation(err)) throw this.rules.ownerNotFound(ctx, ownerId);
          throw err;
        });
    } catch (err) {
      await this.removeQuietly(upload.storageKey);
      throw err;
    }
  }

  /** The bytes, offered as a download under the stored file name and type. */
  async open(ctx: RequestContext, path: string, id: string): Promise<FileAnswer> {
    const ownerId = path.toLowerCase();
    const found =
      isUuid(ownerId) && isUuid(id) ? await this.store.find(ctx.tenantId, ownerId, id) : null;
    if (!found) {
      await this.requireOwner(ctx, ownerId);
      throw this.rules.documentNotFound(ctx, id);
    }
    const file = await this.storage.get(found.storageKey);
    if (!file) {
      this.logger.error(`document ${id} has a row but no bytes at ${found.storageKey}`);
      throw this.rules.documentNotFound(ctx, id);
    }
    // The row's type is what the client was told in the list.
    return {
      file: { ...file, contentType: found.contentType },
      downloadName: found.fileName,
      cacheControl: 'private, no-cache',
    };
  }

  /** The row goes in a transaction that checks the owner, the bytes after it committed. */
  async remove(ctx: RequestContext, path: string, id: string): Promise<FileDeleted> {
    const ownerId = path.toLowerCase();
    const storageKey = await this.store.transaction(async (tx) => {
      await this.requireOwner(ctx, ownerId, tx);
      const found = isUuid(id) ? await this.store.find(ctx.tenantId, ownerId, id, tx) : null;
      if (!found) throw this.rules.documentNotFound(ctx, id);
      await this.store.delete(tx, ctx.tenantId, ownerId, id);
      return found.storageKey;
    });
    await this.removeQuietly(storageKey);
    return { id, deleted: true };
  }

  protected async removeQuietly(key: string): Promise<void> {
    await this.storage.delete(key).catch((err: Error) => {
      this.logger.warn(`could not remove ${key}: ${err.message}`);
    });
  }
}
