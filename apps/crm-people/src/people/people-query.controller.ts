import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { paged, Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { PeopleFilterQuery, PeopleListQuery } from './dto/people-query.input';
import { PeoplePage, PersonQuicklook } from './dto/people-results.dto';
import { Person } from './dto/person.dto';
import { PeopleListService } from './people-list.service';

const SORT_DOC =
  'Sort by lastname, firstname, dateCreated, dateModified, customerNumber (default lastname,firstname; `-` descends; id breaks ties).';

const PAGING_DOC =
  'Paging: by page (offset: the deeper the page, the slower, since every earlier item is stepped over: page 10,000 of a million people costs the database about 100 ms) or by cursor: metaData.nextCursor names the last item of a page (null on the last page), after=<nextCursor> answers the page after it, as fast at any depth. A cursor holds the sort it was made for: with another sort, or malformed, it is a 400 on after; page and after together are a 400 too. Items changed between two pages may move: a cursor never repeats or skips an item that stays put.';

const LIST_TOTAL_DOC =
  "metaData.totalResults is the total across pages, exact when metaData.totalResultsExact is true. Without filters, counting a tenant of a million people would cost more than the page, so a list of more than 10,000 people (configurable) reports PostgreSQL's estimate from its table statistics (within about 1 % once they are current) and totalResultsExact false.";

const FILTER_TOTAL_DOC =
  'metaData.totalResults is the exact total across pages (metaData.totalResultsExact is always true here).';

/** What the people lists add to metaData (see PAGING_DOC, LIST_TOTAL_DOC). */
const PAGE_META = {
  totalResultsExact: {
    type: 'boolean',
    description:
      'false: totalResults is an estimate (an unfiltered list of more than 10,000 people)',
  },
  nextCursor: {
    type: 'string',
    nullable: true,
    description:
      'Cursor of the last item: after=<nextCursor> answers the next page; null on the last page',
  },
} as const;

const toPaged = (page: PeoplePage): Paged<Person> =>
  paged(page.items, page.totalResults, {
    totalResultsExact: page.totalResultsExact,
    nextCursor: page.nextCursor,
  });

@ApiTags('People')
@Controller('people')
export class PeopleQueryController {
  constructor(private readonly lists: PeopleListService) {}

  @Get('filter')
  @ApiOperation({
    summary: 'P1 List people filtered by e-mail, employee status or both',
    description: `At least one of email and employeeStatus is required (else 400). email matches userMail or any e-mail of the person's cards, whole address, any case. ${SORT_DOC} ${PAGING_DOC} ${FILTER_TOTAL_DOC}`,
  })
  @ApiEnvelope(Person, 200, true, PAGE_META)
  async filter(
    @Ctx() ctx: RequestContext,
    @Query() query: PeopleFilterQuery,
  ): Promise<Paged<Person>> {
    return toPaged(await this.lists.filter(ctx, query));
  }

  @Get()
  @ApiOperation({
    summary: 'P2 List people',
    description: `q searches (substring, any case) first and last name, customer number, userMail, and the business and e-mails of the cards. ${SORT_DOC} ${PAGING_DOC} ${LIST_TOTAL_DOC} With q the total is exact.`,
  })
  @ApiEnvelope(Person, 200, true, PAGE_META)
  async list(@Ctx() ctx: RequestContext, @Query() query: PeopleListQuery): Promise<Paged<Person>> {
    return toPaged(await this.lists.list(ctx, query));
  }

  @Get(':id/quicklook')
  @ApiOperation({
    summary: 'P7 Quicklook of a person',
    description:
      'Name, initials, profile image, lifecycle, tags, and company, business, position, e-mail and phone of the favorite card (else the oldest); within the card the favorite position, e-mail and phone (else the first).',
  })
  @ApiEnvelope(PersonQuicklook)
  quicklook(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<PersonQuicklook> {
    return this.lists.quicklook(ctx, id);
  }
}
