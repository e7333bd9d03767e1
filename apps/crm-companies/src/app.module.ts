import { DynamicModule, Module } from '@nestjs/common';
import path from 'node:path';
import { FILES_LOCALES_DIR } from '@crm/files';
import { HealthController, Readiness, ServiceCoreModule, subgraphModule } from '@crm/service-kit';
import type { CrmCompaniesConfig } from './config';
import { DatabaseModule } from './database/database.module';
import { BankAccountsModule } from './bank-accounts/bank-accounts.module';
import { CompaniesModule } from './companies/companies.module';
import { CompanyRelationsModule } from './company-relations/company-relations.module';
import { ContactDataModule } from './contact-data/contact-data.module';
import { FilesModule } from './files/files.module';
import { ManagedByModule } from './managed-by/managed-by.module';
import { OutboxModule } from './outbox/outbox.module';
import { SettingsModule } from './settings/settings.module';

export const SERVICE_NAME = 'crm-companies';

@Module({})
export class AppModule {
  static forRoot(config: CrmCompaniesConfig): DynamicModule {
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
        CompaniesModule,
        ContactDataModule,
        BankAccountsModule,
        CompanyRelationsModule,
        FilesModule,
        ManagedByModule,
        OutboxModule,
      ],
      controllers: [HealthController],
      providers: [Readiness],
    };
  }
}
