import { Module } from '@nestjs/common';
import { diskStorageProvider } from '@crm/files';
import { FILE_STORAGE } from '@crm/storage';

/** The service's FileStorage (FILE_STORAGE_DIR), for the files module and clean-ups on delete. */
@Module({
  providers: [diskStorageProvider],
  exports: [FILE_STORAGE],
})
export class FileStorageModule {}
