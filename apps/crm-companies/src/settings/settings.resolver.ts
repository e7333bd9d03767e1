import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { checkObject, orThrow } from '@crm/errors';
import { Ctx, RequestContext } from '@crm/request-context';
import { CompanySettingsEntry, CompanySettingsEntryPage } from './dto/settings-entry.output';
import {
  CreateCompanySettingsEntryInput,
  DeleteCompanySettingsEntriesInput,
  UpdateCompanySettingsEntryInput,
} from './dto/settings-entry.input';
import { CompanySettingsArgs } from './dto/settings.args';
import { SettingsWriteService } from './settings-write.service';
import { SettingsService } from './settings.service';

const LIST = {
  description:
    'tags, employee-counts, customer-counts, legal-forms, reference-number-types, ' +
    'industry-sectors, relation-types, lifecycles or email-types',
};
const FORCE = {
  type: () => Boolean,
  nullable: true,
  description: 'Remove the entries from everything using them instead of a 409 (see S4 in REST)',
};

@Resolver(() => CompanySettingsEntry)
export class SettingsResolver {
  constructor(
    private readonly reads: SettingsService,
    private readonly writes: SettingsWriteService,
  ) {}

  @Query(() => CompanySettingsEntryPage, {
    description: 'S1 The entries of a company settings list (system entries first)',
  })
  async companySettings(@Ctx() ctx: RequestContext, @Args() args: CompanySettingsArgs) {
    const { list, ...query } = args;
    const page = await this.reads.list(ctx, list, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => [CompanySettingsEntry], {
    description: 'S2 Create one or more entries of a company settings list',
  })
  async createCompanySettingsEntries(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    // an array argument passes the validation pipe unchecked: the service checks each item
    @Args('inputs', { type: () => [CreateCompanySettingsEntryInput] }) inputs: unknown,
  ) {
    return this.writes.create(ctx, list, inputs);
  }

  @Mutation(() => CompanySettingsEntry, { description: 'S3 Update a company settings entry' })
  updateCompanySettingsEntry(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateCompanySettingsEntryInput,
  ) {
    return this.writes.update(ctx, list, id, input);
  }

  @Mutation(() => [CompanySettingsEntry], {
    description: 'S4 Delete several company settings entries (in use: 409 unless force)',
  })
  deleteCompanySettingsEntries(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('ids', { type: () => [ID] }) ids: string[],
    @Args('force', FORCE) force: boolean | null,
  ) {
    const body = orThrow(checkObject(DeleteCompanySettingsEntriesInput, { ids }));
    return this.writes.delete(ctx, list, body.ids, force ?? false);
  }

  @Mutation(() => CompanySettingsEntry, {
    description: 'S5 Delete one company settings entry (in use: 409 unless force)',
  })
  async deleteCompanySettingsEntry(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('id', { type: () => ID }) id: string,
    @Args('force', FORCE) force: boolean | null,
  ) {
    return (await this.writes.delete(ctx, list, [id], force ?? false, 'id'))[0];
  }
}
