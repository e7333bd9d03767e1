import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { CreateHoldInput } from './dto/hold.input';
import { SeatHold } from './dto/hold.output';
import { HoldsService } from './holds.service';

const PUBLIC_DOC =
  '**public**: no API key; the tenant header X-Service-TenantId is required and scopes the ' +
  'request. Rate limited per client address by the gateway (429, Retry-After).';

/** BK18-BK20: seat holds (ours: a hold is a booking's first step, BK1 with holdToken the second). */
@ApiTags('Bookings (public)')
@Controller('bookings/public/holds')
export class HoldsPublicController {
  constructor(private readonly holds: HoldsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'BK18 Hold seats (ours)',
    description:
      'BK18 Holds seats of one or more ticket types of an event while the buyer fills in the ' +
      'booking form, for the event’s hold time (holdMinutes, default 15): they count against ' +
      'the quotas and the capacity like sold ones. The same rules as BK1 for the event and ' +
      'the ticket types (open, not started, on sale, per-booking limits, one currency); not ' +
      'enough left is a 409 naming the type (soldOut) or the event (capacityReached); more ' +
      'tickets than the event’s maxTicketsPerBuyer is a 409 naming `tickets` (a hold becomes ' +
      'one booking, and is counted for the booker’s e-mail when booked). BK1 with ' +
      'the answer’s `token` as `holdToken` before `expiresAt` books them (the sale window of a ' +
      'held type no longer applies); at expiry they are back on sale within about a second. ' +
      PUBLIC_DOC,
  })
  @ApiEnvelope(SeatHold, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign event' })
  @ApiResponse({
    status: 409,
    description: 'Sold out, fully booked, not open, over the limit per buyer',
  })
  create(@Ctx() ctx: RequestContext, @Body() body: CreateHoldInput): Promise<SeatHold> {
    return this.holds.create(ctx, body);
  }

  @Get(':token')
  @ApiOperation({
    summary: 'BK19 A seat hold (ours)',
    description: `BK19 The hold’s status (active, confirmed, released, expired), expiry and seats. ${PUBLIC_DOC}`,
  })
  @ApiEnvelope(SeatHold)
  @ApiResponse({ status: 404, description: 'Unknown token or another tenant’s hold' })
  find(@Ctx() ctx: RequestContext, @Param('token') token: string): Promise<SeatHold> {
    return this.holds.find(ctx, token);
  }

  @Delete(':token')
  @HttpCode(204)
  @ApiOperation({
    summary: 'BK20 Release a seat hold (ours)',
    description:
      'BK20 Gives the held seats back at once (the buyer left). Again on a released or ' +
      `expired hold: 204, nothing changes; a hold that became a booking: 409 holdNotActive. ${PUBLIC_DOC}`,
  })
  @ApiResponse({ status: 204, description: 'Released' })
  @ApiResponse({ status: 404, description: 'Unknown token or another tenant’s hold' })
  @ApiResponse({ status: 409, description: 'The hold became a booking' })
  release(@Ctx() ctx: RequestContext, @Param('token') token: string): Promise<void> {
    return this.holds.release(ctx, token);
  }
}
