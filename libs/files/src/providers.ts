import { Provider, Type } from '@nestjs/common';
import type { FileStorageConfig } from '@crm/config';
import { SERVICE_CONFIG } from '@crm/service-kit';
import {
  DiskStorage,
  DocumentUploadEngine,
  FILE_STORAGE,
  FileStorage,
  S3Storage,
} from '@crm/storage';

/** The settings createFileStorage reads (FileStorageConfig of @crm/config). */
export type FileStorageSettings = Pick<
  FileStorageConfig,
  | 'FILE_STORAGE_BACKEND'
  | 'FILE_STORAGE_DIR'
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_PREFIX'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
>;

/**
 * The service's FileStorage as configured (FILE_STORAGE_BACKEND), checked before it is used: the
 * disk folder is created, the S3 bucket must answer HeadBucket. A bad setting fails the start,
 * not the first upload. With s3, downloads still go through the service (it streams the object
 * after its tenant checks); the bucket is never handed out to clients.
 */
export async function createFileStorage(config: FileStorageSettings): Promise<FileStorage> {
  if (config.FILE_STORAGE_BACKEND === 's3') {
    // FileStorageConfig already requires it; this guards callers that bypass loadConfig.
    if (!config.S3_BUCKET) throw new Error('FILE_STORAGE_BACKEND=s3 needs S3_BUCKET');
    const storage = new S3Storage({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      prefix: config.S3_PREFIX,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? {
              accessKeyId: config.S3_ACCESS_KEY_ID,
              secretAccessKey: config.S3_SECRET_ACCESS_KEY,
            }
          : undefined,
    });
    await storage.init();
    return storage;
  }
  const storage = new DiskStorage(config.FILE_STORAGE_DIR);
  await storage.init();
  return storage;
}

/** The service's FileStorage under FILE_STORAGE, from its FileStorageConfig (createFileStorage). */
export const fileStorageProvider: Provider = {
  provide: FILE_STORAGE,
  inject: [SERVICE_CONFIG],
  useFactory: (config: FileStorageSettings) => createFileStorage(config),
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
