import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { JoinWaitingListInput } from './dto/waiting-list.input';
import { WaitingListEntry } from './dto/waiting-list.output';
import { WaitingListService } from './waiting-list.service';

const PUBLIC_DOC =
  '**public**: no API key; the tenant header X-Service-TenantId is required and scopes the ' +
  'request. Rate limited per client address by the gateway (429, Retry-After).';

/** WL1-WL3: a visitor on the waiting list of a sold-out ticket type (ours). */
@ApiTags('Bookings (public)')
@Controller('bookings/public')
export class WaitingListPublicController {
  constructor(private readonly lists: WaitingListService) {}

  @Post('events/:eventId/waiting-list')
  @HttpCode(201)
  @ApiOperation({
    summary: 'WL1 Join a waiting list (ours)',
    description:
      'WL1 Puts the visitor (e-mail, firstname, lastname, language) on the waiting list of a ' +
      'ticket type of the event for `quantity` tickets (within the type’s minPerBooking and ' +
      'maxPerBooking: quantity minPerBooking/maxPerBooking). Only when the type is sold out for ' +
      'the public: could `quantity` be booked now, it is a 409 seatsAvailable (book instead). ' +
      'The same e-mail (any case) waiting for the type already: 409 alreadyWaiting. The event ' +
      'and the type follow BK1’s rules (open 409, started 400, unknown, inactive or off sale ' +
      '400). Answers the entry’s `token` and its `position` (1-based among the type’s waiting ' +
      'entries). Freed seats go to the first waiting entry whose quantity fits, as a hold of ' +
      'that quantity for the event’s waitingListOfferMinutes, announced by a mail linking to ' +
      'the portal (`{websiteUrl}/waiting-list/{token}`); BK1 with the offer’s holdToken books ' +
      `it. ${PUBLIC_DOC}`,
  })
  @ApiEnvelope(WaitingListEntry, 201)
  @ApiResponse({ status: 400, description: 'Bad input, unknown or off-sale type, quantity' })
  @ApiResponse({ status: 404, description: 'Unknown or foreign event' })
  @ApiResponse({ status: 409, description: 'Not sold out, already waiting, event not open' })
  join(
    @Ctx() ctx: RequestContext,
    @Param('eventId') eventId: string,
    @Body() body: JoinWaitingListInput,
  ): Promise<WaitingListEntry> {
    return this.lists.join(ctx, eventId, body);
  }

  @Get('waiting-list/:token')
  @ApiOperation({
    summary: 'WL2 A waiting list entry (ours)',
    description:
      'WL2 The entry’s status (waiting, offered, booked, declined, expired, left, removed), ' +
      'its position while waiting and, while offered, the offer’s holdToken and expiry (BK1 ' +
      `with holdToken books it; the portal’s page of the offer mail serves it so). ${PUBLIC_DOC}`,
  })
  @ApiEnvelope(WaitingListEntry)
  @ApiResponse({ status: 404, description: 'Unknown token or another tenant’s entry' })
  find(@Ctx() ctx: RequestContext, @Param('token') token: string): Promise<WaitingListEntry> {
    return this.lists.find(ctx, token);
  }

  @Delete('waiting-list/:token')
  @HttpCode(204)
  @ApiOperation({
    summary: 'WL3 Leave a waiting list (ours)',
    description:
      'WL3 The visitor leaves the list; an open offer is given back at once (its seats go to ' +
      'the next entry). Again, or on an entry that ended otherwise: 204, nothing changes; an ' +
      `entry whose offer was booked: 409 entryBooked (cancel the booking). ${PUBLIC_DOC}`,
  })
  @ApiResponse({ status: 204, description: 'Left' })
  @ApiResponse({ status: 404, description: 'Unknown token or another tenant’s entry' })
  @ApiResponse({ status: 409, description: 'The offer was booked' })
  leave(@Ctx() ctx: RequestContext, @Param('token') token: string): Promise<void> {
    return this.lists.leave(ctx, token);
  }
}
