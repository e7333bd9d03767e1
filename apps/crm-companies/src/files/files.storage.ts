import { storageKey } from '@crm/storage';

/**
 * Storage layout of this service (keys in the FileStorage of @crm/files' fileStorageProvider: FILE_STORAGE_DIR or the S3 bucket);
 * everything of a company lives under companyFilesPrefix, so deleting a company removes its files
 * with one deletePrefix:
 *   tenants/<tenant>/companies/<companyId>/logo/<version>/{thumbnail,small,detail,original}.webp
 *   tenants/<tenant>/companies/<companyId>/logo/<version>/manifest.json
 *   tenants/<tenant>/companies/<companyId>/documents/<documentId>
 * Company.logo holds <version>; CompanyDocument.storageKey the document's full key.
 */
export const companyFilesPrefix = (tenantId: string, companyId: string) =>
  storageKey(tenantId, 'companies', companyId);

/** The folder of one logo version: its sizes and manifest.json. */
export const logoFolder = (tenantId: string, companyId: string, version: string) =>
  storageKey(tenantId, 'companies', companyId, 'logo', version);

export const documentKey = (tenantId: string, companyId: string, documentId: string) =>
  storageKey(tenantId, 'companies', companyId, 'documents', documentId);
