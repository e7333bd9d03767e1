import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { AppException, ErrorCode } from '@crm/errors';
import { Ctx, RequestContext } from '@crm/request-context';
import { PeopleFilterQuery, PeopleListQuery } from './dto/people-query.input';
import { PeoplePage, PersonQuicklook } from './dto/people-results.dto';
import { Person } from './dto/person.dto';
import { PeopleListService } from './people-list.service';

@Resolver(() => Person)
export class PeopleQueryResolver {
  constructor(private readonly lists: PeopleListService) {}

  @Query(() => PeoplePage, {
    description:
      'P2 List people: q searches names, customer number, e-mails and card business; sort, page and after (cursor: nextCursor of the page before) as REST',
  })
  people(@Ctx() ctx: RequestContext, @Args() query: PeopleListQuery) {
    return this.lists.list(ctx, query);
  }

  @Query(() => PeoplePage, {
    description:
      'P1 People by e-mail and/or employee status (at least one is required); paging as people',
  })
  peopleByFilter(@Ctx() ctx: RequestContext, @Args() query: PeopleFilterQuery) {
    return this.lists.filter(ctx, query);
  }

  @Query(() => PersonQuicklook, {
    nullable: true,
    description: 'P7 Quicklook of a person (null when unknown)',
  })
  async personQuicklook(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    try {
      return await this.lists.quicklook(ctx, id);
    } catch (err) {
      // Like person(id): an unknown id is null, not an error.
      if (err instanceof AppException && err.code === ErrorCode.NOT_FOUND) return null;
      throw err;
    }
  }
}
