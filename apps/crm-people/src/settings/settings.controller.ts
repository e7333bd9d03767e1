import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { DeleteIdsInput } from './dto/delete-ids.input';
import { RelationTypeDefinition, SettingsEntry } from './dto/settings-entry.dto';
import {
  CreateSettingsEntryInput,
  DeleteEntriesQuery,
  UpdateSettingsEntryInput,
} from './dto/settings-entry.input';
import { RelationTypesQuery } from './dto/settings.args';
import { BATCH_MAX } from '@crm/errors';
import { LIST_SLUG_NAMES } from './settings-lists';
import { SettingsWriteService } from './settings-write.service';
import { SettingsService } from './settings.service';

const LIST_PARAM = { name: 'list', enum: LIST_SLUG_NAMES, description: 'Unknown list: 404' };
const DELETE_POLICY =
  'System entries cannot be deleted (409). An entry still in use is not deleted: 409 whose ' +
  'message says how many people use it ("used by N people"; orga tags also count touchpoints), ' +
  'with one error per entry (rule entryInUse). With `force=true` the entry is first removed from ' +
  'everything using it in the same transaction: orga/personality tags are taken off people and ' +
  'touchpoints, people with the lifecycle get none (their lifecycle history keeps the old id, ' +
  'shown without text), address types are taken off addresses, company relation types off ' +
  'business cards. Manager roles are referred to by crm-companies only and are deleted without ' +
  'a check; a managed-by relation there keeps the id and shows it without text.';

@ApiTags('People settings')
@Controller('people-settings')
export class SettingsController {
  constructor(
    private readonly reads: SettingsService,
    private readonly writes: SettingsWriteService,
  ) {}

  // Declared before `:list` so that it is not taken for a list name.
  @Get('relation-types')
  @ApiOperation({
    summary: 'R9 The relation types with category and inverse',
    description:
      'System relation types. On person A a relation `{ personId: B, type: parent }` reads ' +
      '"B is the parent of A"; B then holds the inverse `{ personId: A, type: child }`. ' +
      'Names follow Accept-Language.',
  })
  @ApiEnvelope(RelationTypeDefinition, 200, true)
  relationTypes(@Ctx() ctx: RequestContext, @Query() query: RelationTypesQuery) {
    return this.reads.relationTypes(ctx, query.category);
  }

  @Get(':list')
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'S1 The entries of a list',
    description:
      'System entries (read-only, translated by Accept-Language) first, then the tenant entries ' +
      'by position. `q` searches the text; `sort` is `position` (default) or `text` (`-` for ' +
      'descending).',
  })
  @ApiEnvelope(SettingsEntry, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Query() query: PageQuery,
  ): Promise<Paged<SettingsEntry>> {
    return this.reads.list(ctx, list, query);
  }

  @Post(':list')
  @HttpCode(201)
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'S2 Create one or more entries',
    description:
      'Body: one entry (answer: the entry) or an array of up to 1000 (answer: the entries, all ' +
      'or nothing). Text at most 200 characters, unique in the list ignoring case (also against ' +
      'the system entries in every language): 409. `color` (#RRGGBB) only for lifecycles, ' +
      '`category` only for personality tags.',
  })
  @ApiExtraModels(CreateSettingsEntryInput)
  @ApiBody({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(CreateSettingsEntryInput) },
        {
          type: 'array',
          items: { $ref: getSchemaPath(CreateSettingsEntryInput) },
          maxItems: BATCH_MAX,
        },
      ],
    },
  })
  @ApiEnvelope(SettingsEntry, 201)
  create(@Ctx() ctx: RequestContext, @Param('list') list: string, @Body() body: unknown) {
    return this.writes.create(ctx, list, body);
  }

  @Put(':list/:entryId')
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'S3 Update an entry',
    description:
      'Absent fields stay as they are. System entries are read-only (409); same text rules as S2.',
  })
  @ApiEnvelope(SettingsEntry)
  update(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Param('entryId') entryId: string,
    @Body() body: UpdateSettingsEntryInput,
  ): Promise<SettingsEntry> {
    return this.writes.update(ctx, list, entryId, body);
  }

  // Declared before `:entryId` so that "batch" is not taken for an id.
  @Delete(':list/batch')
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'S4 Delete several entries by ids',
    description: `All or nothing; an unknown id is 404. Answers the deleted entries. ${DELETE_POLICY}`,
  })
  @ApiEnvelope(SettingsEntry, 200, true)
  deleteMany(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Body() body: DeleteIdsInput,
    @Query() query: DeleteEntriesQuery,
  ): Promise<SettingsEntry[]> {
    return this.writes.delete(ctx, list, body.ids, query.force);
  }

  @Delete(':list/:entryId')
  @ApiParam(LIST_PARAM)
  @ApiOperation({
    summary: 'S5 Delete one entry',
    description: `Answers the deleted entry. ${DELETE_POLICY}`,
  })
  @ApiEnvelope(SettingsEntry)
  async deleteOne(
    @Ctx() ctx: RequestContext,
    @Param('list') list: string,
    @Param('entryId') entryId: string,
    @Query() query: DeleteEntriesQuery,
  ): Promise<SettingsEntry> {
    return (await this.writes.delete(ctx, list, [entryId], query.force, 'id'))[0];
  }
}
