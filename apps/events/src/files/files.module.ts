import { Module } from '@nestjs/common';
import { documentUploadProvider } from '@crm/files';
import { EventFilesController } from './documents/event-files.controller';
import { EventFilesRepository } from './documents/event-files.repository';
import { EventFilesResolver } from './documents/event-files.resolver';
import { EventFilesService } from './documents/event-files.service';
import { EventImagesController, WebsiteImagesController } from './images/gallery.controllers';
import { EventImagesRepository, WebsiteImagesRepository } from './images/gallery.repositories';
import { GalleryResolver } from './images/gallery.resolvers';
import { EventImagesService, WebsiteImagesService } from './images/gallery.services';
import { EventCopyFiles } from './event-copy-files.events';
import { EventFilesCleanup } from './event-files-cleanup';

/**
 * Event files (E13, E14) and the image galleries of events (E15, E16) and websites (W14, W15)
 * on @crm/files: bytes in the FileStorage (FILE_STORAGE_BACKEND: a folder or an S3 bucket), rows in EventFile, EventImage and
 * WebsiteImage. A duplicated event (E9) gets copies of its source's files and images. Exports
 * EventFilesCleanup: the event delete (E5, E6) calls it after its commit to remove the bytes.
 */
@Module({
  controllers: [EventFilesController, EventImagesController, WebsiteImagesController],
  providers: [
    EventFilesRepository,
    EventFilesService,
    EventFilesResolver,
    documentUploadProvider(EventFilesService),
    EventImagesRepository,
    WebsiteImagesRepository,
    EventImagesService,
    WebsiteImagesService,
    GalleryResolver,
    EventCopyFiles,
    EventFilesCleanup,
  ],
  exports: [EventFilesCleanup, EventImagesService, WebsiteImagesService],
})
export class FilesModule {}
