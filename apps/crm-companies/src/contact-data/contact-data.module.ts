import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';

/** Addresses, phones and e-mails of a company (C15-C25). */
@Module({
  imports: [CompanyLookupModule],
  controllers: [],
  providers: [],
})
export class ContactDataModule {}
