import { Args, ID, Mutation, Query, Resolver, ResolveReference } from '@nestjs/graphql';
import DataLoader from 'dataloader';
import { AppException } from '@crm/errors';
import { Ctx, readRequestContext, RequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import { EventPublicationInput, NOTE_MAX } from './dto/event-note.input';
import { EventDraftInput, EventInput } from './dto/event.input';
import {
  Event,
  EventNoteOutput,
  EventPage,
  EventsDeleted,
  EventValidationResult,
} from './dto/event.output';
import { EventsQuery } from './dto/event-query.input';
import { EventsPublicationService } from './events-publication.service';
import { EventsService } from './events.service';

type WithLoaders = GraphQLRequestContext & { eventLoader?: DataLoader<string, Event | null> };

/** GraphQL of E1-E7, E9-E12 and the federated Event entity; the same service methods as REST. */
@Resolver(() => Event)
export class EventsResolver {
  constructor(
    private readonly service: EventsService,
    private readonly publication: EventsPublicationService,
  ) {}

  @Query(() => Event, {
    description: 'E2 An event by id (unknown: NOT_FOUND, as REST answers 404)',
  })
  event(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    return this.service.get(ctx, id);
  }

  @Query(() => EventPage, {
    description:
      'E1 List events: from/to (overlap), categoryId, published, websiteId, q (title, subtitle), paging and sort as REST',
  })
  events(@Ctx() ctx: RequestContext, @Args() query: EventsQuery) {
    return this.service.list(ctx, query);
  }

  @Mutation(() => Event, { description: 'E3 Create an event' })
  createEvent(@Ctx() ctx: RequestContext, @Args('input') input: EventInput) {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Event, {
    description: 'E4 Update an event: replaces every field (timeZone and status stay when absent)',
  })
  updateEvent(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: EventInput,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => EventsDeleted, { description: 'E5 Delete an event' })
  deleteEvent(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    return this.service.delete(ctx, id);
  }

  @Mutation(() => EventsDeleted, { description: 'E6 Delete several events (all or nothing)' })
  deleteEvents(@Ctx() ctx: RequestContext, @Args('ids', { type: () => [ID] }) ids: string[]) {
    return this.service.deleteMany(ctx, ids);
  }

  @Mutation(() => EventValidationResult, {
    description:
      'E7 Validate an event without writing (title optional here, so that its absence is reported)',
  })
  validateEvent(
    @Ctx() ctx: RequestContext,
    @Args('input', { type: () => EventDraftInput }) input: Record<string, unknown>,
  ) {
    return this.service.validate(ctx, input);
  }

  @Mutation(() => Event, { description: 'E9 Duplicate an event (unpublished, sequence 0)' })
  duplicateEvent(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    return this.service.duplicate(ctx, id);
  }

  @Mutation(() => EventNoteOutput, { description: 'E10 Update the note of an event (null clears)' })
  updateEventNote(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('note', { type: () => String, nullable: true }) note: string | null,
  ) {
    // GraphQL omits a null argument: both mean "clear". Same limit as REST.
    if (note && note.length > NOTE_MAX) {
      throw AppException.invalidField('note', 'maxLength', { constraint1: NOTE_MAX });
    }
    return this.service.updateNote(ctx, id, note ?? null);
  }

  @Mutation(() => Event, {
    description:
      'E11 Publish or unpublish an event (an event that is not publishable: CONFLICT with the errors); publishing a draft makes it scheduled',
  })
  updateEventPublication(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: EventPublicationInput,
  ) {
    return this.publication.update(ctx, id, input);
  }

  @Mutation(() => EventValidationResult, {
    description:
      'E12 What is missing to publish an event (websiteIds: check these instead of the stored ones)',
  })
  validateEventPublication(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('websiteIds', { type: () => [ID], nullable: true }) websiteIds?: string[] | null,
  ) {
    return this.publication.validate(ctx, id, websiteIds ?? undefined);
  }

  /** Federation: every Event reference of one request is loaded in one batch (one SQL query). */
  @ResolveReference()
  resolveReference(ref: { __typename: string; id: string }, context: WithLoaders) {
    context.eventLoader ??= new DataLoader<string, Event | null>((ids) =>
      this.service.getMany(readRequestContext(context.req.headers), ids),
    );
    return context.eventLoader.load(ref.id);
  }
}
