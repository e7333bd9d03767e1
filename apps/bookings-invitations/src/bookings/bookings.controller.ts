import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { BookingReports } from './booking-reports.service';
import { BookingsService } from './bookings.service';
import {
  BookingListQuery,
  CancelBookingInput,
  CancellationRulesQuery,
  CancelTicketsInput,
  ConsistencyQuery,
  DeleteBookingsInput,
  HistoryQuery,
  SetBookerInput,
  SetPaymentDeadlineInput,
  SetPaymentStatusInput,
  StatisticsQuery,
} from './dto/booking.input';
import {
  Booking,
  BookingDeleted,
  BookingHistoryEntry,
  BookingStatistics,
  CancellationRules,
  ConsistencyReport,
  TicketsCancellation,
} from './dto/booking.output';

const DELETE_RULE =
  'Frees the seats of the booking’s valid tickets (their codes are revoked). A booking with an ' +
  'invoice number cannot be deleted (409: accounting keeps invoices; cancel it instead, BK8).';

const CANCEL_RULE =
  'The fee comes from the cancellation tiers frozen onto the booking and the event’s current ' +
  'start in its time zone: a tier “until N days before the start: feePercent % + feeFixed” holds ' +
  'until start - N days; the tier that applies is the one with the largest daysBeforeStart ' +
  'whose deadline has not passed; no tier left: the fee is the total (no refund); no tiers at ' +
  'all: free until the start. The fee is feePercent % of the gross total plus feeFixed, rounded ' +
  'half up to cents, capped at the total. Money received (paid, partially_refunded): refund = ' +
  'total - fee; an unpaid (open) booking gets no refund (nothing was paid) and owes the fee ' +
  '(`feeDue`; cancelled whole, its payment status becomes fee_due, or cancelled without a fee).';

/** BK22, BK23: how single tickets are cancelled (organiser and booker alike). */
export const TICKETS_RULE =
  'Each ticket is priced by its own frozen gross: the fee is BK7’s rule applied to the chosen ' +
  'tickets’ gross (feePercent of it plus feeFixed, once per cancellation, capped at it). Every ' +
  'ticket must be one of this booking’s (404 ticketIds[i]/unknownTicket: another booking’s or ' +
  'tenant’s ticket too), valid (409 ticketIds[i]/ticketCancelled) and not checked in (409 ' +
  'ticketIds[i]/ticketCheckedIn); a ticket type with a minimum per booking keeps at least that ' +
  'many tickets or none (409 ticketIds/belowMinPerBooking). Seats are freed at once. Payment ' +
  'status: paid -> partially_refunded while tickets are left, refunded with the last one; open ' +
  'stays open with a lower `amountDue`. The last valid ticket cancels the booking as BK8 does ' +
  '(bookings.cancelled; an unpaid booking owing a fee becomes fee_due); fewer announce ' +
  'tickets.cancelled. The booker gets a mail listing the tickets with the fee and the refund ' +
  '(or the amount still due).';

const PAYMENT_RULE =
  'The payment status is a state machine: open -> paid | cancelled; paid -> partially_refunded ' +
  '| refunded; partially_refunded -> refunded; cancelled and refunded are final. Any other ' +
  'change is a 409 naming both states; setting the current status again changes nothing (200). ' +
  'A free booking starts paid; cancelling an open booking makes it cancelled, a paid one stays ' +
  'paid until the refund is recorded here.';

