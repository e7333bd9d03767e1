import {
  Args,
  Context,
  ID,
  Int,
  Mutation,
  Parent,
  Query,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import DataLoader from 'dataloader';
import type { Paged } from '@crm/envelope';
import { Ctx, readRequestContext, RequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import { Person } from '../people/dto/person.dto';
import { PeopleService } from '../people/people.service';
import {
  Touchpoint,
  TouchpointPage,
  TouchpointsDeleted,
  TouchpointsMoved,
  TouchpointValidation,
} from './dto/touchpoint.dto';
import {
  CreateTouchpointInput,
  MoveTouchpointsInput,
  TouchpointIdsInput,
  TouchpointInput,
  TouchpointMoodInput,
  TouchpointPriorityInput,
  TouchpointTagsInput,
} from './dto/touchpoint.input';
import { TouchpointListQuery } from './dto/touchpoint.query';
import { TouchpointChangesService } from './touchpoint-changes.service';
import { TouchpointPeopleService } from './touchpoint-people.service';
import { TouchpointsService } from './touchpoints.service';

/** The same loader (and key) as PeopleResolver's references, so one request shares one cache. */
type WithLoaders = GraphQLRequestContext & { personLoader?: DataLoader<string, Person | null> };

@Resolver(() => Touchpoint)
export class TouchpointsResolver {
  constructor(
    private readonly service: TouchpointsService,
    private readonly changes: TouchpointChangesService,
    private readonly movers: TouchpointPeopleService,
    private readonly peopleService: PeopleService,
  ) {}

  @Query(() => TouchpointPage, { description: 'T1 List touchpoints (filters as in REST)' })
  touchpoints(
    @Ctx() ctx: RequestContext,
    @Args() q: TouchpointListQuery,
  ): Promise<Paged<Touchpoint>> {
    return this.service.list(ctx, q);
  }

  @Query(() => Touchpoint, { nullable: true, description: 'T2 A touchpoint (null when unknown)' })
  touchpoint(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    return this.service.find(ctx, id);
  }

  /** People involved, all touchpoints of a list loaded in one batch (one query per list level). */
  @ResolveField('people', () => [Person])
  async people(@Parent() t: Touchpoint, @Context() context: WithLoaders): Promise<Person[]> {
    context.personLoader ??= new DataLoader<string, Person | null>((ids) =>
      this.peopleService.getMany(readRequestContext(context.req.headers), ids),
    );
    const found = await context.personLoader.loadMany(t.personIds);
    return found.filter((p): p is Person => !!p && !(p instanceof Error));
  }

  @Mutation(() => Touchpoint, { description: 'T3 Create a touchpoint' })
  createTouchpoint(@Ctx() ctx: RequestContext, @Args('input') input: CreateTouchpointInput) {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Touchpoint, { description: 'T4 Update (replace) a touchpoint' })
  updateTouchpoint(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: TouchpointInput,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Touchpoint, { description: 'T5 Delete a touchpoint (answers with it)' })
  deleteTouchpoint(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    return this.service.remove(ctx, id);
  }

  @Mutation(() => TouchpointsDeleted, { description: 'T6 Delete several touchpoints' })
  deleteTouchpoints(@Ctx() ctx: RequestContext, @Args('input') input: TouchpointIdsInput) {
    return this.changes.deleteMany(ctx, input);
  }

  @Mutation(() => TouchpointValidation, { description: 'T7 Validate without persisting' })
  validateTouchpoint(
    @Ctx() ctx: RequestContext,
    // typed loosely on purpose: the global validation pipe must leave the checks to validate()
    @Args('input', { type: () => CreateTouchpointInput }) input: Record<string, unknown>,
  ) {
    return this.service.validate(ctx, input);
  }

  @Mutation(() => [Touchpoint], { description: 'T8 Add orga tags to selected touchpoints' })
  addTouchpointTags(@Ctx() ctx: RequestContext, @Args('input') input: TouchpointTagsInput) {
    return this.changes.changeTags(ctx, input, 'add');
  }

  @Mutation(() => [Touchpoint], { description: 'T9 Remove orga tags from selected touchpoints' })
  removeTouchpointTags(@Ctx() ctx: RequestContext, @Args('input') input: TouchpointTagsInput) {
    return this.changes.changeTags(ctx, input, 'remove');
  }

  @Mutation(() => Touchpoint, { description: 'T10 Remove a person involved from a touchpoint' })
  removeTouchpointPerson(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('personId', { type: () => ID }) personId: string,
  ) {
    return this.movers.removePerson(ctx, id, personId);
  }

  @Mutation(() => [Touchpoint], { description: 'T11 Update the priority of several touchpoints' })
  updateTouchpointPriorities(
    @Ctx() ctx: RequestContext,
    @Args('items', { type: () => [TouchpointPriorityInput] }) items: TouchpointPriorityInput[],
  ) {
    return this.changes.setPriorities(ctx, items);
  }

  @Mutation(() => Touchpoint, { description: 'T12 Update the priority of a touchpoint' })
  updateTouchpointPriority(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('priority', { type: () => Int }) priority: number,
  ) {
    return this.changes.setPriority(ctx, id, priority);
  }

  @Mutation(() => Touchpoint, { description: 'T13 Add the current mood to a touchpoint' })
  addTouchpointMood(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: TouchpointMoodInput,
  ) {
    return this.changes.addMood(ctx, id, input);
  }

  @Mutation(() => TouchpointsMoved, { description: 'T14 Move touchpoints to another person' })
  moveTouchpoints(@Ctx() ctx: RequestContext, @Args('input') input: MoveTouchpointsInput) {
    return this.movers.move(ctx, input);
  }
}
