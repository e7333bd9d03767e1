import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';
import { SettingsModule } from '../settings/settings.module';
import { AddressesController } from './addresses.controller';
import { AddressesResolver } from './addresses.resolver';
import { AddressesService } from './addresses.service';
import { ContactDataRepository } from './contact-data.repository';
import { ContactLists } from './contact-lists.service';
import { EmailsController } from './emails.controller';
import { EmailsResolver } from './emails.resolver';
import { EmailsService } from './emails.service';
import { PhonesController } from './phones.controller';
import { PhonesResolver } from './phones.resolver';
import { PhonesService } from './phones.service';

/** Addresses, phones and e-mails of a company (C15-C25). */
@Module({
  imports: [CompanyLookupModule, SettingsModule],
  controllers: [AddressesController, PhonesController, EmailsController],
  providers: [
    ContactDataRepository,
    ContactLists,
    AddressesService,
    PhonesService,
    EmailsService,
    AddressesResolver,
    PhonesResolver,
    EmailsResolver,
  ],
})
export class ContactDataModule {}
