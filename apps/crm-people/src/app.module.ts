import { DynamicModule, Module } from '@nestjs/common';
import path from 'node:path';
import { HealthController, Readiness, ServiceCoreModule, subgraphModule } from '@crm/service-kit';
import type { CrmPeopleConfig } from './config';
import { DatabaseModule } from './database/database.module';
import { PeopleModule } from './people/people.module';

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
          localeDirs: [path.join(__dirname, 'i18n')],
        }),
        DatabaseModule,
        subgraphModule(),
        PeopleModule,
      ],
      controllers: [HealthController],
      providers: [Readiness],
    };
  }
}
