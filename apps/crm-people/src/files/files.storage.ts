import { storageKey } from '@crm/storage';

/**
 * Storage layout of this service (keys in the FileStorage of @crm/files' fileStorageProvider: FILE_STORAGE_DIR or the S3 bucket):
 *   tenants/<tenant>/people/<personId>/profile-image/<version>/{thumbnail,small,detail,original}.webp
 *   tenants/<tenant>/people/<personId>/profile-image/<version>/manifest.json
 *   tenants/<tenant>/people/<personId>/documents/<documentId>
 * Person.profileImage holds <version>; PersonDocument.storageKey the document's full key.
 */
export const profileImageFolder = (tenantId: string, personId: string, version: string) =>
  storageKey(tenantId, 'people', personId, 'profile-image', version);

export const documentKey = (tenantId: string, personId: string, documentId: string) =>
  storageKey(tenantId, 'people', personId, 'documents', documentId);
