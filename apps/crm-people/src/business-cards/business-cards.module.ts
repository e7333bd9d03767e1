import { Module } from '@nestjs/common';
import { CompanyLinksModule } from '../company-links/company-links.module';
import { SettingsModule } from '../settings/settings.module';
import { BusinessCardByIdController, BusinessCardsController } from './business-cards.controller';
import { BusinessCardsRepository } from './business-cards.repository';
import { BusinessCardsResolver } from './business-cards.resolver';
import { BusinessCardsService } from './business-cards.service';
import { CardAddressesController } from './card-addresses.controller';
import { CardAddressesResolver } from './card-addresses.resolver';
import { CardAddressesService } from './card-addresses.service';
import { CardChecks } from './card-checks.service';
import { CardCompanyService } from './card-company.service';
import { CardValidationService } from './card-validation.service';

/** Business cards of people (B1-B14). */
@Module({
  imports: [SettingsModule, CompanyLinksModule],
  controllers: [BusinessCardsController, BusinessCardByIdController, CardAddressesController],
  providers: [
    BusinessCardsRepository,
    CardChecks,
    BusinessCardsService,
    CardCompanyService,
    CardValidationService,
    CardAddressesService,
    BusinessCardsResolver,
    CardAddressesResolver,
  ],
  exports: [BusinessCardsService],
})
export class BusinessCardsModule {}
