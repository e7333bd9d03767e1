import { Global, Module } from '@nestjs/common';
import { fileStorageProvider } from '@crm/files';
import { FILE_STORAGE } from '@crm/storage';

/**
 * The service's one FileStorage (FILE_STORAGE_BACKEND: a folder or an S3 bucket): event files and images, website images and
 * template images, their clean-ups and copies. Global, like the database.
 */
@Global()
@Module({
  providers: [fileStorageProvider],
  exports: [FILE_STORAGE],
})
export class FileStorageModule {}
