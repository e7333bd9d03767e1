import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import {
  CompanyRelationsArgs,
  CreateCompanyRelationInput,
  UpdateCompanyRelationInput,
} from './dto/company-relation.input';
import { CompanyRelationPage, CompanyRelationView } from './dto/company-relation.output';
import { CompanyRelationsService } from './company-relations.service';

const id = (name: string) => Args(name, { type: () => ID });

/** C29, C30 over GraphQL: the same service methods, the same rules. */
@Resolver(() => CompanyRelationView)
export class CompanyRelationsResolver {
  constructor(private readonly relations: CompanyRelationsService) {}

  @Query(() => CompanyRelationPage, {
    description: 'C29 The relations of a company to other companies, both directions',
  })
  async companyRelations(@Ctx() ctx: RequestContext, @Args() args: CompanyRelationsArgs) {
    const { companyId, ...query } = args;
    const page = await this.relations.list(ctx, companyId, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => CompanyRelationView, { description: 'C29 Relate a company to another one' })
  createCompanyRelation(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @Args('input') input: CreateCompanyRelationInput,
  ) {
    return this.relations.create(ctx, companyId, input);
  }

  @Mutation(() => CompanyRelationView, { description: 'C30 Update a company relation' })
  updateCompanyRelation(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('relationId') relationId: string,
    @Args('input') input: UpdateCompanyRelationInput,
  ) {
    return this.relations.update(ctx, companyId, relationId, input);
  }

  @Mutation(() => CompanyRelationView, {
    description: 'C30 Delete a company relation (answers the removed one)',
  })
  deleteCompanyRelation(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('relationId') relationId: string,
  ) {
    return this.relations.remove(ctx, companyId, relationId);
  }
}
