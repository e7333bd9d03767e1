import { Injectable } from '@nestjs/common';
import { parseSort, skipTake, SortField } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { CompaniesQuery, COMPANY_SORT_FIELDS } from './dto/company-query.input';
import type { CompanyPage } from './dto/company.output';
import { CompaniesReadRepository, CompanySortKey } from './companies-read.repository';
import { CompaniesService } from './companies.service';

const DEFAULT_SORT: SortField<CompanySortKey>[] = [{ field: 'name', direction: 'asc' }];

const text = (v: string | undefined) => v?.trim() || undefined;

/** C1: the tenant's companies, paged and sorted, narrowed by q, tagId and lifecycleId. */
@Injectable()
export class CompaniesListService {
  constructor(
    private readonly reads: CompaniesReadRepository,
    private readonly companies: CompaniesService,
  ) {}

  async list(ctx: RequestContext, query: CompaniesQuery): Promise<CompanyPage> {
    const sort = parseSort<CompanySortKey>(query.sort, COMPANY_SORT_FIELDS, DEFAULT_SORT, 'id');
    const { skip, take } = skipTake(query);
    const { records, total } = await this.reads.page(
      ctx.tenantId,
      {
        q: text(query.q)?.toLowerCase(),
        tagId: query.tagId?.toLowerCase(),
        lifecycleId: query.lifecycleId?.toLowerCase(),
      },
      sort,
      skip,
      take,
    );
    return { items: await this.companies.toDtos(ctx, records), totalResults: total };
  }
}
