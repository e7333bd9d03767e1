import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { JoinWaitingListInput, MoveWaitingListEntryInput } from './dto/waiting-list.input';
import { WaitingListEntry, WaitingListEntryDetails } from './dto/waiting-list.output';
import { WaitingListService } from './waiting-list.service';

/** WL1-WL6 over GraphQL: the same service, the same rules. */
@Resolver(() => WaitingListEntry)
export class WaitingListResolver {
  constructor(private readonly lists: WaitingListService) {}

  @Mutation(() => WaitingListEntry, {
    description:
      'WL1 Join the waiting list of a sold-out ticket type (POST /bookings/public/events/{eventId}/waiting-list)',
  })
  joinWaitingList(
    @Ctx() ctx: RequestContext,
    @Args('eventId', { type: () => ID }) eventId: string,
    @Args('input') input: JoinWaitingListInput,
  ) {
    return this.lists.join(ctx, eventId, input);
  }

  @Query(() => WaitingListEntry, { description: 'WL2 A waiting list entry by its token' })
  waitingListEntry(@Ctx() ctx: RequestContext, @Args('token') token: string) {
    return this.lists.find(ctx, token);
  }

  @Mutation(() => Boolean, {
    description:
      'WL3 Leave a waiting list (true; see DELETE /bookings/public/waiting-list/{token})',
  })
  async leaveWaitingList(@Ctx() ctx: RequestContext, @Args('token') token: string) {
    await this.lists.leave(ctx, token);
    return true;
  }

  @Query(() => [WaitingListEntryDetails], {
    description: 'WL4 An event’s waiting list entries (of one ticket type), by type and list order',
  })
  waitingList(
    @Ctx() ctx: RequestContext,
    @Args('eventId', { type: () => ID }) eventId: string,
    @Args('ticketTypeId', { type: () => ID, nullable: true }) ticketTypeId?: string,
  ) {
    return this.lists.list(ctx, eventId, ticketTypeId ?? undefined);
  }

  @Mutation(() => Boolean, { description: 'WL5 Remove a waiting list entry (true)' })
  async removeWaitingListEntry(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
  ) {
    await this.lists.remove(ctx, id);
    return true;
  }

  @Mutation(() => WaitingListEntryDetails, {
    description: 'WL6 Move a waiting entry to a position (1-based) among its type’s',
  })
  moveWaitingListEntry(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: MoveWaitingListEntryInput,
  ) {
    return this.lists.move(ctx, id, input.position);
  }
}
