import { Provider } from '@nestjs/common';
import { DiskStorage, FILE_STORAGE, storageKey } from '@crm/storage';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { CrmCompaniesConfig } from '../config';

/**
 * Storage layout of this service (keys under FILE_STORAGE_DIR); everything of a company lives
 * under companyFilesPrefix, so deleting a company removes its files with one deletePrefix:
 *   tenants/<tenant>/companies/<companyId>/logo/<version>/{thumbnail,small,detail,original}.webp
 *   tenants/<tenant>/companies/<companyId>/logo/<version>/manifest.json
 *   tenants/<tenant>/companies/<companyId>/documents/<documentId>
 * Company.logo holds <version>; CompanyDocument.storageKey the document's full key.
 */
export const storageProvider: Provider = {
  provide: FILE_STORAGE,
  inject: [SERVICE_CONFIG],
  useFactory: async (config: CrmCompaniesConfig) => {
    const storage = new DiskStorage(config.FILE_STORAGE_DIR);
    // Fails the start when the folder cannot be created, not the first upload.
    await storage.init();
    return storage;
  },
};

export const companyFilesPrefix = (tenantId: string, companyId: string) =>
  storageKey(tenantId, 'companies', companyId);

/** The folder of one logo version: its sizes and manifest.json. */
export const logoFolder = (tenantId: string, companyId: string, version: string) =>
  storageKey(tenantId, 'companies', companyId, 'logo', version);

export const logoKey = (tenantId: string, companyId: string, version: string, name: string) =>
  storageKey(tenantId, 'companies', companyId, 'logo', version, name);

export const documentKey = (tenantId: string, companyId: string, documentId: string) =>
  storageKey(tenantId, 'companies', companyId, 'documents', documentId);
