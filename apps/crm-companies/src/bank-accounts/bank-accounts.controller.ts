import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  CreateCompanyBankAccountInput,
  UpdateCompanyBankAccountInput,
} from './dto/bank-account.input';
import { CompanyBankAccount, CompanyBankAccountDeleted } from './dto/bank-account.output';
import { BankAccountsService } from './bank-accounts.service';

const RULES =
  'The IBAN is checked (country, length, format, check digits; rules ibanCountry, ibanLength, ' +
  'ibanFormat, ibanChecksum, ibanBankChecksum, iban for other characters than letters, digits ' +
  "and blanks) and stored in electronic format; the BIC (rule bic) must be of the IBAN's " +
  'country (rule bicCountry; French overseas territories and Monaco with FR, Jersey, Guernsey ' +
  'and Isle of Man with GB, Åland with FI count as one). The same IBAN twice on a company: 409. ' +
  'A company with accounts has exactly one favorite. Unknown or foreign company: 404.';

@ApiTags('Bank accounts')
@Controller('companies/:id/bank-accounts')
export class BankAccountsController {
  constructor(private readonly accounts: BankAccountsService) {}

  @Get()
  @ApiOperation({
    summary: 'C26 List the bank accounts of a company',
    description:
      'C26 Paged; `q` searches IBAN (also as typed with blanks), BIC, bank name and account ' +
      'holder; sort by position (default: the order they were added), iban, bic, bankName, ' +
      'accountHolder, isFavorite, dateCreated, dateModified. Unknown or foreign company: 404.',
  })
  @ApiEnvelope(CompanyBankAccount, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: PageQuery,
  ): Promise<Paged<CompanyBankAccount>> {
    return this.accounts.list(ctx, id, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'C26 Add a bank account to a company',
    description: `C26 Appended last; marked isFavorite it takes the favorite from the previous one, and the first account becomes the favorite anyway. ${RULES}`,
  })
  @ApiEnvelope(CompanyBankAccount, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign company' })
  @ApiResponse({ status: 409, description: 'The company has an account with this IBAN' })
  create(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CreateCompanyBankAccountInput,
  ): Promise<CompanyBankAccount> {
    return this.accounts.create(ctx, id, body);
  }

  @Put(':accountId')
  @ApiOperation({
    summary: 'C27 Update a bank account',
    description: `C27 Fields not given stay as they are; null (or an empty text) clears bic, bankName and accountHolder. isFavorite true takes the favorite from the previous one; false on the favorite passes it to the first account. ${RULES}`,
  })
  @ApiEnvelope(CompanyBankAccount)
  @ApiResponse({ status: 404, description: 'Unknown or foreign company or account' })
  @ApiResponse({ status: 409, description: 'Another account of the company has this IBAN' })
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('accountId') accountId: string,
    @Body() body: UpdateCompanyBankAccountInput,
  ): Promise<CompanyBankAccount> {
    return this.accounts.update(ctx, id, accountId, body);
  }

  @Delete(':accountId')
  @ApiOperation({
    summary: 'C27 Delete a bank account',
    description:
      'C27 When the favorite goes, the first remaining account becomes the favorite ' +
      '(newFavoriteId). Unknown or foreign company or account: 404.',
  })
  @ApiEnvelope(CompanyBankAccountDeleted)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('accountId') accountId: string,
  ): Promise<CompanyBankAccountDeleted> {
    return this.accounts.remove(ctx, id, accountId);
  }
}
