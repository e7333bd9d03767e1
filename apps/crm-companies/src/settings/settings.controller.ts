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
import { BATCH_MAX } from '@crm/errors';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { CompanySettingsEntry } from './dto/settings-entry.output';
import {
  CreateCompanySettingsEntryInput,
  DeleteCompanySettingsEntriesInput,
  DeleteCompanySettingsEntriesQuery,
  UpdateCompanySettingsEntryInput,
} from './dto/settings-entry.input';
import { LIST_SLUG_NAMES } from './settings-lists';
import { SettingsWriteService } from './settings-write.service';
import { SettingsService } from './settings.service';

const LIST_PARAM = {
  name: 'list',
  enum: LIST_SLUG_NAMES,
  description: 'The settings list; an unknown list is a 404 naming the lists',
};
const ENTRY_PARAM = { name: 'entryId', format: 'uuid', description: 'A tenant entry of the list' };
const NOT_FOUND = {
  status: 404,
  description: 'Unknown list, or an entry that is not one of this tenant in this list',
};
const DELETE_POLICY =
  'System entries cannot be deleted (409). An entry still in use is not deleted: 409 whose ' +
  'message says how many records use it ("used by N companies"; e-mail types count e-mail ' +
  'addresses, relation types company relations), with one error per entry (rule entryInUse). ' +
  'With `force=true` the entry is first removed from everything using it, in the same ' +
  'transaction: tags are taken off the companies; companies with the life cycle get none (their ' +
  'life cycle history keeps the old id); legal form, industry sector, employee count and ' +
  'customer count are cleared on the companies; reference numbers of the type are removed from ' +
  'the companies; e-mail addresses of the type keep no type; company relations of the type are ' +
  'deleted.';

@ApiTags('Company settings')
@Controller('company-settings')
export class CompanySettingsController {
  constructor(
    private readonly reads: SettingsService,
    private readonly writes: SettingsWriteService,
  ) {}

  @Get(':list')
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'S1 The entries of a company settings list',
    description:
      'S1 (company settings). System entries (read-only, translated by Accept-Language) first, ' +
      'then the tenant entries by position. `q` searches the text (system entries in the ' +
      "caller's language); `sort` is `position` (default) or `text` (`-` for descending).",
  })
  @ApiEnvelope(CompanySettingsEntry, 200, true)
  @ApiResponse(NOT_FOUND)
  list(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Query() query: PageQuery,
  ): Promise<Paged<CompanySettingsEntry>> {
    return this.reads.list(ctx, list, query);
  }

  @Post(':list')
  @HttpCode(201)
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'S2 Create one or more company settings entries',
    description:
      'S2 (company settings). Body: one entry (answer: the entry) or an array of up to 1000 ' +
      '(answer: the entries in input order, all or nothing). Text at most 200 characters, ' +
      'unique in the list ignoring case, also against the system entries in every language ' +
      '(409, rule textTaken). `color` (#RRGGBB) only for tags and life cycles, `category` only ' +
      'for industry sectors (400, rule notForList).',
  })
  @ApiExtraModels(CreateCompanySettingsEntryInput)
  @ApiBody({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(CreateCompanySettingsEntryInput) },
        {
          type: 'array',
          items: { $ref: getSchemaPath(CreateCompanySettingsEntryInput) },
          minItems: 1,
          maxItems: BATCH_MAX,
        },
      ],
    },
  })
  @ApiEnvelope(CompanySettingsEntry, 201)
  @ApiResponse(NOT_FOUND)
  @ApiResponse({ status: 409, description: 'A text is taken in the list (ignoring case)' })
  create(@Ctx() ctx: RequestContext, @Param('list') list: string, @Body() body: unknown) {
    return this.writes.create(ctx, list, body);
  }

  @Put(':list/:entryId')
  @ApiParam(LIST_PARAM)
  @ApiParam(ENTRY_PARAM)
  @ApiOperation({
    summary: 'S3 Update a company settings entry',
    description:
      'S3 (company settings), for every list. Absent fields stay as they are; null clears ' +
      'color and category. System entries are read-only (409); same text and field rules as S2.',
  })
  @ApiEnvelope(CompanySettingsEntry)
  @ApiResponse(NOT_FOUND)
  @ApiResponse({ status: 409, description: 'A system entry, or the text is taken in the list' })
  update(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Param('entryId') entryId: string,
    @Body() body: UpdateCompanySettingsEntryInput,
  ): Promise<CompanySettingsEntry> {
    return this.writes.update(ctx, list, entryId, body);
  }

  // Declared before `:entryId` so that "batch" is not taken for an id.
  @Delete(':list/batch')
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'S4 Delete several company settings entries by ids',
    description:
      `S4 (company settings). Body \`{ ids }\` (1 to 1000 UUIDs). All or nothing; an unknown ` +
      `id is 404. Answers the deleted entries. ${DELETE_POLICY}`,
  })
  @ApiEnvelope(CompanySettingsEntry, 200, true)
  @ApiResponse(NOT_FOUND)
  @ApiResponse({ status: 409, description: 'A system entry, or an entry in use without force' })
  deleteMany(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Body() body: DeleteCompanySettingsEntriesInput,
    @Query() query: DeleteCompanySettingsEntriesQuery,
  ): Promise<CompanySettingsEntry[]> {
    return this.writes.delete(ctx, list, body.ids, query.force);
  }

  @Delete(':list/:entryId')
  @ApiParam(LIST_PARAM)
  @ApiParam(ENTRY_PARAM)
  @ApiOperation({
    summary: 'S5 Delete one company settings entry',
    description: `S5 (company settings). Answers the deleted entry. ${DELETE_POLICY}`,
  })
  @ApiEnvelope(CompanySettingsEntry)
  @ApiResponse(NOT_FOUND)
  @ApiResponse({ status: 409, description: 'A system entry, or an entry in use without force' })
  async deleteOne(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Param('entryId') entryId: string,
    @Query() query: DeleteCompanySettingsEntriesQuery,
  ): Promise<CompanySettingsEntry> {
    return (await this.writes.delete(ctx, list, [entryId], query.force, 'id'))[0];
  }
}
