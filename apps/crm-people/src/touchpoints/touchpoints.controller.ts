import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  Touchpoint,
  TouchpointsDeleted,
  TouchpointsMoved,
  TouchpointValidation,
} from './dto/touchpoint.dto';
import {
  CreateTouchpointInput,
  MoveTouchpointsInput,
  PriorityInput,
  TouchpointIdsInput,
  TouchpointInput,
  TouchpointMoodInput,
  TouchpointPriorityInput,
  TouchpointTagsInput,
} from './dto/touchpoint.input';
import { TouchpointListQuery } from './dto/touchpoint.query';
import { TouchpointChangesService } from './touchpoint-changes.service';
import { TouchpointPeopleService } from './touchpoint-people.service';
import { TouchpointsService } from './touchpoints.service';

// Fixed paths (batch, tags, priority, move, validate) win over `:id` in Fastify's router, in any
// order of declaration.
@ApiTags('Touchpoints')
@Controller('touchpoints')
export class TouchpointsController {
  constructor(
    private readonly touchpoints: TouchpointsService,
    private readonly changes: TouchpointChangesService,
    private readonly people: TouchpointPeopleService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'T1 List touchpoints',
    description:
      'Filters: personId (involved), companyId, tagId, type, from/to (start within, inclusive), ' +
      'q (subject, description). Sort: start, end, priority, dateCreated, dateModified, subject, ' +
      'type; default -start.',
  })
  @ApiEnvelope(Touchpoint, 200, true)
  list(@Ctx() ctx: RequestContext, @Query() q: TouchpointListQuery): Promise<Paged<Touchpoint>> {
    return this.touchpoints.list(ctx, q);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'T7 Validate a touchpoint',
    description: 'Every check of create, nothing written; answers 200 with the calculated fields.',
  })
  @ApiBody({ type: CreateTouchpointInput })
  @ApiEnvelope(TouchpointValidation)
  validate(
    @Ctx() ctx: RequestContext,
    // not typed as the DTO: the validation pipe must not answer 400 before the checks run
    @Body() body: Record<string, unknown>,
  ): Promise<TouchpointValidation> {
    return this.touchpoints.validate(ctx, body);
  }

  @Post('move')
  @HttpCode(200)
  @ApiOperation({
    summary: 'T14 Move touchpoints from one person to another',
    description:
      "fromPerson's participation passes to toPerson (only dropped where toPerson already takes " +
      'part), for all or the given touchpoints, in one transaction. Also the NATS command ' +
      'crm-people.touchpoints.move.',
  })
  @ApiEnvelope(TouchpointsMoved)
  move(@Ctx() ctx: RequestContext, @Body() body: MoveTouchpointsInput): Promise<TouchpointsMoved> {
    return this.people.move(ctx, body);
  }

  @Post('tags')
  @HttpCode(200)
  @ApiOperation({ summary: 'T8 Add orga tags to selected touchpoints' })
  @ApiEnvelope(Touchpoint, 200, true)
  addTags(@Ctx() ctx: RequestContext, @Body() body: TouchpointTagsInput): Promise<Touchpoint[]> {
    return this.changes.changeTags(ctx, body, 'add');
  }

  @Delete('tags')
  @ApiOperation({ summary: 'T9 Remove orga tags by ids from selected touchpoints' })
  @ApiEnvelope(Touchpoint, 200, true)
  removeTags(@Ctx() ctx: RequestContext, @Body() body: TouchpointTagsInput): Promise<Touchpoint[]> {
    return this.changes.changeTags(ctx, body, 'remove');
  }

  @Delete('batch')
  @ApiOperation({ summary: 'T6 Delete several touchpoints by ids (all or nothing)' })
  @ApiEnvelope(TouchpointsDeleted)
  deleteMany(
    @Ctx() ctx: RequestContext,
    @Body() body: TouchpointIdsInput,
  ): Promise<TouchpointsDeleted> {
    return this.changes.deleteMany(ctx, body);
  }

  @Put('priority')
  @ApiOperation({ summary: 'T11 Update the priority of several touchpoints (all or nothing)' })
  @ApiBody({ type: [TouchpointPriorityInput] })
  @ApiEnvelope(Touchpoint, 200, true)
  setPriorities(
    @Ctx() ctx: RequestContext,
    // an array body: items are validated (by index) in the service
    @Body() body: TouchpointPriorityInput[],
  ): Promise<Touchpoint[]> {
    return this.changes.setPriorities(ctx, body);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'T3 Create a touchpoint',
    description:
      'companyId must name a company of the tenant in crm-companies, asked over NATS before ' +
      'anything is written: unknown -> 400 on companyId (rule unknownCompany), crm-companies ' +
      'not answering -> 503.',
  })
  @ApiEnvelope(Touchpoint, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateTouchpointInput): Promise<Touchpoint> {
    return this.touchpoints.create(ctx, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'T2 Read a touchpoint' })
  @ApiEnvelope(Touchpoint)
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Touchpoint> {
    return this.touchpoints.get(ctx, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'T4 Update a touchpoint',
    description:
      'Replaces every field (omitted optional ones are cleared, priority returns to 3); the mood ' +
      'history stays (add moods with T13).',
  })
  @ApiEnvelope(Touchpoint)
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: TouchpointInput,
  ): Promise<Touchpoint> {
    return this.touchpoints.update(ctx, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'T5 Delete a touchpoint (answers with what was deleted)' })
  @ApiEnvelope(Touchpoint)
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Touchpoint> {
    return this.touchpoints.remove(ctx, id);
  }

  @Delete(':id/people/:personId')
  @ApiOperation({
    summary: 'T10 Remove a person involved from a touchpoint',
    description: 'The last person involved cannot be removed (409).',
  })
  @ApiEnvelope(Touchpoint)
  removePerson(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('personId') personId: string,
  ): Promise<Touchpoint> {
    return this.people.removePerson(ctx, id, personId);
  }

  @Put(':id/priority')
  @ApiOperation({ summary: 'T12 Update the priority of a touchpoint' })
  @ApiEnvelope(Touchpoint)
  setPriority(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: PriorityInput,
  ): Promise<Touchpoint> {
    return this.changes.setPriority(ctx, id, body.priority);
  }

  @Post(':id/moods')
  @HttpCode(201)
  @ApiOperation({ summary: 'T13 Add the current mood to a touchpoint (appends to its history)' })
  @ApiEnvelope(Touchpoint, 201)
  addMood(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: TouchpointMoodInput,
  ): Promise<Touchpoint> {
    return this.changes.addMood(ctx, id, body);
  }
}
