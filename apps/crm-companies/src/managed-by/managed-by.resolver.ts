import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { checkObject, orThrow } from '@crm/errors';
import { Ctx, RequestContext } from '@crm/request-context';
import { CompanyManager, CompanyManagerPage, CompanyPersonRef } from './dto/company-manager.output';
import {
  CompanyManagersArgs,
  CreateCompanyManagerInput,
  DeleteCompanyManagersInput,
  UpdateCompanyManagerInput,
  UpdateCompanyManagerItemInput,
} from './dto/company-manager.input';
import { ManagedByChangeService } from './managed-by-change.service';
import { ManagedByService } from './managed-by.service';

const COMPANY = { type: () => ID, description: 'The managed company' };
const RELATION = { type: () => ID, description: 'The managed-by relation' };

/** M1-M7 over GraphQL: the same service methods as REST. */
@Resolver(() => CompanyManager)
export class ManagedByResolver {
  constructor(
    private readonly managers: ManagedByService,
    private readonly changes: ManagedByChangeService,
  ) {}

  @Query(() => CompanyManagerPage, { description: 'M1 The people managing a company (paged)' })
  async companyManagers(@Ctx() ctx: RequestContext, @Args() args: CompanyManagersArgs) {
    const { companyId, ...query } = args;
    const page = await this.managers.list(ctx, companyId, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => CompanyManager, {
    description: 'M2 A person manages the company in a manager role (both confirmed by crm-people)',
  })
  createCompanyManager(
    @Ctx() ctx: RequestContext,
    @Args('companyId', COMPANY) companyId: string,
    @Args('input') input: CreateCompanyManagerInput,
  ) {
    return this.managers.create(ctx, companyId, input);
  }

  @Mutation(() => [CompanyManager], { description: 'M3 Create several (all or nothing)' })
  createCompanyManagers(
    @Ctx() ctx: RequestContext,
    @Args('companyId', COMPANY) companyId: string,
    // an array argument passes the validation pipe unchecked: the service checks each item
    @Args('input', { type: () => [CreateCompanyManagerInput] }) input: unknown,
  ) {
    return this.managers.createMany(ctx, companyId, input);
  }

  @Mutation(() => CompanyManager, { description: 'M5 Update a managed-by relation' })
  updateCompanyManager(
    @Ctx() ctx: RequestContext,
    @Args('companyId', COMPANY) companyId: string,
    @Args('relationId', RELATION) relationId: string,
    @Args('input') input: UpdateCompanyManagerInput,
  ) {
    return this.changes.update(ctx, companyId, relationId, input);
  }

  @Mutation(() => [CompanyManager], { description: 'M4 Update several (all or nothing)' })
  updateCompanyManagers(
    @Ctx() ctx: RequestContext,
    @Args('companyId', COMPANY) companyId: string,
    @Args('input', { type: () => [UpdateCompanyManagerItemInput] }) input: unknown,
  ) {
    return this.changes.updateMany(ctx, companyId, input);
  }

  @Mutation(() => CompanyManager, { description: 'M7 Delete a managed-by relation' })
  deleteCompanyManager(
    @Ctx() ctx: RequestContext,
    @Args('companyId', COMPANY) companyId: string,
    @Args('relationId', RELATION) relationId: string,
  ) {
    return this.changes.remove(ctx, companyId, relationId);
  }

  @Mutation(() => [CompanyManager], { description: 'M6 Delete several (all or nothing)' })
  deleteCompanyManagers(
    @Ctx() ctx: RequestContext,
    @Args('companyId', COMPANY) companyId: string,
    @Args('ids', { type: () => [ID] }) ids: string[],
  ) {
    const body = orThrow(checkObject(DeleteCompanyManagersInput, { ids }));
    return this.changes.removeMany(ctx, companyId, body);
  }

  /** Federation reference to crm-people's Person: the gateway fetches every one in one batch. */
  @ResolveField('person', () => CompanyPersonRef, {
    nullable: true,
    description: 'The managing person (crm-people); null once crm-people no longer knows it',
  })
  person(@Parent() manager: CompanyManager): CompanyPersonRef {
    return { id: manager.personId };
  }
}
