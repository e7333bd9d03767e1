import { Provider } from '@nestjs/common';
import { DiskStorage, FILE_STORAGE, storageKey } from '@crm/storage';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { CrmPeopleConfig } from '../config';

/**
 * Storage layout of this service (keys under FILE_STORAGE_DIR):
 *   tenants/<tenant>/people/<personId>/profile-image/<version>/{thumbnail,small,detail,original}.webp
 *   tenants/<tenant>/people/<personId>/profile-image/<version>/manifest.json
 *   tenants/<tenant>/people/<personId>/documents/<documentId>
 * Person.profileImage holds <version>; PersonDocument.storageKey the document's full key.
 */
export const storageProvider: Provider = {
  provide: FILE_STORAGE,
  inject: [SERVICE_CONFIG],
  useFactory: async (config: CrmPeopleConfig) => {
    const storage = new DiskStorage(config.FILE_STORAGE_DIR);
    // Fails the start when the folder cannot be created, not the first upload.
    await storage.init();
    return storage;
  },
};

export const profileImageFolder = (tenantId: string, personId: string, version: string) =>
  storageKey(tenantId, 'people', personId, 'profile-image', version);

export const profileImageKey = (
  tenantId: string,
  personId: string,
  version: string,
  name: string,
) => storageKey(tenantId, 'people', personId, 'profile-image', version, name);

export const documentKey = (tenantId: string, personId: string, documentId: string) =>
  storageKey(tenantId, 'people', personId, 'documents', documentId);
