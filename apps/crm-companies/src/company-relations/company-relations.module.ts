import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';
import { SettingsModule } from '../settings/settings.module';
import { CompanyRelationsController } from './company-relations.controller';
import { CompanyRelationsRepository } from './company-relations.repository';
import { CompanyRelationsResolver } from './company-relations.resolver';
import { CompanyRelationsService } from './company-relations.service';

/** Company-to-company relations (C29, C30). */
@Module({
  imports: [CompanyLookupModule, SettingsModule],
  controllers: [CompanyRelationsController],
  providers: [CompanyRelationsRepository, CompanyRelationsService, CompanyRelationsResolver],
})
export class CompanyRelationsModule {}