@ApiTags('Bookings')
@Controller('bookings')
export class BookingsController {
  constructor(
    private readonly bookings: BookingsService,
    private readonly reports: BookingReports,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'BK3 List bookings',
    description:
      'BK3 Filters `eventId`, `paymentStatus`, `status`; `q` searches the booker’s names and ' +
      'e-mail and the invoice number. Sort by dateCreated (default -dateCreated), dateModified, ' +
      'bookerLastname, bookerFirstname, bookerEmail, totalGross, status, paymentStatus, ' +
      'invoiceNumber. Each booking with its tickets.',
  })
  @ApiEnvelope(Booking, 200, true)
  list(@Ctx() ctx: RequestContext, @Query() query: BookingListQuery): Promise<Paged<Booking>> {
    return this.bookings.list(ctx, query);
  }

  @Delete('batch')
  @ApiOperation({
    summary: 'BK6 Delete several bookings',
    description: `BK6 All or nothing, at most 1000 ids; each unknown id is named by its index (ids[i]/unknownBooking, 400), each booking with an invoice number too (409). ${DELETE_RULE}`,
  })
  @ApiEnvelope(BookingDeleted)
  removeMany(
    @Ctx() ctx: RequestContext,
    @Body() body: DeleteBookingsInput,
  ): Promise<BookingDeleted> {
    return this.bookings.remove(ctx, body.ids, false);
  }

  @Get('events/:eventId/statistics')
  @ApiOperation({
    summary: 'BK13 Booking statistics of an event per day',
    description:
      'BK13 Per day in the event’s time zone: bookings made, bookings cancelled (on the day of ' +
      'the cancellation), tickets of the bookings made, and their revenue net and gross (of ' +
      'the bookings made that day that are not cancelled). `from`, `to`: days (YYYY-MM-DD, ' +
      'inclusive) in the event’s zone. Days without activity are left out. Unknown or foreign ' +
      'event: 404.',
  })
  @ApiEnvelope(BookingStatistics)
  statistics(
    @Ctx() ctx: RequestContext,
    @Param('eventId') eventId: string,
    @Query() query: StatisticsQuery,
  ): Promise<BookingStatistics> {
    return this.reports.statistics(ctx, eventId, query);
  }

  @Get('events/:eventId/history')
  @ApiOperation({
    summary: 'BK14 Booking history of an event',
    description:
      'BK14 Every action on the event’s bookings with who (the integration, `public` or ' +
      '`system`) and when, newest first; filters `bookingId`, `action`. Entries of deleted ' +
      'bookings stay. Unknown or foreign event: 404.',
  })
  @ApiEnvelope(BookingHistoryEntry, 200, true)
  history(
    @Ctx() ctx: RequestContext,
    @Param('eventId') eventId: string,
    @Query() query: HistoryQuery,
  ): Promise<Paged<BookingHistoryEntry>> {
    return this.reports.history(ctx, eventId, query);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'BK4 Read a booking',
    description: 'BK4 With its tickets. Unknown or foreign: 404.',
  })
  @ApiEnvelope(Booking)
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Booking> {
    return this.bookings.get(ctx, id);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'BK5 Delete a booking',
    description: `BK5 ${DELETE_RULE} Unknown or foreign: 404.`,
  })
  @ApiEnvelope(BookingDeleted)
  @ApiResponse({ status: 409, description: 'The booking has an invoice number' })
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<BookingDeleted> {
    return this.bookings.remove(ctx, [id], true);
  }

  @Get(':id/cancellation-rules')
  @ApiOperation({
    summary: 'BK7 Current cancellation rules of a booking',
    description: `BK7 What cancelling now costs: fee, refund, fee owed, the tier that applies, until when (deadline) and the tier after it; of every valid ticket, or of \`ticketIds\` (with BK22’s checks of them). ${CANCEL_RULE} A cancelled booking: 409.`,
  })
  @ApiEnvelope(CancellationRules)
  @ApiResponse({ status: 409, description: 'Cancelled, or a quoted ticket not cancellable' })
  cancellationRules(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: CancellationRulesQuery,
  ): Promise<CancellationRules> {
    return this.bookings.cancellationRules(ctx, id, query.ticketIds);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'BK8 Cancel a booking',
    description: `BK8 Applies BK7 (or no fee with waiveFee), cancels every ticket and frees its seat at once, records fee and refund, queues a cancellation mail to the booker and announces bookings.cancelled. ${CANCEL_RULE} Cancelling twice: 409.`,
  })
  @ApiEnvelope(Booking)
  @ApiResponse({ status: 409, description: 'Already cancelled' })
  cancel(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CancelBookingInput,
  ): Promise<Booking> {
    return this.bookings.cancel(ctx, id, body);
  }

  @Post(':id/tickets/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'BK22 Cancel single tickets of a booking (ours)',
    description: `BK22 The organiser cancels \`ticketIds\` (waiveFee: without a fee). ${TICKETS_RULE} ${CANCEL_RULE}`,
  })
  @ApiEnvelope(TicketsCancellation)
  @ApiResponse({ status: 404, description: 'Unknown booking, or a ticket not of this booking' })
  @ApiResponse({
    status: 409,
    description: 'Booking cancelled, a ticket cancelled or checked in, a minimum per booking',
  })
  cancelTickets(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CancelTicketsInput,
  ): Promise<TicketsCancellation> {
    return this.bookings.cancelTickets(ctx, id, body);
  }

  @Put(':id/booker')
  @ApiOperation({
    summary: 'BK9 Set booker information',
    description:
      'BK9 Fields not given stay. `personId`: a person of crm-people (asked over NATS: unknown ' +
      '400 personId/unknownPerson, 503 naming crm-people when it does not answer); null removes ' +
      'the link. `information`: a JSON object of at most 16 KB (413 above); null clears it.',
  })
  @ApiEnvelope(Booking)
  @ApiResponse({ status: 413, description: 'information above 16 KB' })
  @ApiResponse({ status: 503, description: 'crm-people did not answer' })
  setBooker(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: SetBookerInput,
  ): Promise<Booking> {
    return this.bookings.setBooker(ctx, id, body);
  }

  @Put(':id/payment-status')
  @ApiOperation({ summary: 'BK12 Change the payment status', description: `BK12 ${PAYMENT_RULE}` })
  @ApiEnvelope(Booking)
  @ApiResponse({ status: 409, description: 'A transition the state machine does not allow' })
  setPaymentStatus(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: SetPaymentStatusInput,
  ): Promise<Booking> {
    return this.bookings.setPaymentStatus(ctx, id, body);
  }

  @Put(':id/payment-deadline')
  @ApiOperation({
    summary: 'BK21 Set the payment deadline (ours)',
    description:
      'BK21 Moves an open booking’s payment deadline (`paymentDueAt`, set at booking time from ' +
      'the event’s paymentDeadlineHours) or removes it (null). Past it, the sweeper cancels the ' +
      'unpaid booking without a fee within about a second, frees its seats and mails the ' +
      'booker; a reminder (the event’s paymentReminderHours before) is due again for the new ' +
      'deadline. Not in the future: 400 paymentDueAt/notFuture; a paid or cancelled booking: ' +
      '409 notOpenForPayment.',
  })
  @ApiEnvelope(Booking)
  @ApiResponse({ status: 409, description: 'Not an open confirmed booking' })
  setPaymentDeadline(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: SetPaymentDeadlineInput,
  ): Promise<Booking> {
    return this.bookings.setPaymentDeadline(ctx, id, body);
  }

  @Post(':id/consistency-check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'BK15 Check a booking for inconsistencies',
    description:
      'BK15 Compares the booking’s totals with its tickets, each ticket’s net + tax with its ' +
      'gross, the status with the tickets, the invoice number (present iff gross > 0, unless ' +
      'set for an external booking), and the capacity counters of its ticket types and event ' +
      '(sold vs. valid tickets). `repair=true` repairs what it finds (counters recomputed under ' +
      'their row locks) and reports each change in `repaired`; the history records `repaired`.',
  })
  @ApiEnvelope(ConsistencyReport)
  consistencyCheck(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: ConsistencyQuery,
  ): Promise<ConsistencyReport> {
    return this.reports.consistency(ctx, id, query.repair ?? false);
  }
}
