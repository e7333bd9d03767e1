import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { paged, Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { DeleteEventsInput } from './dto/event-note.input';
import { EventInput } from './dto/event.input';
import { Event, EventsDeleted, EventValidationResult } from './dto/event.output';
import { EventsQuery } from './dto/event-query.input';
import { EventsService } from './events.service';

// Fixed paths (/events, /events/batch, /events/validate). Fastify's router prefers them to
// /events/:id whatever the order controllers are registered in.
@ApiTags('Events')
@Controller('events')
export class EventsQueryController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiOperation({
    summary: 'E1 List events',
    description:
      'E1. from/to (ISO 8601) keep the events overlapping [from, to): ending at or after from, starting before to (events without dates overlap nothing). categoryId, published, websiteId narrow the list; q searches title and subtitle (substring, any case). Sort by startsAt (default; events without start last), title, dateCreated; `-` descends; id breaks ties. metaData.totalResults is the total across pages.',
  })
  @ApiEnvelope(Event, 200, true)
  async list(@Ctx() ctx: RequestContext, @Query() query: EventsQuery): Promise<Paged<Event>> {
    const page = await this.events.list(ctx, query);
    return paged(page.items, page.totalResults);
  }

  @Delete('batch')
  @ApiOperation({
    summary: 'E6 Delete several events',
    description:
      'E6. Body { ids }: 1 to 1000, all or nothing. Malformed ids: 400 naming each (`ids[3]`); ids that are not events of the tenant: 404 naming each, nothing deleted. One events.events.deleted message carries every id (bookings-invitations removes their bookings, invitations and tickets).',
  })
  @ApiEnvelope(EventsDeleted)
  @ApiResponse({
    status: 404,
    description: 'Ids that are not events of the tenant; nothing changed',
  })
  deleteMany(@Ctx() ctx: RequestContext, @Body() body: DeleteEventsInput): Promise<EventsDeleted> {
    return this.events.deleteMany(ctx, body.ids);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'E7 Validate an event',
    description:
      'E7. Runs every check of E3 without writing. Always 200: data.valid and data.errors [{ field, rule, message }].',
  })
  @ApiBody({ type: EventInput })
  @ApiEnvelope(EventValidationResult)
  validate(
    @Ctx() ctx: RequestContext,
    @Body() body: Record<string, unknown>,
  ): Promise<EventValidationResult> {
    return this.events.validate(ctx, body);
  }
}
