import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  CreateTicketTypeInput,
  TicketTypeListQuery,
  UpdateTicketTypeInput,
} from './dto/ticket-type.input';
import { TicketType, TicketTypeDeleted } from './dto/ticket-type.output';
import { TicketTypesService } from './ticket-types.service';

const RULES =
  'price is the gross price (tax included), a decimal string with at most two decimals (rule ' +
  'price); net and tax are derived at the rate of taxRateId (else the event’s) on the event’s ' +
  'start day, rounded half up to cents. currency: an ISO 4217 code (rule currency); taxRateId: ' +
  'an id of the tax-rates vendor list (rule taxRate); saleEndsAt after saleStartsAt (rule ' +
  'salePeriod); maxPerBooking at least minPerBooking (rule maxBelowMin). The event must be the ' +
  "tenant's: 404 otherwise; 503 naming events when this service has no copy of the event yet " +
  'and the events service does not answer.';

@ApiTags('Tickets')
@Controller('tickets')
export class TicketTypesController {
  constructor(private readonly types: TicketTypesService) {}

  @Get()
  @ApiOperation({
    summary: 'K1 List the ticket types of an event',
    description:
      'K1 `eventId` required. Paged; `q` searches the name; sort by name, price, quota, ' +
      'saleStartsAt, saleEndsAt, active, dateCreated (default), dateModified. Unknown or foreign ' +
      'event: 404.',
  })
  @ApiEnvelope(TicketType, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: TicketTypeListQuery,
  ): Promise<Paged<TicketType>> {
    return this.types.list(ctx, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'K1 Create a ticket type', description: `K1 ${RULES}` })
  @ApiEnvelope(TicketType, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign event' })
  @ApiResponse({ status: 503, description: 'The events service did not answer' })
  create(@Ctx() ctx: RequestContext, @Body() body: CreateTicketTypeInput): Promise<TicketType> {
    return this.types.create(ctx, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'K2 Read a ticket type', description: 'K2 Unknown or foreign: 404.' })
  @ApiEnvelope(TicketType)
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<TicketType> {
    return this.types.get(ctx, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'K2 Update a ticket type',
    description: `K2 Fields not given stay as they are; null clears description, taxRateId, quota, the sale period and maxPerBooking. ${RULES}`,
  })
  @ApiEnvelope(TicketType)
  @ApiResponse({ status: 404, description: 'Unknown or foreign ticket type' })
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateTicketTypeInput,
  ): Promise<TicketType> {
    return this.types.update(ctx, id, body);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'K2 Delete a ticket type',
    description:
      'K2 A type with sold (valid) tickets cannot be deleted: 409 naming the count (set it ' +
      'inactive instead). Unknown or foreign: 404.',
  })
  @ApiEnvelope(TicketTypeDeleted)
  @ApiResponse({ status: 409, description: 'The type has sold tickets' })
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<TicketTypeDeleted> {
    return this.types.remove(ctx, id);
  }
}
