import { Module } from '@nestjs/common';
import { fileStorageProvider, documentUploadProvider } from '@crm/files';
import { FILE_STORAGE } from '@crm/storage';
import { DocumentsController } from './documents/documents.controller';
import { DocumentsRepository } from './documents/documents.repository';
import { DocumentsResolver } from './documents/documents.resolver';
import { DocumentsService } from './documents/documents.service';
import { PersonFilesService } from './person-files.service';
import { ProfileImagesController } from './profile-images/profile-images.controller';
import { ProfileImagesRepository } from './profile-images/profile-images.repository';
import { ProfileImagesResolver } from './profile-images/profile-images.resolver';
import { ProfileImagesService } from './profile-images/profile-images.service';

/**
 * Profile images (P16-P19) and documents (P22, P23) on @crm/files: bytes in the FileStorage
 * (FILE_STORAGE_BACKEND: a folder or an S3 bucket), references in Person.profileImage and PersonDocument. Exports the storage
 * and PersonFilesService for the clean-up on person delete and merge.
 */
@Module({
  controllers: [ProfileImagesController, DocumentsController],
  providers: [
    fileStorageProvider,
    ProfileImagesRepository,
    ProfileImagesService,
    ProfileImagesResolver,
    DocumentsRepository,
    DocumentsService,
    DocumentsResolver,
    documentUploadProvider(DocumentsService),
    PersonFilesService,
  ],
  exports: [FILE_STORAGE, PersonFilesService],
})
export class FilesModule {}
