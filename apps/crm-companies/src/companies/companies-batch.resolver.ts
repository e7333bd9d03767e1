import { Args, ID, Mutation, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { UpdateCompanyItemInput } from './dto/company-batch.input';
import { CompaniesDeleted, CompanyValidationResult } from './dto/company-results.output';
import { Company } from './dto/company.output';
import { CompanyTagInput, CreateCompanyInput, UpdateCompanyInput } from './dto/company.input';
import { CompaniesBatchCreateService } from './companies-batch-create.service';
import { CompaniesDeleteService } from './companies-delete.service';
import { CompaniesTagsService } from './companies-tags.service';
import { CompaniesUpdateService } from './companies-update.service';
import { CompaniesValidateService } from './companies-validate.service';

// List arguments are typed unknown[] (and the validate input as a record) so the global pipe
// leaves them to the services, which check every item and report it by index.
@Resolver(() => Company)
export class CompaniesBatchResolver {
  constructor(
    private readonly creates: CompaniesBatchCreateService,
    private readonly updates: CompaniesUpdateService,
    private readonly deletes: CompaniesDeleteService,
    private readonly tags: CompaniesTagsService,
    private readonly validation: CompaniesValidateService,
  ) {}

  @Mutation(() => [Company], {
    description: 'C8 Create several companies (at most 1000, all or nothing)',
  })
  createCompanies(
    @Ctx() ctx: RequestContext,
    @Args('inputs', { type: () => [CreateCompanyInput] }) inputs: unknown[],
  ) {
    return this.creates.createMany(ctx, inputs);
  }

  @Mutation(() => [Company], {
    description: 'C8 Update several companies (at most 1000, all or nothing)',
  })
  updateCompanies(
    @Ctx() ctx: RequestContext,
    @Args('items', { type: () => [UpdateCompanyItemInput] }) items: unknown[],
  ) {
    return this.updates.updateMany(ctx, items);
  }

  @Mutation(() => CompaniesDeleted, {
    description: 'C7 Delete several companies (at most 1000, all or nothing)',
  })
  deleteCompanies(@Ctx() ctx: RequestContext, @Args('ids', { type: () => [ID] }) ids: unknown[]) {
    return this.deletes.deleteMany(ctx, ids);
  }

  @Mutation(() => Company, { description: 'C10 Replace the tags of a company ([] clears)' })
  replaceCompanyTags(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('tags', { type: () => [CompanyTagInput] }) tags: unknown[],
  ) {
    return this.updates.replaceTags(ctx, id, tags);
  }

  @Mutation(() => Company, {
    description: 'C11 Update the lifecycle of a company (a change is recorded; null clears)',
  })
  updateCompanyLifecycle(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('lifecycleId', { type: () => ID, nullable: true }) lifecycleId: string | null,
  ) {
    return this.updates.updateLifecycle(ctx, id, lifecycleId ?? null);
  }

  @Mutation(() => [Company], { description: 'C12 Add tags to selected companies' })
  addCompanyTags(
    @Ctx() ctx: RequestContext,
    @Args('companyIds', { type: () => [ID] }) companyIds: string[],
    @Args('tagIds', { type: () => [ID] }) tagIds: string[],
  ) {
    return this.tags.change(ctx, { companyIds, tagIds }, 'add');
  }

  @Mutation(() => [Company], { description: 'C13 Remove tags from selected companies' })
  removeCompanyTags(
    @Ctx() ctx: RequestContext,
    @Args('companyIds', { type: () => [ID] }) companyIds: string[],
    @Args('tagIds', { type: () => [ID] }) tagIds: string[],
  ) {
    return this.tags.change(ctx, { companyIds, tagIds }, 'remove');
  }

  @Mutation(() => CompanyValidationResult, {
    description:
      'C14 Validate a company without writing: every check of createCompany (the input type leaves name optional so that a missing name is reported in errors)',
  })
  validateCompany(
    @Ctx() ctx: RequestContext,
    @Args('input', { type: () => UpdateCompanyInput }) input: Record<string, unknown>,
  ) {
    return this.validation.validate(ctx, input);
  }
}
