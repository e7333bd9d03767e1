import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';

/** Bank accounts of a company (C26, C27). */
@Module({
  imports: [CompanyLookupModule],
  controllers: [],
  providers: [],
})
export class BankAccountsModule {}
