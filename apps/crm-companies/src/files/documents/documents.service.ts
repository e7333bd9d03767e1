import { Inject, Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import { DEFAULT_DOCUMENT_MAX_BYTES, DocumentFiles } from '@crm/files';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { CompanyLookup } from '../../companies/company-lookup.service';
import { documentKey } from '../files.storage';
import type { CompanyDocument } from './dto/company-document.output';
import { DocumentsRepository } from './documents.repository';
import type { Tx } from '../../database/tx';

/** Largest document accepted (C31). */
export const DOCUMENT_MAX_BYTES = DEFAULT_DOCUMENT_MAX_BYTES;

/**
 * Documents of a company (C31, C32): rows in CompanyDocument, bytes in the FileStorage under
 * companyFilesPrefix (company delete removes that folder); upload, list, download and delete are
 * @crm/files' DocumentFiles.
 */
@Injectable()
export class DocumentsService extends DocumentFiles<CompanyDocument, Tx> {
  constructor(
    repo: DocumentsRepository,
    companies: CompanyLookup,
    i18n: I18nService,
    @Inject(FILE_STORAGE) storage: FileStorage,
  ) {
    super(storage, repo, {
      name: 'CompanyDocuments',
      key: documentKey,
      ownerNotFound: (ctx, companyId) => companies.notFound(ctx, companyId),
      documentNotFound: (ctx, id) =>
        AppException.notFound(
          i18n.t('files.resource.document', { lang: ctx.language }) as string,
          id,
        ),
    });
  }
}
