import { Module } from '@nestjs/common';
import { fileStorageProvider, documentUploadProvider } from '@crm/files';
import { FILE_STORAGE } from '@crm/storage';
import { CompanyLookupModule } from '../companies/company-lookup.module';
import { DocumentsController } from './documents/documents.controller';
import { DocumentsRepository } from './documents/documents.repository';
import { DocumentsResolver } from './documents/documents.resolver';
import { DocumentsService } from './documents/documents.service';
import { LogoController } from './logo/logo.controller';
import { LogoRepository } from './logo/logo.repository';
import { LogoResolver } from './logo/logo.resolver';
import { LogoService } from './logo/logo.service';

/**
 * Logos (C28) and documents (C31, C32) on @crm/files: bytes in the FileStorage
 * (FILE_STORAGE_BACKEND: a folder or an S3 bucket), references in Company.logo and CompanyDocument. Exports the storage for the
 * clean-up on company delete (deletePrefix(companyFilesPrefix(...)) after the commit).
 */
@Module({
  imports: [CompanyLookupModule],
  controllers: [LogoController, DocumentsController],
  providers: [
    fileStorageProvider,
    LogoRepository,
    LogoService,
    LogoResolver,
    DocumentsRepository,
    DocumentsService,
    DocumentsResolver,
    documentUploadProvider(DocumentsService),
  ],
  exports: [FILE_STORAGE],
})
export class FilesModule {}
