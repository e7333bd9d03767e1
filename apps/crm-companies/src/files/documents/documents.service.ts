import { Inject, Injectable, Logger } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, isUuid } from '@crm/errors';
import { PageQuery, parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage, normalizeContentType, sanitizeFileName } from '@crm/storage';
import type { FileAnswer, StoredUpload } from '@crm/storage';
import { CompanyLookup } from '../../companies/company-lookup.service';
import type { CompanyFileDeleted } from '../dto/file-deleted.output';
import type { CompanyDocument } from './dto/company-document.output';
import { DOCUMENT_SORT_FIELDS, DocumentsRepository } from './documents.repository';

/** Largest document accepted (C31). */
export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Documents of a company (C31, C32): rows in CompanyDocument, bytes in the FileStorage. Company
 * ids are taken in the database's lower case, so a company's files share one folder however its
 * id was written in the path (company delete removes that folder).
 */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger('CompanyDocuments');

  constructor(
    private readonly repo: DocumentsRepository,
    private readonly companies: CompanyLookup,
    private readonly i18n: I18nService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  private notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('files.resource.document', { lang: ctx.language }) as string;
    return AppException.notFound(resource, id);
  }

  async list(ctx: RequestContext, path: string, query: PageQuery): Promise<Paged<CompanyDocument>> {
    const companyId = path.toLowerCase();
    const sort = parseSort(
      query.sort,
      DOCUMENT_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'desc' }],
      'id',
    );
    await this.companies.require(ctx, companyId);
    const [items, total] = await this.repo.page(ctx.tenantId, companyId, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
      q: query.q?.trim() || undefined,
    });
    return paged(items, total);
  }

  /**
   * C31 POST: records an upload the engine has streamed into storage. The bytes are removed again
   * when the row cannot be written (empty file, company gone meanwhile), so nothing is left
   * without a row.
   */
  async create(
    ctx: RequestContext,
    path: string,
    upload: StoredUpload | undefined,
  ): Promise<CompanyDocument> {
    const companyId = path.toLowerCase();
    if (!upload) {
      await this.companies.require(ctx, companyId);
      throw AppException.invalidField('file', 'isDefined');
    }
    try {
      if (!upload.size) throw AppException.invalidField('file', 'isNotEmpty');
      return await this.repo
        .transaction(async (tx) => {
          await this.companies.require(ctx, companyId, tx);
          return this.repo.create(tx, {
            id: upload.documentId,
            tenantId: ctx.tenantId,
            companyId,
            fileName: sanitizeFileName(upload.originalname),
            contentType: normalizeContentType(upload.mimetype),
            size: upload.size,
            storageKey: upload.storageKey,
            createdBy: ctx.integrationName,
          });
        })
        .catch((err: unknown) => {
          // the company was deleted between the check and the insert
          if ((err as { code?: string })?.code === 'P2003') {
            throw this.companies.notFound(ctx, companyId);
          }
          throw err;
        });
    } catch (err) {
      await this.removeQuietly(upload.storageKey);
      throw err;
    }
  }

  /** C32 GET: the bytes, offered under the stored file name. */
  async open(ctx: RequestContext, path: string, id: string): Promise<FileAnswer> {
    const companyId = path.toLowerCase();
    const found =
      isUuid(companyId) && isUuid(id) ? await this.repo.find(ctx.tenantId, companyId, id) : null;
    if (!found) {
      await this.companies.require(ctx, companyId);
      throw this.notFound(ctx, id);
    }
    const file = await this.storage.get(found.storageKey);
    if (!file) {
      this.logger.error(`document ${id} has a row but no bytes at ${found.storageKey}`);
      throw this.notFound(ctx, id);
    }
    // The row's type is what the client was told in the list.
    return {
      file: { ...file, contentType: found.document.contentType },
      downloadName: found.document.fileName,
      cacheControl: 'private, no-cache',
    };
  }

  /** C32 DELETE: the row goes in a transaction, the bytes after it committed. */
  async remove(ctx: RequestContext, path: string, id: string): Promise<CompanyFileDeleted> {
    const companyId = path.toLowerCase();
    const storageKey = await this.repo.transaction(async (tx) => {
      await this.companies.require(ctx, companyId, tx);
      const found = isUuid(id) ? await this.repo.find(ctx.tenantId, companyId, id, tx) : null;
      if (!found) throw this.notFound(ctx, id);
      await this.repo.delete(tx, ctx.tenantId, companyId, id);
      return found.storageKey;
    });
    // A failure here leaves unreachable bytes (logged), never a row without its file.
    await this.removeQuietly(storageKey);
    return { id, deleted: true };
  }

  private async removeQuietly(key: string) {
    await this.storage.delete(key).catch((err: Error) => {
      this.logger.warn(`could not remove ${key}: ${err.message}`);
    });
  }
}
