import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { AppException, BATCH_MAX } from '@crm/errors';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { BookingFormFieldSetData, CancellationConditionData } from './dto/entry-data.input';
import {
  CreateEventSettingsEntryInput,
  DeleteEventSettingsEntriesInput,
  DeleteEventSettingsEntriesQuery,
  UpdateEventSettingsEntryInput,
} from './dto/settings-entry.input';
import { EventSettingsEntry } from './dto/settings-entry.output';
import { EventSettingsListReads, EventSettingsListWrites } from './event-settings-lists.service';
import { AD_HOC_SLUG, EVENT_SETTINGS, isVendorListSlug } from './settings-lists';
import { OnlineMeetingPlatformView, TaxRateView } from './vendor-lists/vendor-lists.output';
import { VendorListsService } from './vendor-lists/vendor-lists.service';

const LIST_PARAM = {
  name: 'list',
  enum: EVENT_SETTINGS.slugNames,
  description:
    'A tenant list; an unknown list is a 404 naming the lists. The vendor lists ' +
    '(online-meeting-platforms, tax-rates) and contact-person-templates have routes of their own.',
};
const ENTRY_PARAM = { name: 'entryId', format: 'uuid', description: 'A tenant entry of the list' };
const NOT_FOUND = {
  status: 404,
  description: 'Unknown list, or an entry that is not one of this tenant in this list',
};
const READ_ONLY = {
  status: 409,
  description:
    'A vendor list (online-meeting-platforms, tax-rates) is read-only: every write is a 409 ' +
    'saying so; a system entry (contributor roles) is read-only too; a text taken in the list',
};
const DELETE_POLICY =
  'System entries cannot be deleted (409). An entry still in use is not deleted: 409 whose ' +
  'message says how many events use it ("used by N events"), with one error per entry (rule ' +
  'entryInUse). With `force=true` the entry is first removed from every event using it, in the ' +
  'same transaction: tags are taken off the events; the category, booking form field set or ' +
  'cancellation condition of the events is cleared; contributors keep their place without the ' +
  "role. The events' SEQUENCE grows.";

@ApiTags('Event settings')
@ApiExtraModels(BookingFormFieldSetData, CancellationConditionData)
@Controller('event-settings')
export class EventSettingsListsController {
  constructor(
    private readonly reads: EventSettingsListReads,
    private readonly writes: EventSettingsListWrites,
    private readonly vendor: VendorListsService,
  ) {}

  @Get('online-meeting-platforms')
  @ApiOperation({
    summary: 'ES4 Get a list: online meeting platforms (vendor list)',
    description:
      'ES4. Vendor list, shipped with the service, read-only, the same for every tenant: the ' +
      'platforms an online event can name (`onlineMeeting.platformId`). `other` is translated.',
  })
  @ApiEnvelope(OnlineMeetingPlatformView, 200, true)
  meetingPlatforms(
    @Ctx() ctx: RequestContext,
    @Query() query: PageQuery,
  ): Paged<OnlineMeetingPlatformView> {
    return this.vendor.meetingPlatformPage(ctx, query);
  }

  @Get('tax-rates')
  @ApiOperation({
    summary: 'ES4 Get a list: tax rates (vendor list)',
    description:
      'ES4. Vendor list, shipped with the service, read-only: VAT rates per country and kind ' +
      '(`de-standard`, `de-reduced`, ...), each with its periods (`validFrom`/`validTo`, ISO ' +
      'dates, inclusive) and `rate` as a decimal string; `rate` at the top is the one of today. ' +
      'An event names one by `taxRateId`; the rate that applies is the one of the period ' +
      "covering the event's start date.",
  })
  @ApiEnvelope(TaxRateView, 200, true)
  taxRates(@Ctx() ctx: RequestContext, @Query() query: PageQuery): Paged<TaxRateView> {
    return this.vendor.taxRatePage(ctx, query);
  }

