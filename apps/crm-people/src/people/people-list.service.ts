import { Injectable } from '@nestjs/common';
import { AppException, ErrorCode } from '@crm/errors';
import { PageQuery, parseSort, skipTake, SortField } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type { PeopleFilterQuery } from './dto/people-query.input';
import { PEOPLE_SORT_FIELDS } from './dto/people-query.input';
import type { PeoplePage, PersonQuicklook } from './dto/people-results.dto';
import { PeopleChecks } from './people-checks.service';
import { requirePersonId } from './people-input';
import { PeopleFilter, PeopleReadRepository, PeopleSortKey } from './people-read.repository';
import { PeopleService } from './people.service';
import { quicklookEntryIds, toQuicklook } from './person-quicklook.mapper';

const DEFAULT_SORT: SortField<PeopleSortKey>[] = [
  { field: 'lastname', direction: 'asc' },
  { field: 'firstname', direction: 'asc' },
];

const text = (v: string | undefined) => v?.trim() || undefined;

/** P1, P2 (lists) and P7 (quicklook). */
@Injectable()
export class PeopleListService {
  constructor(
    private readonly reads: PeopleReadRepository,
    private readonly people: PeopleService,
    private readonly checks: PeopleChecks,
    private readonly settings: SettingsLookupService,
  ) {}

  /** P2: all people, paged and sorted, optionally narrowed by the text search `q`. */
  list(ctx: RequestContext, query: PageQuery): Promise<PeoplePage> {
    return this.page(ctx, query, { q: text(query.q) });
  }

  /** P1: people with an e-mail address and/or an employee status (one of them is required). */
  filter(ctx: RequestContext, query: PeopleFilterQuery): Promise<PeoplePage> {
    const filter = {
      q: text(query.q),
      email: text(query.email),
      employeeStatus: text(query.employeeStatus),
    };
    if (!filter.email && !filter.employeeStatus) {
      throw new AppException(ErrorCode.VALIDATION_FAILED, 'people.errors.filterRequired', {}, [
        this.checks.problem('email', 'filterRequired', ctx),
        this.checks.problem('employeeStatus', 'filterRequired', ctx),
      ]);
    }
    return this.page(ctx, query, filter);
  }

  private async page(
    ctx: RequestContext,
    query: PageQuery,
    filter: PeopleFilter,
  ): Promise<PeoplePage> {
    const sort = parseSort<PeopleSortKey>(query.sort, PEOPLE_SORT_FIELDS, DEFAULT_SORT, 'id');
    const { skip, take } = skipTake(query);
    const { records, total } = await this.reads.page(ctx.tenantId, filter, sort, skip, take);
    return { items: await this.people.toDtos(ctx, records), totalResults: total };
  }

  /** P7 */
  async quicklook(ctx: RequestContext, id: string): Promise<PersonQuicklook> {
    requirePersonId(id);
    const record = await this.reads.quicklook(ctx.tenantId, id);
    if (!record) throw AppException.notFound('Person', id);
    const entries = await this.settings.anyEntries(
      ctx.tenantId,
      quicklookEntryIds(record),
      ctx.language,
    );
    return toQuicklook(record, entries);
  }
}
