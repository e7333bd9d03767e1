import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import {
  CreateTicketTypeInput,
  TicketTypeListQuery,
  UpdateTicketTypeInput,
} from './dto/ticket-type.input';
import { EventRef, TicketType, TicketTypeDeleted, TicketTypePage } from './dto/ticket-type.output';
import { TicketTypesService } from './ticket-types.service';

const id = () => Args('id', { type: () => ID });

/** K1, K2 over GraphQL: the same service methods, the same rules. */
@Resolver(() => TicketType)
export class TicketTypesResolver {
  constructor(private readonly types: TicketTypesService) {}

  @Query(() => TicketTypePage, { description: 'K1 The ticket types of an event' })
  async ticketTypes(@Ctx() ctx: RequestContext, @Args() args: TicketTypeListQuery) {
    const page = await this.types.list(ctx, args);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => TicketType, { description: 'K2 A ticket type' })
  ticketType(@Ctx() ctx: RequestContext, @id() typeId: string) {
    return this.types.get(ctx, typeId);
  }

  @Mutation(() => TicketType, { description: 'K1 Create a ticket type' })
  createTicketType(@Ctx() ctx: RequestContext, @Args('input') input: CreateTicketTypeInput) {
    return this.types.create(ctx, input);
  }

  @Mutation(() => TicketType, { description: 'K2 Update a ticket type' })
  updateTicketType(
    @Ctx() ctx: RequestContext,
    @id() typeId: string,
    @Args('input') input: UpdateTicketTypeInput,
  ) {
    return this.types.update(ctx, typeId, input);
  }

  @Mutation(() => TicketTypeDeleted, { description: 'K2 Delete a ticket type' })
  deleteTicketType(@Ctx() ctx: RequestContext, @id() typeId: string) {
    return this.types.remove(ctx, typeId);
  }

  /** Federation reference to the events subgraph's Event (this subgraph knows only the id). */
  @ResolveField(() => EventRef)
  event(@Parent() type: TicketType): EventRef {
    return { __typename: 'Event', id: type.eventId } as EventRef;
  }
}
