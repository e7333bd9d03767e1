import { DynamicModule, Module } from '@nestjs/common';
import path from 'node:path';
import { FILES_LOCALES_DIR } from '@crm/files';
import { HealthController, Readiness, ServiceCoreModule, subgraphModule } from '@crm/service-kit';
import type { EventsConfig } from './config';
import { DatabaseModule } from './database/database.module';
import { EventSettingsModule } from './event-settings/event-settings.module';
import { EventsModule } from './events/events.module';
import { FilesModule } from './files/files.module';
import { OutboxModule } from './outbox/outbox.module';
import { FileStorageModule } from './storage/file-storage.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WebsitesModule } from './websites/websites.module';

export const SERVICE_NAME = 'events';

/** Config, i18n (the app's texts and the file rules'), NATS: every process of the service has them. */
export const serviceCore = (config: EventsConfig) =>
  ServiceCoreModule.forRoot({
    service: SERVICE_NAME,
    config,
    localeDirs: [FILES_LOCALES_DIR, path.join(__dirname, 'i18n')],
  });

// The process of role `worker` boots WorkerProcessModule (worker-process.ts) instead: only what
// the background work needs.
@Module({})
export class AppModule {
  static forRoot(config: EventsConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        serviceCore(config),
        DatabaseModule,
        FileStorageModule,
        subgraphModule(),
        EventSettingsModule,
        EventsModule,
        WebsitesModule,
        FilesModule,
        WebhooksModule,
        OutboxModule,
      ],
      controllers: [HealthController],
      providers: [Readiness],
    };
  }
}
