import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import {
  CompanyBankAccountsArgs,
  CreateCompanyBankAccountInput,
  UpdateCompanyBankAccountInput,
} from './dto/bank-account.input';
import {
  CompanyBankAccount,
  CompanyBankAccountDeleted,
  CompanyBankAccountPage,
} from './dto/bank-account.output';
import { BankAccountsService } from './bank-accounts.service';

const id = (name: string, description?: string) =>
  Args(name, { type: () => ID, ...(description ? { description } : {}) });

/** C26, C27 over GraphQL: the same service methods, the same rules. */
@Resolver(() => CompanyBankAccount)
export class BankAccountsResolver {
  constructor(private readonly accounts: BankAccountsService) {}

  @Query(() => CompanyBankAccountPage, { description: 'C26 The bank accounts of a company' })
  async companyBankAccounts(@Ctx() ctx: RequestContext, @Args() args: CompanyBankAccountsArgs) {
    const { companyId, ...query } = args;
    const page = await this.accounts.list(ctx, companyId, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => CompanyBankAccount, { description: 'C26 Add a bank account to a company' })
  createCompanyBankAccount(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @Args('input') input: CreateCompanyBankAccountInput,
  ) {
    return this.accounts.create(ctx, companyId, input);
  }

  @Mutation(() => CompanyBankAccount, { description: 'C27 Update a bank account' })
  updateCompanyBankAccount(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('accountId') accountId: string,
    @Args('input') input: UpdateCompanyBankAccountInput,
  ) {
    return this.accounts.update(ctx, companyId, accountId, input);
  }

  @Mutation(() => CompanyBankAccountDeleted, { description: 'C27 Delete a bank account' })
  deleteCompanyBankAccount(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('accountId') accountId: string,
  ) {
    return this.accounts.remove(ctx, companyId, accountId);
  }
}
