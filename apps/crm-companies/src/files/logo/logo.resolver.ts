import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { CompanyFileDeleted } from '../dto/file-deleted.output';
import { CompanyLogo } from './dto/company-logo.output';
import { LogoService } from './logo.service';

/** GraphQL reads the logo's sizes and removes it; the bytes and uploads are REST (C28). */
@Resolver(() => CompanyLogo)
export class LogoResolver {
  constructor(private readonly logos: LogoService) {}

  @Query(() => CompanyLogo, {
    nullable: true,
    description: 'C28 The sizes of the logo of a company, with their addresses (null: no logo)',
  })
  companyLogo(
    @Ctx() ctx: RequestContext,
    @Args('companyId', { type: () => ID }) companyId: string,
  ): Promise<CompanyLogo | null> {
    return this.logos.describe(ctx, companyId);
  }

  @Mutation(() => CompanyFileDeleted, { description: 'C28 Delete the logo of a company' })
  deleteCompanyLogo(
    @Ctx() ctx: RequestContext,
    @Args('companyId', { type: () => ID }) companyId: string,
  ): Promise<CompanyFileDeleted> {
    return this.logos.remove(ctx, companyId);
  }
}
