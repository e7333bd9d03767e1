import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';
import { BankAccountsController } from './bank-accounts.controller';
import { BankAccountsRepository } from './bank-accounts.repository';
import { BankAccountsResolver } from './bank-accounts.resolver';
import { BankAccountsService } from './bank-accounts.service';

/** Bank accounts of a company (C26, C27). */
@Module({
  imports: [CompanyLookupModule],
  controllers: [BankAccountsController],
  providers: [BankAccountsRepository, BankAccountsService, BankAccountsResolver],
})
export class BankAccountsModule {}
