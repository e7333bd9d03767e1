import { Module } from '@nestjs/common';
import { FileStorageModule } from '../files/file-storage.module';
import { WebsiteFilesCleanup } from './website-files-cleanup';
import { WebsitesBatchController } from './websites-batch.controller';
import { WebsitesController } from './websites.controller';
import { WebsitesRepository } from './websites.repository';
import { WebsitesResolver } from './websites.resolver';
import { WebsitesService } from './websites.service';

/** Websites (event portals) W1-W13; the public W8-W10 answer from their own controller. */
@Module({
  imports: [FileStorageModule],
  controllers: [WebsitesBatchController, WebsitesController],
  providers: [WebsitesRepository, WebsitesService, WebsitesResolver, WebsiteFilesCleanup],
  exports: [WebsitesRepository],
})
export class WebsitesModule {}
