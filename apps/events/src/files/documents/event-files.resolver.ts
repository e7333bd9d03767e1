import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { EventsFileDeleted } from '../dto/file-deleted.output';
import { EventFileOutput, EventFilePage } from './dto/event-file.output';
import { EventFilesArgs } from './dto/event-files.args';
import { EventFilesService } from './event-files.service';

/** GraphQL lists and deletes event files; uploads and downloads are REST (E13, E14). */
@Resolver(() => EventFileOutput)
export class EventFilesResolver {
  constructor(private readonly files: EventFilesService) {}

  @Query(() => EventFilePage, { description: 'E13 The files of an event (metadata)' })
  async eventFiles(@Ctx() ctx: RequestContext, @Args() args: EventFilesArgs) {
    const { eventId, ...query } = args;
    const page = await this.files.list(ctx, eventId, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => EventsFileDeleted, { description: 'E14 Delete a file of an event' })
  deleteEventFile(
    @Ctx() ctx: RequestContext,
    @Args('eventId', { type: () => ID }) eventId: string,
    @Args('fileId', { type: () => ID }) fileId: string,
  ): Promise<EventsFileDeleted> {
    return this.files.remove(ctx, eventId, fileId);
  }
}
