import { Inject, Injectable, Logger } from '@nestjs/common';
import { Paged, paged } from '@crm/envelope';
import { AppException, isUuid } from '@crm/errors';
import { PageQuery, parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage, normalizeContentType, sanitizeFileName } from '@crm/storage';
import type { FileAnswer, StoredUpload } from '@crm/storage';
import { DeletedFile, PersonDocument } from './dto/person-document.dto';
import { DOCUMENT_SORT_FIELDS, DocumentsRepository } from './documents.repository';
import { toDocument } from './documents.mapper';

/** Largest document accepted (P22). */
export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;

/** Documents of a person (P22, P23): rows in PersonDocument, bytes in the FileStorage. */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger('Documents');

  constructor(
    private readonly repo: DocumentsRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  private requireUuid(resource: string, id: string) {
    if (!isUuid(id)) throw AppException.notFound(resource, id);
  }

  private async requirePerson(ctx: RequestContext, personId: string) {
    this.requireUuid('Person', personId);
    if (!(await this.repo.personExists(ctx.tenantId, personId))) {
      throw AppException.notFound('Person', personId);
    }
  }

  async list(
    ctx: RequestContext,
    personId: string,
    query: PageQuery,
  ): Promise<Paged<PersonDocument>> {
    const sort = parseSort(
      query.sort,
      DOCUMENT_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'desc' }],
      'id',
    );
    await this.requirePerson(ctx, personId);
    const [rows, total] = await this.repo.list(ctx.tenantId, personId, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
      q: query.q?.trim() || undefined,
    });
    return paged(rows.map(toDocument), total);
  }

  /**
   * Records an upload the engine has streamed into storage. The bytes are removed again when the
   * row cannot be written (empty file, person gone), so nothing is left without a row.
   */
  async create(
    ctx: RequestContext,
    personId: string,
    upload: StoredUpload | undefined,
  ): Promise<PersonDocument> {
    if (!upload) {
      await this.requirePerson(ctx, personId);
      throw AppException.invalidField('file', 'isDefined');
    }
    try {
      if (!upload.size) throw AppException.invalidField('file', 'isNotEmpty');
      const row = await this.repo.create({
        id: upload.documentId,
        tenantId: ctx.tenantId,
        personId,
        fileName: sanitizeFileName(upload.originalname),
        contentType: normalizeContentType(upload.mimetype),
        size: upload.size,
        storageKey: upload.storageKey,
        createdBy: ctx.integrationName,
      });
      if (!row) throw AppException.notFound('Person', personId);
      return toDocument(row);
    } catch (err) {
      await this.removeQuietly(upload.storageKey);
      throw err;
    }
  }

  async open(ctx: RequestContext, personId: string, id: string): Promise<FileAnswer> {
    this.requireUuid('Person', personId);
    this.requireUuid('Document', id);
    const row = await this.repo.find(ctx.tenantId, personId, id);
    if (!row) {
      await this.requirePerson(ctx, personId);
      throw AppException.notFound('Document', id);
    }
    const file = await this.storage.get(row.storageKey);
    if (!file) {
      this.logger.error(`document ${id} has a row but no bytes at ${row.storageKey}`);
      throw AppException.notFound('Document', id);
    }
    // The row's type and size are what the client was told in the list.
    return {
      file: { ...file, contentType: row.contentType },
      downloadName: row.fileName,
      cacheControl: 'private, no-cache',
    };
  }

  async remove(ctx: RequestContext, personId: string, id: string): Promise<DeletedFile> {
    this.requireUuid('Person', personId);
    this.requireUuid('Document', id);
    const row = await this.repo.delete(ctx.tenantId, personId, id);
    if (!row) {
      await this.requirePerson(ctx, personId);
      throw AppException.notFound('Document', id);
    }
    // The row is gone first: a failure here leaves unreachable bytes, never a broken row.
    await this.removeQuietly(row.storageKey);
    return { id, deleted: true };
  }

  private async removeQuietly(key: string) {
    await this.storage.delete(key).catch((err: Error) => {
      this.logger.warn(`could not remove ${key}: ${err.message}`);
    });
  }
}
