import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { DeleteIdsInput } from '../settings/dto/delete-ids.input';
import { RelationValidation, RelationView } from './dto/relation.dto';
import {
  CreateRelationInput,
  RelationsQuery,
  UpdateRelationInput,
  UpdateRelationItemInput,
} from './dto/relation.input';
import { RelationsChangeService } from './relations-change.service';
import { RelationsService } from './relations.service';

const INVERSE =
  'A relation { personId: B, type: parent } on A reads "B is the parent of A"; the inverse ' +
  '(B: { personId: A, type: child }) is written, changed and removed with it, in one transaction.';

@ApiTags('Relations')
@Controller('people/:id/relations')
export class RelationsController {
  constructor(
    private readonly relations: RelationsService,
    private readonly changes: RelationsChangeService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'R1 All relations of a person',
    description:
      '`category` (business, private) filters; `q` searches the related names; `sort` by ' +
      'dateCreated, typeIdentifier, isFavorite, lastname, firstname (default: favorites first, ' +
      'then oldest first). Unknown person: 404.',
  })
  @ApiEnvelope(RelationView, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: RelationsQuery,
  ): Promise<Paged<RelationView>> {
    return this.relations.list(ctx, id, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'R2 Relate two people',
    description: `${INVERSE} To oneself: 400; the other person unknown (or of another tenant): 404; the same relation again: 409.`,
  })
  @ApiEnvelope(RelationView, 201)
  create(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CreateRelationInput,
  ): Promise<RelationView> {
    return this.relations.create(ctx, id, body);
  }

  // batch and validate routes are declared before `:relationId` so that they are not taken for ids
  @Post('batch')
  @HttpCode(201)
  @ApiOperation({
    summary: 'R5 Create relations to several people',
    description: `Body: an array of R2 bodies (at most 1000), all or nothing; problems name the item (\`[3].personId\`). ${INVERSE}`,
  })
  @ApiBody({ type: [CreateRelationInput] })
  @ApiEnvelope(RelationView, 201, true)
  createMany(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<RelationView[]> {
    return this.relations.createMany(ctx, id, body);
  }

  @Put('batch')
  @ApiOperation({
    summary: 'R6 Update relations of a person',
    description:
      'Body: `[{ id, type: { typeIdentifier?, isFavorite? } }]` (at most 1000), all or nothing. ' +
      "A new type changes the inverse too; isFavorite is this person's own mark.",
  })
  @ApiBody({ type: [UpdateRelationItemInput] })
  @ApiEnvelope(RelationView, 200, true)
  updateMany(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<RelationView[]> {
    return this.changes.updateMany(ctx, id, body);
  }

  @Delete('batch')
  @ApiOperation({
    summary: 'R7 Remove several relations',
    description:
      'Body `{ ids }`; both directions go; all or nothing (an unknown id: 404). Answers the removed relations.',
  })
  @ApiEnvelope(RelationView, 200, true)
  removeMany(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: DeleteIdsInput,
  ): Promise<RelationView[]> {
    return this.changes.removeMany(ctx, id, body);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'R8 Validate a relation',
    description:
      'Runs every check of R2 without writing: 200 `{ valid, errors: [{ field, rule, message }] }` ' +
      '(an unknown other person or an existing relation are errors here). Unknown person of the path: 404.',
  })
  @ApiBody({ type: CreateRelationInput })
  @ApiEnvelope(RelationValidation)
  validate(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<RelationValidation> {
    return this.relations.validate(ctx, id, body);
  }

  @Put(':relationId')
  @ApiOperation({
    summary: 'R3 Update a relation',
    description:
      'Body `{ type: { typeIdentifier?, isFavorite? } }`; a new type changes the inverse too (409 if that relation exists).',
  })
  @ApiEnvelope(RelationView)
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('relationId') relationId: string,
    @Body() body: UpdateRelationInput,
  ): Promise<RelationView> {
    return this.changes.update(ctx, id, relationId, body);
  }

  @Delete(':relationId')
  @ApiOperation({
    summary: 'R4 Remove the relation between two people (both directions)',
    description: 'Answers the removed relation.',
  })
  @ApiEnvelope(RelationView)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('relationId') relationId: string,
  ): Promise<RelationView> {
    return this.changes.remove(ctx, id, relationId);
  }
}
