import { Provider } from '@nestjs/common';
import { readRequestContext } from '@crm/request-context';
import { DocumentUploadEngine, FILE_STORAGE, FileStorage } from '@crm/storage';
import { CompanyLookup } from '../../companies/company-lookup.service';
import { documentKey } from '../files.storage';

/**
 * C31's streaming upload engine (@crm/storage): the bytes go under a new document id of the
 * company named in the path, checked first, so an unknown or foreign id stores nothing.
 */
export const documentUploadEngineProvider: Provider = {
  provide: DocumentUploadEngine,
  inject: [FILE_STORAGE, CompanyLookup],
  useFactory: (storage: FileStorage, companies: CompanyLookup) =>
    new DocumentUploadEngine(storage, async (req, documentId) => {
      const ctx = readRequestContext(req.headers);
      // keys in the database's lower case: the company's folder is one, however the id was written
      const companyId = String(req.params.id ?? '').toLowerCase();
      await companies.require(ctx, companyId);
      return documentKey(ctx.tenantId, companyId, documentId);
    }),
};
