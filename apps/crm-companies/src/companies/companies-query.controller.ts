import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { paged, Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { CompaniesQuery } from './dto/company-query.input';
import { Company } from './dto/company.output';
import { CompaniesListService } from './companies-list.service';
import { CompaniesService } from './companies.service';

@ApiTags('Companies')
@Controller('companies')
export class CompaniesQueryController {
  constructor(
    private readonly lists: CompaniesListService,
    private readonly companies: CompaniesService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'C1 List companies',
    description:
      'C1. q searches (substring, any case) name, name addition, customer number and website domain, across fields ("acme berlin"). tagId and lifecycleId narrow the list. Sort by name, dateCreated, dateModified, customerNumber (default name; `-` descends; id breaks ties). metaData.totalResults is the total across pages.',
  })
  @ApiEnvelope(Company, 200, true)
  async list(@Ctx() ctx: RequestContext, @Query() query: CompaniesQuery): Promise<Paged<Company>> {
    const page = await this.lists.list(ctx, query);
    return paged(page.items, page.totalResults);
  }

  @Get('by-domain/:domain')
  @ApiOperation({
    summary: 'C3 Read a company by domain',
    description:
      "C3. The path segment is a domain (example.com), or an e-mail address or URL reduced to its host; compared lower-cased without a leading www. It matches the company's websiteDomain or the domain of any of its e-mail addresses. Several matches: a website match before an e-mail match, then the oldest company. No match: 404. Nothing domain-like: 400 on `domain`.",
  })
  @ApiParam({ name: 'domain', example: 'example.com' })
  @ApiEnvelope(Company)
  @ApiResponse({ status: 404, description: 'No company of the tenant has this domain' })
  byDomain(@Ctx() ctx: RequestContext, @Param('domain') domain: string): Promise<Company> {
    return this.companies.byDomain(ctx, domain);
  }
}
