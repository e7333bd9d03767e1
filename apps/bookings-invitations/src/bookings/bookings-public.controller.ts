import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { BookingCreation } from './booking-creation.service';
import { BookingsService } from './bookings.service';
import { TICKETS_RULE } from './bookings.controller';
import {
  ConfirmationQuery,
  CreateBookingInput,
  PublicCancelTicketsInput,
} from './dto/booking.input';
import { Booking, BookingConfirmation, TicketsCancellation } from './dto/booking.output';

const PUBLIC_DOC =
  '**public**: no API key; the tenant header X-Service-TenantId is required and scopes the ' +
  'request. Rate limited per client address by the gateway (429, Retry-After).';

/** What the gateway answers a client over its rate (the public limits, shared by its replicas). */
const TOO_MANY = {
  status: 429,
  description: 'Too many requests from this client address (gateway); Retry-After says when',
} as const;

const BK1_RULES =
  'The event must be the tenant’s (404), published (409 eventId/eventNotPublished) and not ' +
  'cancelled or completed (409 eventId/eventCancelled, eventCompleted), not started (400 ' +
  'eventId/eventStarted). Each ticket: a ticket type of the ' +
  'event (tickets[i].ticketTypeId/unknownTicketType), active (inactive), on sale now ' +
  '(saleNotStarted, saleEnded); per type at least minPerBooking and at most maxPerBooking ' +
  '(minPerBooking, maxPerBooking); all in one currency (currencyMix). `answers` are checked ' +
  'against the event’s booking form fields: required present (answers.<key>/answerRequired; a ' +
  'required checkbox must be true), of the field’s type (answerType: text, textarea, email, ' +
  'phone, date YYYY-MM-DD as strings, number a number, checkbox a boolean), select values within ' +
  'the options (answerOption), no unknown keys (unknownAnswer); without a form, answers must be ' +
  'empty or absent. `invitationToken`: an invitation to this event (400 unknownInvitation), not ' +
  'rejected or withdrawn (409 invitationNotOpen), not used by another booking (409 ' +
  'invitationUsed); the booking gets the invitation and its person, the invitation becomes ' +
  'accepted. `websiteId`: a website of the event (unknownWebsite).\n\n' +
  'Prices are frozen on each ticket: the type’s gross price, net and tax at the type’s tax rate ' +
  '(else the event’s) on the event’s start day in its zone (no rate known: tax 0); totals are ' +
  'their sums. The event’s cancellation tiers are frozen onto the booking. Never oversells: the ' +
  'quota of each ticket type and the event’s capacity are taken in one conditional update each, ' +
  'late in the transaction; not enough left is a 409 naming the ticket type ' +
  '(tickets[i].ticketTypeId/soldOut) or the event (eventId/capacityReached), and nothing is ' +
  'written. A booking with a gross total above 0 gets the next invoice number of the tenant and ' +
  'year (the booking day in the event’s zone), e.g. 2026-000042, gap-free; payment status ' +
  '`open` (a free booking: `paid`). A confirmation mail to the booker (in the booking’s ' +
  'language: the invitation’s with `invitationToken`, else the Accept-Language) ' +
  'with the invoice and one ticket per participant attached is queued.\n\n' +
  '`Idempotency-Key` (1-200 characters): a retried request with the same key and the same body ' +
  'answers the first booking again (201, header `Idempotent-Replayed: true`); the same key with ' +
  'another body is a 409. Keys are kept at least 24 hours; older keys may be purged.';

/**
 * BK1, BK2, BK23: the public booking, its confirmation and the booker's cancellation of tickets
 * (no API key; the tenant header scopes).
 */
@ApiTags('Bookings (public)')
@Controller('bookings/public')
export class BookingsPublicController {
  constructor(
    private readonly creation: BookingCreation,
    private readonly bookings: BookingsService,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'BK1 Create a booking',
    description: `BK1 ${BK1_RULES}\n\n${PUBLIC_DOC}`,
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1-200 characters' })
  @ApiEnvelope(Booking, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign event' })
  @ApiResponse({
    status: 409,
    description:
      'Not published, cancelled or completed, sold out, fully booked, invitation not usable, Idempotency-Key reused: `errors` names the field and rule',
  })
  @ApiResponse(TOO_MANY)
  async create(
    @Ctx() ctx: RequestContext,
    @Body() body: CreateBookingInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<Booking> {
    const result = await this.creation.create(ctx, body, key);
    if (result.replayed) void res.header('Idempotent-Replayed', 'true');
    return result.booking;
  }

  @Get(':id/confirmation')
  @ApiOperation({
    summary: 'BK2 Confirmation of a booking',
    description:
      'BK2 What the booker sees: the event’s title and start, the tickets with type and ' +
      'participant, totals, status and invoice number. `token` is the confirmationToken of the ' +
      `BK1 answer. Unknown id, another tenant’s booking or a wrong token: the same 404. ${PUBLIC_DOC}`,
  })
  @ApiEnvelope(BookingConfirmation)
  @ApiResponse({ status: 404, description: 'Unknown booking or wrong token' })
  @ApiResponse(TOO_MANY)
  confirmation(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: ConfirmationQuery,
  ): Promise<BookingConfirmation> {
    return this.bookings.confirmation(ctx, id, query.token);
  }

  @Post(':id/tickets/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'BK23 The booker cancels tickets of the booking (ours)',
    description:
      'BK23 Authorised by the booking’s confirmationToken (`token` in the body, as BK2 takes ' +
      'it; in the body, so it stays out of URLs and logs). The fee of the tiers frozen onto the ' +
      `booking always applies (BK7). ${TICKETS_RULE} Unknown id, another tenant’s booking or a ` +
      `wrong token: BK2’s 404. ${PUBLIC_DOC}`,
  })
  @ApiEnvelope(TicketsCancellation)
  @ApiResponse({ status: 404, description: 'Unknown booking or wrong token, or a foreign ticket' })
  @ApiResponse({
    status: 409,
    description: 'Booking cancelled, a ticket cancelled or checked in, a minimum per booking',
  })
  @ApiResponse(TOO_MANY)
  cancelTickets(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: PublicCancelTicketsInput,
  ): Promise<TicketsCancellation> {
    return this.bookings.cancelTicketsPublic(ctx, id, body);
  }
}
