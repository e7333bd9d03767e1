import { Args, Query, Resolver } from '@nestjs/graphql';
import { AppException, ErrorCode } from '@crm/errors';
import { Ctx, RequestContext } from '@crm/request-context';
import { CompaniesQuery } from './dto/company-query.input';
import { Company, CompanyPage } from './dto/company.output';
import { CompaniesListService } from './companies-list.service';
import { CompaniesService } from './companies.service';

@Resolver(() => Company)
export class CompaniesQueryResolver {
  constructor(
    private readonly lists: CompaniesListService,
    private readonly service: CompaniesService,
  ) {}

  @Query(() => CompanyPage, {
    description:
      'C1 List companies: q searches name, name addition, customer number and website domain; sort, tagId and lifecycleId as REST',
  })
  companies(@Ctx() ctx: RequestContext, @Args() query: CompaniesQuery) {
    return this.lists.list(ctx, query);
  }

  @Query(() => Company, {
    nullable: true,
    description:
      'C3 A company by website or e-mail domain (also an e-mail address or URL); website match first, then the oldest; null when none',
  })
  async companyByDomain(@Ctx() ctx: RequestContext, @Args('domain') domain: string) {
    try {
      return await this.service.byDomain(ctx, domain);
    } catch (err) {
      // Like company(id): no match is null, not an error.
      if (err instanceof AppException && err.code === ErrorCode.NOT_FOUND) return null;
      throw err;
    }
  }
}
