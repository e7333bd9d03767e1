import { Args, ID, Mutation, Query, Resolver, ResolveReference } from '@nestjs/graphql';
import DataLoader from 'dataloader';
import { AppException } from '@crm/errors';
import { Ctx, readRequestContext, RequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import { NOTE_MAX } from './dto/company-note.input';
import { Company, CompanyNoteOutput } from './dto/company.output';
import { CreateCompanyInput, UpdateCompanyInput } from './dto/company.input';
import { CompaniesDeleteService } from './companies-delete.service';
import { CompaniesUpdateService } from './companies-update.service';
import { CompaniesService } from './companies.service';

type WithLoaders = GraphQLRequestContext & { companyLoader?: DataLoader<string, Company | null> };

@Resolver(() => Company)
export class CompaniesResolver {
  constructor(
    private readonly companies: CompaniesService,
    private readonly updates: CompaniesUpdateService,
    private readonly deletes: CompaniesDeleteService,
  ) {}

  @Query(() => Company, { nullable: true, description: 'C2 A company by id (null when unknown)' })
  async company(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    return (await this.companies.getMany(ctx, [id]))[0];
  }

  @Mutation(() => Company, { description: 'C4 Create a company' })
  createCompany(@Ctx() ctx: RequestContext, @Args('input') input: CreateCompanyInput) {
    return this.companies.create(ctx, input);
  }

  @Mutation(() => Company, {
    description: 'C5 Update a company: absent fields stay unchanged, null clears',
  })
  updateCompany(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateCompanyInput,
  ) {
    return this.updates.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'C6 Delete a company' })
  async deleteCompany(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    await this.deletes.delete(ctx, id);
    return true;
  }

  @Mutation(() => CompanyNoteOutput, {
    description: 'C9 Update the note of a company (null clears it)',
  })
  async updateCompanyNote(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('note', { type: () => String, nullable: true }) note: string | null,
  ) {
    // GraphQL omits a null argument: both mean "clear". Same limit as REST.
    if (note && note.length > NOTE_MAX) {
      throw AppException.invalidField('note', 'maxLength', { constraint1: NOTE_MAX });
    }
    return this.companies.updateNote(ctx, id, note ?? null);
  }

  /** Federation: every Company reference of one request is loaded in one batch (one SQL query). */
  @ResolveReference()
  resolveReference(ref: { __typename: string; id: string }, context: WithLoaders) {
    context.companyLoader ??= new DataLoader<string, Company | null>((ids) =>
      this.companies.getMany(readRequestContext(context.req.headers), ids),
    );
    return context.companyLoader.load(ref.id);
  }
}
