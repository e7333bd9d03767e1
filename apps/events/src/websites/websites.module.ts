import { Module } from '@nestjs/common';
import { EventSettingsModule } from '../event-settings/event-settings.module';
import { FilesModule } from '../files/files.module';
import { WebsiteFilesCleanup } from './website-files-cleanup';
import { WebsitesBatchController } from './websites-batch.controller';
import { WebsitesPublicController } from './websites-public.controller';
import { WebsitesPublicRepository } from './websites-public.repository';
import { WebsitesPublicResolver } from './websites-public.resolver';
import { WebsitesPublicService } from './websites-public.service';
import { WebsitesController } from './websites.controller';
import { WebsitesRepository } from './websites.repository';
import { WebsitesResolver } from './websites.resolver';
import { WebsitesService } from './websites.service';

/** Websites (event portals) W1-W13; the public W8-W10 answer from their own controller and resolver. */
@Module({
  imports: [FilesModule, EventSettingsModule],
  controllers: [WebsitesPublicController, WebsitesBatchController, WebsitesController],
  providers: [
    WebsitesRepository,
    WebsitesService,
    WebsitesResolver,
    WebsiteFilesCleanup,
    WebsitesPublicRepository,
    WebsitesPublicService,
    WebsitesPublicResolver,
  ],
  exports: [WebsitesRepository, WebsitesPublicService],
})
export class WebsitesModule {}
