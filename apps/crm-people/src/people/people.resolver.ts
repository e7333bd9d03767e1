import { Args, ID, Mutation, Query, Resolver, ResolveReference } from '@nestjs/graphql';
import DataLoader from 'dataloader';
import { Ctx, readRequestContext, RequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import { Person, PeopleNote } from './dto/person.dto';
import { CreatePersonInput } from './dto/person.input';
import { NOTE_MAX } from './dto/update-note.input';
import { PeopleDeleteService } from './people-delete.service';
import { PeopleUpdateService } from './people-update.service';
import { PeopleService } from './people.service';
import { AppException } from '@crm/errors';

type WithLoaders = GraphQLRequestContext & { personLoader?: DataLoader<string, Person | null> };

@Resolver(() => Person)
export class PeopleResolver {
  constructor(
    private readonly people: PeopleService,
    private readonly updates: PeopleUpdateService,
    private readonly deletes: PeopleDeleteService,
  ) {}

  @Query(() => Person, {
    nullable: true,
    description: 'P4 Details of a person (null when unknown)',
  })
  async person(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    return (await this.people.getMany(ctx, [id]))[0];
  }

  @Mutation(() => Person, { description: 'P3 Create a person' })
  createPerson(@Ctx() ctx: RequestContext, @Args('input') input: CreatePersonInput) {
    return this.people.create(ctx, input);
  }

  @Mutation(() => Person, {
    description: 'P5 Update a person: absent fields stay unchanged, null clears',
  })
  updatePerson(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: CreatePersonInput,
  ) {
    return this.updates.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'P6 Delete a person' })
  async deletePerson(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    await this.deletes.delete(ctx, id);
    return true;
  }

  @Mutation(() => PeopleNote, { description: 'P11 Update the note of a person (null clears it)' })
  async updatePersonNote(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('note', { type: () => String, nullable: true }) note: string | null,
  ) {
    // GraphQL omits a null argument: both mean "clear". Same limit as REST.
    if (note && note.length > NOTE_MAX) {
      throw AppException.invalidField('note', 'maxLength', { constraint1: NOTE_MAX });
    }
    return this.people.updateNote(ctx, id, note ?? null);
  }

  /** Federation: every Person reference of one request is loaded in one batch (one SQL query). */
  @ResolveReference()
  resolveReference(ref: { __typename: string; id: string }, context: WithLoaders) {
    context.personLoader ??= new DataLoader<string, Person | null>((ids) =>
      this.people.getMany(readRequestContext(context.req.headers), ids),
    );
    return context.personLoader.load(ref.id);
  }
}
