import { Module } from '@nestjs/common';
import { FILE_STORAGE } from '@crm/storage';
import { CompanyLookupModule } from '../companies/company-lookup.module';
import { storageProvider } from './files.storage';

/**
 * Logos (C28) and documents (C31, C32): bytes in the FileStorage (@crm/storage,
 * FILE_STORAGE_DIR), references in Company.logo and CompanyDocument. Exports the storage for the
 * clean-up on company delete (deletePrefix(companyFilesPrefix(...)) after the commit).
 */
@Module({
  imports: [CompanyLookupModule],
  controllers: [],
  providers: [storageProvider],
  exports: [FILE_STORAGE],
})
export class FilesModule {}
