import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { CompanyLookupModule } from './company-lookup.module';

/** Companies C1-C14 and the federated Company entity. */
@Module({
  imports: [SettingsModule, CompanyLookupModule],
  controllers: [],
  providers: [],
})
export class CompaniesModule {}
