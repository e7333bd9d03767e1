import { storageKey } from '@crm/storage';

/**
 * Storage layout of this service (keys under FILE_STORAGE_DIR, @crm/files' diskStorageProvider):
 *   tenants/<tenant>/people/<personId>/profile-image/<version>/{thumbnail,small,detail,original}.webp
 *   tenants/<tenant>/people/<personId>/profile-image/<version>/manifest.json
 *   tenants/<tenant>/people/<personId>/documents/<documentId>
 * Person.profileImage holds <version>; PersonDocument.storageKey the document's full key.
 */
export const profileImageFolder = (tenantId: string, personId: string, version: string) =>
  storageKey(tenantId, 'people', personId, 'profile-image', version);

export const documentKey = (tenantId: string, personId: string, documentId: string) =>
  storageKey(tenantId, 'people', personId, 'documents', documentId);
