import { Provider, Type } from '@nestjs/common';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { DiskStorage, DocumentUploadEngine, FILE_STORAGE } from '@crm/storage';

/**
 * The service's FileStorage under FILE_STORAGE: a DiskStorage on the configured
 * FILE_STORAGE_DIR (a mounted volume in production), created at start so a bad volume fails
 * the start, not the first upload.
 */
export const diskStorageProvider: Provider = {
  provide: FILE_STORAGE,
  inject: [SERVICE_CONFIG],
  useFactory: async (config: { FILE_STORAGE_DIR: string }) => {
    const storage = new DiskStorage(config.FILE_STORAGE_DIR);
    await storage.init();
    return storage;
  },
};

/**
 * The streaming engine `documentUploadInterceptor` uses, built by the service's documents service
 * (a DocumentFiles): the owner named in the path is checked before a byte is stored.
 */
export const documentUploadProvider = (
  documents: Type<UploadEngineSource>,
  ownerParam = 'id',
): Provider => ({
  provide: DocumentUploadEngine,
  inject: [documents],
  useFactory: (service: UploadEngineSource) => service.uploadEngine(ownerParam),
});

/** What `documentUploadProvider` needs of a documents service (DocumentFiles has it). */
export interface UploadEngineSource {
  uploadEngine(ownerParam: string): DocumentUploadEngine;
}
