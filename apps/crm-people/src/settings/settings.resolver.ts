import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { DeleteIdsInput } from './dto/delete-ids.input';
import { RelationTypeDefinition, SettingsEntry, SettingsEntryPage } from './dto/settings-entry.dto';
import { CreateSettingsEntryInput, UpdateSettingsEntryInput } from './dto/settings-entry.input';
import { PeopleSettingsArgs, RelationTypesQuery } from './dto/settings.args';
import { checkObject, orThrow } from '@crm/errors';
import { SettingsWriteService } from './settings-write.service';
import { SettingsService } from './settings.service';

const LIST = { description: 'lifecycles, orga-tags, personality-tags, address-types, ...' };

@Resolver(() => SettingsEntry)
export class SettingsResolver {
  constructor(
    private readonly reads: SettingsService,
    private readonly writes: SettingsWriteService,
  ) {}

  @Query(() => SettingsEntryPage, { description: 'S1 The entries of a people settings list' })
  async peopleSettings(@Ctx() ctx: RequestContext, @Args() args: PeopleSettingsArgs) {
    const { list, ...query } = args;
    const page = await this.reads.list(ctx, list, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => [RelationTypeDefinition], {
    description: 'R9 The relation types with category and inverse',
  })
  relationTypes(@Ctx() ctx: RequestContext, @Args() args: RelationTypesQuery) {
    return this.reads.relationTypes(ctx, args.category);
  }

  @Mutation(() => [SettingsEntry], { description: 'S2 Create one or more entries of a list' })
  async createPeopleSettingsEntries(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    // an array argument passes the validation pipe unchecked: the service checks each item
    @Args('input', { type: () => [CreateSettingsEntryInput] }) input: unknown,
  ) {
    return this.writes.create(ctx, list, input);
  }

  @Mutation(() => SettingsEntry, { description: 'S3 Update an entry' })
  updatePeopleSettingsEntry(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateSettingsEntryInput,
  ) {
    return this.writes.update(ctx, list, id, input);
  }

  @Mutation(() => [SettingsEntry], {
    description: 'S4 Delete several entries (in use: 409 unless force; see the REST description)',
  })
  deletePeopleSettingsEntries(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('ids', { type: () => [ID] }) ids: string[],
    @Args('force', { type: () => Boolean, nullable: true }) force: boolean | null,
  ) {
    const body = orThrow(checkObject(DeleteIdsInput, { ids }));
    return this.writes.delete(ctx, list, body.ids, force ?? false);
  }

  @Mutation(() => SettingsEntry, { description: 'S5 Delete one entry' })
  async deletePeopleSettingsEntry(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('id', { type: () => ID }) id: string,
    @Args('force', { type: () => Boolean, nullable: true }) force: boolean | null,
  ) {
    return (await this.writes.delete(ctx, list, [id], force ?? false, 'id'))[0];
  }
}
