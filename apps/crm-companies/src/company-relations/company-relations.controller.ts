import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  CompanyRelationsQuery,
  CreateCompanyRelationInput,
  UpdateCompanyRelationInput,
} from './dto/company-relation.input';
import { CompanyRelationView } from './dto/company-relation.output';
import { CompanyRelationsService } from './company-relations.service';

const MODEL =
  'One row per relation: written on the company of the path (from) towards relatedCompanyId ' +
  '(to), read "from is <relationType> of to" (e.g. a subsidiary). Both companies list it: ' +
  'direction outgoing on from, incoming on to.';

@ApiTags('Relations')
@Controller('companies/:id/relations')
export class CompanyRelationsController {
  constructor(private readonly relations: CompanyRelationsService) {}

  @Get()
  @ApiOperation({
    summary: 'C29 The relations of a company to other companies, both directions',
    description:
      `C29 ${MODEL} Paged; \`direction\` (outgoing, incoming) and \`relationTypeId\` filter, ` +
      "`q` searches the other company's name; sort by dateCreated (default), dateModified, " +
      'since, until. Each item names the other company { id, name } and the type { id, text } ' +
      'in the language asked for. Unknown or foreign company: 404.',
  })
  @ApiEnvelope(CompanyRelationView, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: CompanyRelationsQuery,
  ): Promise<Paged<CompanyRelationView>> {
    return this.relations.list(ctx, id, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'C29 Relate a company to another one',
    description:
      `C29 ${MODEL} 400: to itself (relatedCompanyId selfRelation), until before since ` +
      '(until notBefore), a type that is no entry of relation-types (relationType.id ' +
      'unknownEntry). 404: the company of the path or the related one unknown or of another ' +
      'tenant (nothing written). 409: the same relation (from, to, type) exists.',
  })
  @ApiEnvelope(CompanyRelationView, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign company (path or related)' })
  @ApiResponse({ status: 409, description: 'The same relation exists' })
  create(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CreateCompanyRelationInput,
  ): Promise<CompanyRelationView> {
    return this.relations.create(ctx, id, body);
  }

  @Put(':relationId')
  @ApiOperation({
    summary: 'C30 Update a company relation',
    description:
      'C30 From either company (an incoming relation is the same row). Fields not given stay ' +
      'as they are; null clears since, until and note; the companies do not change (delete ' +
      'and relate anew). 400 as C29; 404 unknown or foreign relation; 409 when the new type ' +
      'makes it a relation that exists.',
  })
  @ApiEnvelope(CompanyRelationView)
  @ApiResponse({ status: 404, description: 'Unknown or foreign company or relation' })
  @ApiResponse({ status: 409, description: 'The same relation exists' })
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('relationId') relationId: string,
    @Body() body: UpdateCompanyRelationInput,
  ): Promise<CompanyRelationView> {
    return this.relations.update(ctx, id, relationId, body);
  }

  @Delete(':relationId')
  @ApiOperation({
    summary: 'C30 Delete a company relation',
    description:
      'C30 From either company; it disappears for both. Answers the removed relation. ' +
      'Unknown or foreign company or relation: 404.',
  })
  @ApiEnvelope(CompanyRelationView)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('relationId') relationId: string,
  ): Promise<CompanyRelationView> {
    return this.relations.remove(ctx, id, relationId);
  }
}
