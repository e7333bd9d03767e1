import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AppException, checkObject, orThrow } from '@crm/errors';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { BookingFormField, CancellationTier } from './dto/entry-data.input';
import {
  EventSettingsEntryInput,
  EventSettingsListArgs,
  entryBody,
} from './dto/settings-entry.gql';
import {
  DeleteEventSettingsEntriesInput,
  UpdateEventSettingsEntryInput,
} from './dto/settings-entry.input';
import { EventSettingsEntry, EventSettingsEntryPage } from './dto/settings-entry.output';
import { UpdateEventSettingsInput } from './dto/settings-object.input';
import { EventSettingsValidationResult, EventSettingsView } from './dto/settings-object.output';
import { EventSettingsListReads, EventSettingsListWrites } from './event-settings-lists.service';
import { EventSettingsObjectService } from './settings-object.service';
import { AD_HOC_SLUG } from './settings-lists';
import { OnlineMeetingPlatformPage, TaxRatePage } from './vendor-lists/vendor-lists.output';
import { VendorListsService } from './vendor-lists/vendor-lists.service';

const LIST = {
  description:
    'booking-form-field-sets, cancellation-conditions, contributor-roles, event-categories, ' +
    'orga-tags or portal-tags',
};
const FORCE = {
  type: () => Boolean,
  nullable: true,
  description: 'Remove the entries from every event using them instead of a 409 (see ES5 in REST)',
};

// Arguments typed as records or unknown so the global pipe leaves them to the services, which
// run the same checks as REST (and name fields as REST does).
@Resolver(() => EventSettingsEntry)
export class EventSettingsResolver {
  constructor(
    private readonly settings: EventSettingsObjectService,
    private readonly reads: EventSettingsListReads,
    private readonly writes: EventSettingsListWrites,
    private readonly vendor: VendorListsService,
  ) {}

  @Query(() => EventSettingsView, { description: 'ES1 The event settings of the current tenant' })
  eventSettings(@Ctx() ctx: RequestContext) {
    return this.settings.get(ctx);
  }

  @Mutation(() => EventSettingsView, {
    description: 'ES2 Replace the event settings (absent fields: defaults)',
  })
  updateEventSettings(
    @Ctx() ctx: RequestContext,
    @Args('input', { type: () => UpdateEventSettingsInput }) input: Record<string, unknown>,
  ) {
    return this.settings.put(ctx, input);
  }

  @Mutation(() => EventSettingsValidationResult, {
    description: 'ES3 Validate the event settings without writing',
  })
  validateEventSettings(
    @Ctx() ctx: RequestContext,
    @Args('input', { type: () => UpdateEventSettingsInput }) input: Record<string, unknown>,
  ) {
    return this.settings.validate(ctx, input);
  }

  @Query(() => EventSettingsEntryPage, {
    description: 'ES4 The entries of a tenant list of the event settings (system entries first)',
  })
  async eventSettingsList(@Ctx() ctx: RequestContext, @Args() args: EventSettingsListArgs) {
    const { list, ...query } = args;
    const page = await this.reads.page(ctx, list, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => OnlineMeetingPlatformPage, {
    description: 'ES4 The online meeting platforms (vendor list, read-only)',
  })
  onlineMeetingPlatforms(@Ctx() ctx: RequestContext, @Args() query: PageQuery) {
    const page = this.vendor.meetingPlatformPage(ctx, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => TaxRatePage, { description: 'ES4 The tax rates (vendor list, read-only)' })
  taxRates(@Ctx() ctx: RequestContext, @Args() query: PageQuery) {
    const page = this.vendor.taxRatePage(ctx, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => [EventSettingsEntry], {
    description: 'ES5 Create one or more entries of a tenant list (all or nothing)',
  })
  async createEventSettingsEntries(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('inputs', { type: () => [EventSettingsEntryInput] }) inputs: unknown,
  ) {
    this.refuseAdHoc(list);
    const raw = Array.isArray(inputs)
      ? inputs.map((i) =>
          i && typeof i === 'object' ? entryBody(i as Record<string, unknown>) : i,
        )
      : inputs;
    return this.writes.createEntries(ctx, list, raw);
  }

  private refuseAdHoc(list: string): void {
    if (list === AD_HOC_SLUG)
      throw AppException.conflictOn('list', 'adHoc', 'settings.orgaTags.adHoc');
  }

  @Mutation(() => EventSettingsEntry, { description: 'ES5 Create an entry of a tenant list' })
  createEventSettingsEntry(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('input', { type: () => EventSettingsEntryInput }) input: Record<string, unknown>,
  ) {
    this.refuseAdHoc(list);
    return this.writes.createEntries(ctx, list, entryBody(input));
  }

  @Mutation(() => EventSettingsEntry, { description: 'ES5 Update an entry of a tenant list' })
  updateEventSettingsEntry(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('id', { type: () => ID }) id: string,
    @Args('input', { type: () => EventSettingsEntryInput }) input: Record<string, unknown>,
  ) {
    const body = orThrow(checkObject(UpdateEventSettingsEntryInput, entryBody(input)));
    return this.writes.updateEntry(ctx, list, id, body);
  }

  @Mutation(() => [EventSettingsEntry], {
    description: 'ES5 Delete entries of a tenant list (in use: 409 unless force)',
  })
  deleteEventSettingsEntries(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('ids', { type: () => [ID] }) ids: string[],
    @Args('force', FORCE) force: boolean | null,
  ) {
    const body = orThrow(checkObject(DeleteEventSettingsEntriesInput, { ids }));
    return this.writes.deleteEntries(ctx, list, body.ids, force ?? false, 'ids');
  }

  @Mutation(() => EventSettingsEntry, {
    description: 'ES5 Delete an entry of a tenant list (in use: 409 unless force)',
  })
  async deleteEventSettingsEntry(
    @Ctx() ctx: RequestContext,
    @Args('list', LIST) list: string,
    @Args('id', { type: () => ID }) id: string,
    @Args('force', FORCE) force: boolean | null,
  ) {
    return (await this.writes.deleteEntries(ctx, list, [id], force ?? false, 'id'))[0];
  }

  @ResolveField(() => [BookingFormField], {
    nullable: true,
    description: 'The fields of a booking form field set; null for other lists',
  })
  bookingFormFields(@Parent() entry: EventSettingsEntry) {
    return (entry.data as { fields?: BookingFormField[] } | null)?.fields ?? null;
  }

  @ResolveField(() => [CancellationTier], {
    nullable: true,
    description: 'The tiers of a cancellation condition; null for other lists',
  })
  cancellationTiers(@Parent() entry: EventSettingsEntry) {
    return (entry.data as { tiers?: CancellationTier[] } | null)?.tiers ?? null;
  }
}
