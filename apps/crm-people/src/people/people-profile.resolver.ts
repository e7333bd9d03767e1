import { Args, ID, Mutation, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { Person } from './dto/person.dto';
import { EmbeddedPersonalityInput, EmbeddedTagInput } from './dto/person.input';
import { PeopleUpdateService } from './people-update.service';

@Resolver(() => Person)
export class PeopleProfileResolver {
  constructor(private readonly updates: PeopleUpdateService) {}

  @Mutation(() => Person, { description: 'P12 Replace the orga tags of a person ([] clears)' })
  replacePersonOrgaTags(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('tags', { type: () => [EmbeddedTagInput] }) tags: unknown[],
  ) {
    return this.updates.replaceTags(ctx, id, 'ORGA', tags);
  }

  @Mutation(() => Person, {
    description: 'P13 Replace the personality tags of a person ([] clears)',
  })
  replacePersonPersonalities(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('personalities', { type: () => [EmbeddedPersonalityInput] }) personalities: unknown[],
  ) {
    return this.updates.replaceTags(ctx, id, 'PERSONALITY', personalities);
  }

  @Mutation(() => Person, {
    description: 'P14 Update the lifecycle (a change is appended to the history; null clears)',
  })
  updatePersonLifecycle(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('lifecycleId', { type: () => ID, nullable: true }) lifecycleId: string | null,
  ) {
    return this.updates.updateLifecycle(ctx, id, lifecycleId ?? null);
  }
}
