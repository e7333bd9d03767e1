import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { paged, Paged } from '@crm/envelope';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { PeopleFilterQuery } from './dto/people-query.input';
import { PersonQuicklook } from './dto/people-results.dto';
import { Person } from './dto/person.dto';
import { PeopleListService } from './people-list.service';

const SORT_DOC =
  'Sort by lastname, firstname, dateCreated, dateModified, customerNumber (default lastname,firstname; `-` descends; id breaks ties).';

@ApiTags('People')
@Controller('people')
export class PeopleQueryController {
  constructor(private readonly lists: PeopleListService) {}

  @Get('filter')
  @ApiOperation({
    summary: 'P1 List people filtered by e-mail, employee status or both',
    description: `At least one of email and employeeStatus is required (else 400). email matches userMail or any e-mail of the person's cards, whole address, any case. ${SORT_DOC}`,
  })
  @ApiEnvelope(Person, 200, true)
  async filter(
    @Ctx() ctx: RequestContext,
    @Query() query: PeopleFilterQuery,
  ): Promise<Paged<Person>> {
    const page = await this.lists.filter(ctx, query);
    return paged(page.items, page.totalResults);
  }

  @Get()
  @ApiOperation({
    summary: 'P2 List people',
    description: `q searches (substring, any case) first and last name, customer number, userMail, and the business and e-mails of the cards. ${SORT_DOC}`,
  })
  @ApiEnvelope(Person, 200, true)
  async list(@Ctx() ctx: RequestContext, @Query() query: PageQuery): Promise<Paged<Person>> {
    const page = await this.lists.list(ctx, query);
    return paged(page.items, page.totalResults);
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
