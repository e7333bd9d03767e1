import { Global, Module } from '@nestjs/common';
import { diskStorageProvider } from '@crm/files';
import { FILE_STORAGE } from '@crm/storage';

/**
 * The service's one FileStorage (FILE_STORAGE_DIR): event files and images, website images and
 * template images, their clean-ups and copies. Global, like the database.
 */
@Global()
@Module({
  providers: [diskStorageProvider],
  exports: [FILE_STORAGE],
})
export class FileStorageModule {}
