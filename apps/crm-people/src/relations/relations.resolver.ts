import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { DeleteIdsInput } from '../settings/dto/delete-ids.input';
import { checkObject, orThrow } from '@crm/errors';
import { RelationPage, RelationValidation, RelationView } from './dto/relation.dto';
import {
  CreateRelationInput,
  PersonRelationsArgs,
  UpdateRelationInput,
  UpdateRelationItemInput,
} from './dto/relation.input';
import { RelationsChangeService } from './relations-change.service';
import { RelationsService } from './relations.service';

const PERSON = { type: () => ID, description: 'The person whose relations these are' };

@Resolver(() => RelationView)
export class RelationsResolver {
  constructor(
    private readonly relations: RelationsService,
    private readonly changes: RelationsChangeService,
  ) {}

  @Query(() => RelationPage, { description: 'R1 All relations of a person' })
  async personRelations(@Ctx() ctx: RequestContext, @Args() args: PersonRelationsArgs) {
    const { personId, ...query } = args;
    const page = await this.relations.list(ctx, personId, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => RelationView, {
    description: 'R2 Relate two people (the inverse is written too)',
  })
  createPersonRelation(
    @Ctx() ctx: RequestContext,
    @Args('personId', PERSON) personId: string,
    @Args('input') input: CreateRelationInput,
  ) {
    return this.relations.create(ctx, personId, input);
  }

  @Mutation(() => [RelationView], { description: 'R5 Create relations to several people' })
  createPersonRelations(
    @Ctx() ctx: RequestContext,
    @Args('personId', PERSON) personId: string,
    // an array argument passes the validation pipe unchecked: the service checks each item
    @Args('input', { type: () => [CreateRelationInput] }) input: unknown,
  ) {
    return this.relations.createMany(ctx, personId, input);
  }

  @Mutation(() => RelationView, { description: 'R3 Update a relation (the inverse follows)' })
  updatePersonRelation(
    @Ctx() ctx: RequestContext,
    @Args('personId', PERSON) personId: string,
    @Args('relationId', { type: () => ID }) relationId: string,
    @Args('input') input: UpdateRelationInput,
  ) {
    return this.changes.update(ctx, personId, relationId, input);
  }

  @Mutation(() => [RelationView], { description: 'R6 Update relations of a person' })
  updatePersonRelations(
    @Ctx() ctx: RequestContext,
    @Args('personId', PERSON) personId: string,
    @Args('input', { type: () => [UpdateRelationItemInput] }) input: unknown,
  ) {
    return this.changes.updateMany(ctx, personId, input);
  }

  @Mutation(() => RelationView, { description: 'R4 Remove a relation (both directions)' })
  deletePersonRelation(
    @Ctx() ctx: RequestContext,
    @Args('personId', PERSON) personId: string,
    @Args('relationId', { type: () => ID }) relationId: string,
  ) {
    return this.changes.remove(ctx, personId, relationId);
  }

  @Mutation(() => [RelationView], { description: 'R7 Remove several relations' })
  deletePersonRelations(
    @Ctx() ctx: RequestContext,
    @Args('personId', PERSON) personId: string,
    @Args('ids', { type: () => [ID] }) ids: string[],
  ) {
    return this.changes.removeMany(ctx, personId, orThrow(checkObject(DeleteIdsInput, { ids })));
  }

  @Mutation(() => RelationValidation, { description: 'R8 Validate a relation without writing' })
  validatePersonRelation(
    @Ctx() ctx: RequestContext,
    @Args('personId', PERSON) personId: string,
    // not checked by the pipe: problems are the answer here, not a 400
    @Args('input', { type: () => CreateRelationInput }) input: unknown,
  ) {
    return this.relations.validate(ctx, personId, input);
  }
}
