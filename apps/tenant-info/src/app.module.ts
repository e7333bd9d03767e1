import { DynamicModule, Module } from '@nestjs/common';
import path from 'node:path';
import { HealthController, Readiness, ServiceCoreModule, subgraphModule } from '@crm/service-kit';
import { ApiKeysModule } from './api-keys/api-keys.module';
import type { TenantInfoConfig } from './config';
import { DatabaseModule } from './database/database.module';
import { TariffsModule } from './tariffs/tariffs.module';
import { TenantsModule } from './tenants/tenants.module';

export const SERVICE_NAME = 'tenant-info';

@Module({})
export class AppModule {
  static forRoot(config: TenantInfoConfig): DynamicModule {
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
        TariffsModule,
        TenantsModule,
        ApiKeysModule,
      ],
      controllers: [HealthController],
      providers: [Readiness],
    };
  }
}
