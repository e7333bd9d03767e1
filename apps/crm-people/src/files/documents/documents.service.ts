import { Inject, Injectable } from '@nestjs/common';
import { AppException } from '@crm/errors';
import { DEFAULT_DOCUMENT_MAX_BYTES, DocumentFiles } from '@crm/files';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { documentKey } from '../files.storage';
import type { PersonDocument } from './dto/person-document.dto';
import { DocumentsRepository } from './documents.repository';
import type { Tx } from '../../database/tx';

/** Largest document accepted (P22). */
export const DOCUMENT_MAX_BYTES = DEFAULT_DOCUMENT_MAX_BYTES;

/**
 * Documents of a person (P22, P23): rows in PersonDocument, bytes in the FileStorage; upload,
 * list, download and delete are @crm/files' DocumentFiles.
 */
@Injectable()
export class DocumentsService extends DocumentFiles<PersonDocument, Tx> {
  constructor(repo: DocumentsRepository, @Inject(FILE_STORAGE) storage: FileStorage) {
    super(storage, repo, {
      name: 'Documents',
      key: documentKey,
      ownerNotFound: (_ctx, personId) => AppException.notFound('Person', personId),
      documentNotFound: (_ctx, id) => AppException.notFound('Document', id),
    });
  }
}
