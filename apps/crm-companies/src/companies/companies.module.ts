import { Module } from '@nestjs/common';
import { FilesModule } from '../files/files.module';
import { SettingsModule } from '../settings/settings.module';
import { CompaniesBatchCreateService } from './companies-batch-create.service';
import { CompaniesBatchController } from './companies-batch.controller';
import { CompaniesBatchResolver } from './companies-batch.resolver';
import { CompaniesDeleteService } from './companies-delete.service';
import { CompaniesListService } from './companies-list.service';
import { CompaniesMessages } from './companies.messages';
import { CompaniesQueryController } from './companies-query.controller';
import { CompaniesQueryResolver } from './companies-query.resolver';
import { CompaniesReadRepository } from './companies-read.repository';
import { CompaniesTagsService } from './companies-tags.service';
import { CompaniesUpdateService } from './companies-update.service';
import { CompaniesValidateService } from './companies-validate.service';
import { CompaniesWriteRepository } from './companies-write.repository';
import { CompaniesController } from './companies.controller';
import { CompaniesRepository } from './companies.repository';
import { CompaniesResolver } from './companies.resolver';
import { CompaniesService } from './companies.service';
import { CompanyChecks } from './company-checks.service';
import { CompanyLookupModule } from './company-lookup.module';

/** Companies C1-C14, the federated Company entity and the companyExists NATS request. */
@Module({
  imports: [SettingsModule, CompanyLookupModule, FilesModule],
  // Fastify's router prefers a fixed path (/companies/batch, /companies/tags,
  // /companies/validate) to /companies/:id whatever the order controllers are registered in.
  controllers: [
    CompaniesQueryController,
    CompaniesBatchController,
    CompaniesController,
    CompaniesMessages,
  ],
  providers: [
    CompaniesRepository,
    CompaniesReadRepository,
    CompaniesWriteRepository,
    CompanyChecks,
    CompaniesService,
    CompaniesListService,
    CompaniesUpdateService,
    CompaniesDeleteService,
    CompaniesBatchCreateService,
    CompaniesTagsService,
    CompaniesValidateService,
    CompaniesResolver,
    CompaniesQueryResolver,
    CompaniesBatchResolver,
  ],
  exports: [CompaniesService],
})
export class CompaniesModule {}
