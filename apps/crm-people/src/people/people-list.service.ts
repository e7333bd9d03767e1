import { Injectable } from '@nestjs/common';
import { AppException, ErrorCode } from '@crm/errors';
import {
  afterOf,
  cursorValue,
  decodeCursor,
  encodeCursor,
  parseSort,
  skipTake,
  SortField,
} from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type { PeopleFilterQuery, PeopleListQuery } from './dto/people-query.input';
import { PEOPLE_SORT_FIELDS } from './dto/people-query.input';
import type { PeoplePage, PersonQuicklook } from './dto/people-results.dto';
import { PeopleChecks } from './people-checks.service';
import { requirePersonId } from './people-input';
import {
  PEOPLE_SORT_KINDS,
  PeopleFilter,
  PeopleReadRepository,
  PeopleSortKey,
  PageStart,
} from './people-read.repository';
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
  list(ctx: RequestContext, query: PeopleListQuery): Promise<PeoplePage> {
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

  /**
   * A page by offset (`page`) or after a cursor (`after`, keyset: as fast at any depth). Every
   * page answers the cursor of its last item when another page follows.
   */
  private async page(
    ctx: RequestContext,
    query: PeopleListQuery,
    filter: PeopleFilter,
  ): Promise<PeoplePage> {
    const parsed = parseSort<PeopleSortKey>(query.sort, PEOPLE_SORT_FIELDS, DEFAULT_SORT, 'id');
    // a field named twice sorts as once; the cursor holds one value per field
    const sort = parsed.filter((s, i) => parsed.findIndex((x) => x.field === s.field) === i);
    const after = afterOf(query);
    const { skip, take } = skipTake(query);
    const start: PageStart = after
      ? { after: decodeCursor(after, sort, PEOPLE_SORT_KINDS) }
      : { skip };
    const page = await this.reads.page(ctx.tenantId, filter, sort, start, take);
    const last = page.records.at(-1);
    return {
      items: await this.people.toDtos(ctx, page.records),
      totalResults: page.total,
      totalResultsExact: page.totalExact,
      nextCursor:
        page.hasMore && last
          ? encodeCursor(
              sort,
              sort.map((s) => cursorValue(last[s.field])),
            )
          : null,
    };
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
