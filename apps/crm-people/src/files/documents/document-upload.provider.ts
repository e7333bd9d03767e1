import { Provider } from '@nestjs/common';
import { AppException, isUuid } from '@crm/errors';
import { readRequestContext } from '@crm/request-context';
import { DocumentUploadEngine, FILE_STORAGE, FileStorage } from '@crm/storage';
import { documentKey } from '../files.storage';
import { DocumentsRepository } from './documents.repository';

/**
 * P22's streaming upload engine (@crm/storage): the bytes go under a new document id of the
 * person named in the path, checked first, so an unknown or foreign id stores nothing.
 */
export const documentUploadEngineProvider: Provider = {
  provide: DocumentUploadEngine,
  inject: [FILE_STORAGE, DocumentsRepository],
  useFactory: (storage: FileStorage, repo: DocumentsRepository) =>
    new DocumentUploadEngine(storage, async (req, documentId) => {
      const ctx = readRequestContext(req.headers);
      const personId = String(req.params.id ?? '');
      if (!isUuid(personId) || !(await repo.personExists(ctx.tenantId, personId))) {
        throw AppException.notFound('Person', personId);
      }
      return documentKey(ctx.tenantId, personId, documentId);
    }),
};
