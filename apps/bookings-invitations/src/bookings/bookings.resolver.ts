import {
  Args,
  Context,
  ID,
  Mutation,
  Parent,
  Query,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import type { FastifyRequest } from 'fastify';
import { checkObject, orThrow } from '@crm/errors';
import { Ctx, RequestContext } from '@crm/request-context';
import { EventRef } from '../ticket-types/dto/ticket-type.output';
import { BookingCreation } from './booking-creation.service';
import { BookingReports } from './booking-reports.service';
import { BookingsService } from './bookings.service';
import {
  BookingListQuery,
  CancelBookingInput,
  CancellationRulesQuery,
  CancelTicketsInput,
  CreateBookingInput,
  DeleteBookingsInput,
  HistoryArgs,
  PublicCancelTicketsInput,
  SetBookerInput,
  SetPaymentDeadlineInput,
  SetPaymentStatusInput,
  StatisticsArgs,
} from './dto/booking.input';
import {
  Booking,
  BookingConfirmation,
  BookingDeleted,
  BookingHistoryPage,
  BookingPage,
  BookingStatistics,
  CancellationRules,
  ConsistencyReport,
  PersonRef,
  TicketsCancellation,
} from './dto/booking.output';

const id = () => Args('id', { type: () => ID });

/** BK1-BK9, BK12-BK15 over GraphQL: the same service methods, the same rules. */
@Resolver(() => Booking)
export class BookingsResolver {
  constructor(
    private readonly creation: BookingCreation,
    private readonly service: BookingsService,
    private readonly reports: BookingReports,
  ) {}

  @Mutation(() => Booking, {
    description:
      'BK1 Create a booking, with the rules of POST /bookings/public (a visitor without a key ' +
      'books over REST; GraphQL through the gateway takes a key like every operation). ' +
      'idempotencyKey works as the REST Idempotency-Key header (a retry answers the first booking)',
  })
  async createBooking(
    @Ctx() ctx: RequestContext,
    @Args('input') input: CreateBookingInput,
    @Args('idempotencyKey', { type: () => String, nullable: true }) key: string | null,
    @Context('req') req: FastifyRequest,
  ) {
    const header = req?.headers?.['idempotency-key'];
    const given = key ?? (typeof header === 'string' ? header : undefined);
    return (await this.creation.create(ctx, input, given ?? undefined)).booking;
  }

  @Query(() => BookingConfirmation, { description: 'BK2 The public confirmation of a booking' })
  bookingConfirmation(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('token') token: string,
  ) {
    return this.service.confirmation(ctx, bookingId, token);
  }

  @Query(() => BookingPage, { description: 'BK3 The tenant’s bookings' })
  async bookings(@Ctx() ctx: RequestContext, @Args() args: BookingListQuery) {
    const page = await this.service.list(ctx, args);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => Booking, { description: 'BK4 A booking' })
  booking(@Ctx() ctx: RequestContext, @id() bookingId: string) {
    return this.service.get(ctx, bookingId);
  }

  @Mutation(() => BookingDeleted, { description: 'BK5 Delete a booking' })
  deleteBooking(@Ctx() ctx: RequestContext, @id() bookingId: string) {
    return this.service.remove(ctx, [bookingId], true);
  }

  @Mutation(() => BookingDeleted, { description: 'BK6 Delete several bookings (all or nothing)' })
  deleteBookings(@Ctx() ctx: RequestContext, @Args('ids', { type: () => [ID] }) ids: string[]) {
    const body = orThrow(checkObject(DeleteBookingsInput, { ids }));
    return this.service.remove(ctx, body.ids, false);
  }

  @Query(() => CancellationRules, {
    description: 'BK7 What cancelling a booking (or ticketIds of it) costs now',
  })
  bookingCancellationRules(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('ticketIds', { type: () => [ID], nullable: true }) ticketIds: string[] | null,
  ) {
    const query = orThrow(
      checkObject(CancellationRulesQuery, { ticketIds: ticketIds ?? undefined }),
    );
    return this.service.cancellationRules(ctx, bookingId, query.ticketIds);
  }

  @Mutation(() => Booking, { description: 'BK8 Cancel a booking with all its tickets' })
  cancelBooking(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('input', { type: () => CancelBookingInput, nullable: true })
    input: CancelBookingInput | null,
  ) {
    return this.service.cancel(ctx, bookingId, input ?? {});
  }

  @Mutation(() => TicketsCancellation, {
    description: 'BK22 Cancel single tickets of a booking (see POST /bookings/{id}/tickets/cancel)',
  })
  cancelBookingTickets(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('input') input: CancelTicketsInput,
  ) {
    return this.service.cancelTickets(ctx, bookingId, input);
  }

  @Mutation(() => TicketsCancellation, {
    description:
      'BK23 The booker cancels tickets with the booking’s confirmation token (see POST ' +
      '/bookings/public/{id}/tickets/cancel; GraphQL through the gateway takes a key like every ' +
      'operation)',
  })
  cancelBookingTicketsWithToken(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('token') token: string,
    @Args('ticketIds', { type: () => [ID] }) ticketIds: string[],
    @Args('reason', { type: () => String, nullable: true }) reason: string | null,
  ) {
    const input = orThrow(checkObject(PublicCancelTicketsInput, { token, ticketIds, reason }));
    return this.service.cancelTicketsPublic(ctx, bookingId, input);
  }

  @Mutation(() => Booking, { description: 'BK9 Set booker information' })
  setBookingBooker(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('input') input: SetBookerInput,
  ) {
    return this.service.setBooker(ctx, bookingId, input);
  }

  @Mutation(() => Booking, { description: 'BK12 Change the payment status' })
  setBookingPaymentStatus(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('input') input: SetPaymentStatusInput,
  ) {
    return this.service.setPaymentStatus(ctx, bookingId, input);
  }

  @Mutation(() => Booking, {
    description:
      'BK21 Set the payment deadline of an open booking (see PUT /bookings/{id}/payment-deadline)',
  })
  setBookingPaymentDeadline(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('input') input: SetPaymentDeadlineInput,
  ) {
    return this.service.setPaymentDeadline(ctx, bookingId, input);
  }

  @Query(() => BookingStatistics, { description: 'BK13 Booking statistics of an event per day' })
  bookingStatistics(@Ctx() ctx: RequestContext, @Args() args: StatisticsArgs) {
    return this.reports.statistics(ctx, args.eventId, args);
  }

  @Query(() => BookingHistoryPage, { description: 'BK14 Booking history of an event' })
  async bookingHistory(@Ctx() ctx: RequestContext, @Args() args: HistoryArgs) {
    const page = await this.reports.history(ctx, args.eventId, args);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => ConsistencyReport, {
    description: 'BK15 Check (and with repair: true, repair) a booking',
  })
  checkBookingConsistency(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('repair', { type: () => Boolean, nullable: true }) repair: boolean | null,
  ) {
    return this.reports.consistency(ctx, bookingId, repair ?? false);
  }

  /** Federation reference to the events subgraph's Event. */
  @ResolveField(() => EventRef)
  event(@Parent() booking: Booking): EventRef {
    return { __typename: 'Event', id: booking.eventId } as EventRef;
  }

  /** Federation reference to crm-people's Person (null: the booker is not a known person). */
  @ResolveField(() => PersonRef, { nullable: true })
  bookerPerson(@Parent() booking: Booking): PersonRef | null {
    return booking.booker.personId
      ? ({ __typename: 'Person', id: booking.booker.personId } as PersonRef)
      : null;
  }
}