  @Get(':list')
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'ES4 Get a list of the event settings',
    description:
      'ES4 (tenant lists). System entries (read-only, translated by Accept-Language: the ' +
      'contributor roles speaker, moderator, trainer, organizer) first, then the tenant entries ' +
      'by position. `q` searches the text; `sort` is `position` (default) or `text`. Entries ' +
      'of booking-form-field-sets and cancellation-conditions carry their `data`. `orga-tags` is ' +
      'an ad hoc list: events create its entries when they name a tag by text.',
  })
  @ApiEnvelope(EventSettingsEntry, 200, true)
  @ApiResponse(NOT_FOUND)
  list(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Query() query: PageQuery,
  ): Promise<Paged<EventSettingsEntry>> {
    return this.reads.page(ctx, list, query);
  }

  @Post(':list')
  @HttpCode(201)
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'ES5 Create an entry of an event settings list',
    description:
      'ES5. Body: one entry (answer: the entry) or an array of up to 1000 (answer: the entries ' +
      'in input order, all or nothing). Text at most 200 characters, unique in the list ignoring ' +
      'case (409, rule textTaken). `color` (#RRGGBB) only for event categories, orga tags and ' +
      'portal tags (400, rule notForList). `data` as the body schema says. `orga-tags` is an ad ' +
      'hoc list: its entries are created by naming a tag by text on an event, so a create here ' +
      'is a 409; they can be renamed, recoloured and deleted.',
  })
  @ApiExtraModels(CreateEventSettingsEntryInput)
  @ApiBody({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(CreateEventSettingsEntryInput) },
        {
          type: 'array',
          items: { $ref: getSchemaPath(CreateEventSettingsEntryInput) },
          minItems: 1,
          maxItems: BATCH_MAX,
        },
      ],
    },
  })
  @ApiEnvelope(EventSettingsEntry, 201)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(READ_ONLY)
  create(@Ctx() ctx: RequestContext, @Param('list') list: string, @Body() body: unknown) {
    if (isVendorListSlug(list)) throw this.vendor.readOnly(ctx, list);
    if (list === AD_HOC_SLUG)
      throw AppException.conflictOn('list', 'adHoc', 'settings.orgaTags.adHoc');
    return this.writes.createEntries(ctx, list, body);
  }

  @Put(':list/:entryId')
  @ApiParam(LIST_PARAM)
  @ApiParam(ENTRY_PARAM)
  @ApiOperation({
    summary: 'ES5 Update an entry of an event settings list',
    description:
      'ES5. Absent fields stay as they are; null clears the colour; `data` replaces the data. ' +
      'System entries are read-only (409); same rules as create.',
  })
  @ApiEnvelope(EventSettingsEntry)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(READ_ONLY)
  update(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Param('entryId') entryId: string,
    @Body() body: UpdateEventSettingsEntryInput,
  ): Promise<EventSettingsEntry> {
    if (isVendorListSlug(list)) throw this.vendor.readOnly(ctx, list);
    return this.writes.updateEntry(ctx, list, entryId, body);
  }

  // Declared before `:entryId` so that "batch" is not taken for an id.
  @Delete(':list/batch')
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'ES5 Delete several entries of an event settings list by ids',
    description:
      `ES5. Body \`{ ids }\` (1 to 1000 UUIDs). All or nothing; an unknown id is 404. Answers ` +
      `the deleted entries. ${DELETE_POLICY}`,
  })
  @ApiEnvelope(EventSettingsEntry, 200, true)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(READ_ONLY)
  deleteMany(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Body() body: DeleteEventSettingsEntriesInput,
    @Query() query: DeleteEventSettingsEntriesQuery,
  ): Promise<EventSettingsEntry[]> {
    if (isVendorListSlug(list)) throw this.vendor.readOnly(ctx, list);
    return this.writes.deleteEntries(ctx, list, body.ids, query.force, 'ids');
  }

  @Delete(':list/:entryId')
  @ApiParam(LIST_PARAM)
  @ApiParam(ENTRY_PARAM)
  @ApiOperation({
    summary: 'ES5 Delete an entry of an event settings list',
    description: `ES5. Answers the deleted entry. ${DELETE_POLICY}`,
  })
  @ApiEnvelope(EventSettingsEntry)
  @ApiResponse(NOT_FOUND)
  @ApiResponse(READ_ONLY)
  async deleteOne(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Param('entryId') entryId: string,
    @Query() query: DeleteEventSettingsEntriesQuery,
  ): Promise<EventSettingsEntry> {
    if (isVendorListSlug(list)) throw this.vendor.readOnly(ctx, list);
    return (await this.writes.deleteEntries(ctx, list, [entryId], query.force, 'id'))[0];
  }
}
