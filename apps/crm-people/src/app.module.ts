import { DynamicModule, Module } from '@nestjs/common';
import path from 'node:path';
import { FILES_LOCALES_DIR } from '@crm/files';
import { HealthController, Readiness, ServiceCoreModule, subgraphModule } from '@crm/service-kit';
import type { CrmPeopleConfig } from './config';
import { DatabaseModule } from './database/database.module';
import { AiModule } from './ai/ai.module';
import { BusinessCardsModule } from './business-cards/business-cards.module';
import { CompanyLinksModule } from './company-links/company-links.module';
import { FilesModule } from './files/files.module';
import { MergeModule } from './merge/merge.module';
import { OutboxModule } from './outbox/outbox.module';
import { PeopleModule } from './people/people.module';
import { RelationsModule } from './relations/relations.module';
import { SettingsModule } from './settings/settings.module';
import { TouchpointsModule } from './touchpoints/touchpoints.module';

export const SERVICE_NAME = 'crm-people';

@Module({})
export class AppModule {
  static forRoot(config: CrmPeopleConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          service: SERVICE_NAME,
          config,
          localeDirs: [FILES_LOCALES_DIR, path.join(__dirname, 'i18n')],
        }),
        DatabaseModule,
        subgraphModule(),
        SettingsModule,
        PeopleModule,
        BusinessCardsModule,
        RelationsModule,
        TouchpointsModule,
        MergeModule,
        FilesModule,
        AiModule,
        CompanyLinksModule,
        OutboxModule,
      ],
      controllers: [HealthController],
      providers: [Readiness],
    };
  }
}
