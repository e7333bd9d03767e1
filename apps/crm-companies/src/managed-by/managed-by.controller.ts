import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { CompanyManager } from './dto/company-manager.output';
import {
  CompanyManagersQuery,
  CreateCompanyManagerInput,
  DeleteCompanyManagersInput,
  UpdateCompanyManagerInput,
  UpdateCompanyManagerItemInput,
} from './dto/company-manager.input';
import { ManagedByChangeService } from './managed-by-change.service';
import { ManagedByService } from './managed-by.service';

const CHECKED =
  'Person and manager role are confirmed by crm-people over NATS before anything is written: ' +
  'an unknown manager role -> 400 on managerRoleId, an unknown person (or one of another tenant) ' +
  '-> 404 naming it, crm-people not answering -> 503 naming it; in each case nothing is written.';
const RULES =
  'until must not be before since (400). The same person in the same role twice on a company -> 409. ' +
  'The role is answered as `{ id }`: its text is an entry of GET /people-settings/manager-roles (crm-people).';
const COMPANY = 'Unknown company or one of another tenant: 404.';

@ApiTags('PeopleRelations')
@ApiParam({ name: 'id', description: 'The company', format: 'uuid' })
@ApiResponse({ status: 404, description: 'Unknown company or relation (or another tenant’s)' })
@Controller('companies/:id/managed-by')
export class ManagedByController {
  constructor(
    private readonly managers: ManagedByService,
    private readonly changes: ManagedByChangeService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'M1 List the people managing a company',
    description: `M1. Paged (\`page\`, \`pageSize\`); \`sort\` by dateCreated (default), dateModified, since, until, personId, managerRoleId (\`-\` descending); filters \`personId\`, \`managerRoleId\`. No \`q\`: names live in crm-people. ${COMPANY}`,
  })
  @ApiEnvelope(CompanyManager, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: CompanyManagersQuery,
  ): Promise<Paged<CompanyManager>> {
    return this.managers.list(ctx, id, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'M2 A person manages the company in a manager role',
    description: `M2. Body \`{ personId, managerRoleId, since?, until? }\`. ${CHECKED} ${RULES} ${COMPANY}`,
  })
  @ApiEnvelope(CompanyManager, 201)
  @ApiResponse({ status: 409, description: 'The person already has this role for the company' })
  @ApiResponse({ status: 503, description: 'crm-people did not answer; nothing written' })
  create(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CreateCompanyManagerInput,
  ): Promise<CompanyManager> {
    return this.managers.create(ctx, id, body);
  }

  // batch routes are declared before `:relationId` so that "batch" is not taken for an id
  @Post('batch')
  @HttpCode(201)
  @ApiOperation({
    summary: 'M3 Create several managed-by relations',
    description: `M3. Body: an array of M2 bodies (1 to 1000), all or nothing; every problem names its item (\`[3].until\`). Unknown people -> 404 listing each item (\`[2].personId\`), unknown roles -> 400 listing each item. ${CHECKED} ${RULES}`,
  })
  @ApiBody({ type: [CreateCompanyManagerInput] })
  @ApiEnvelope(CompanyManager, 201, true)
  @ApiResponse({ status: 409, description: 'An item repeats a relation (listed by item)' })
  @ApiResponse({ status: 503, description: 'crm-people did not answer; nothing written' })
  createMany(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<CompanyManager[]> {
    return this.managers.createMany(ctx, id, body);
  }

  @Put('batch')
  @ApiOperation({
    summary: 'M4 Update several managed-by relations',
    description: `M4. Body \`[{ id, personId?, managerRoleId?, since?, until? }]\` (1 to 1000), all or nothing; absent fields stay, null clears since/until. An id of another company or tenant -> 404 naming the item (\`[1].id\`); the same id twice -> 400. Only a changed person or role is asked of crm-people. ${RULES}`,
  })
  @ApiBody({ type: [UpdateCompanyManagerItemInput] })
  @ApiEnvelope(CompanyManager, 200, true)
  @ApiResponse({ status: 409, description: 'An item would repeat a relation (listed by item)' })
  @ApiResponse({ status: 503, description: 'crm-people did not answer; nothing written' })
  updateMany(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<CompanyManager[]> {
    return this.changes.updateMany(ctx, id, body);
  }

  @Delete('batch')
  @ApiOperation({
    summary: 'M6 Delete several managed-by relations',
    description:
      'M6. Body `{ ids }` (1 to 1000), all or nothing: an unknown id, or one of another company or tenant -> 404 naming it (`ids[2]`), nothing deleted. Answers the removed relations.',
  })
  @ApiEnvelope(CompanyManager, 200, true)
  removeMany(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: DeleteCompanyManagersInput,
  ): Promise<CompanyManager[]> {
    return this.changes.removeMany(ctx, id, body);
  }

  @Put(':relationId')
  @ApiOperation({
    summary: 'M5 Update a managed-by relation',
    description: `M5. Body: the fields of M2, each optional; absent fields stay, null clears since/until. Only a changed person or role is asked of crm-people. ${RULES}`,
  })
  @ApiEnvelope(CompanyManager)
  @ApiResponse({ status: 409, description: 'The change would repeat a relation' })
  @ApiResponse({ status: 503, description: 'crm-people did not answer; nothing written' })
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('relationId') relationId: string,
    @Body() body: UpdateCompanyManagerInput,
  ): Promise<CompanyManager> {
    return this.changes.update(ctx, id, relationId, body);
  }

  @Delete(':relationId')
  @ApiOperation({
    summary: 'M7 Delete a managed-by relation',
    description:
      'M7. Answers the removed relation. Unknown relation, or one of another company or tenant: 404.',
  })
  @ApiEnvelope(CompanyManager)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('relationId') relationId: string,
  ): Promise<CompanyManager> {
    return this.changes.remove(ctx, id, relationId);
  }
}
