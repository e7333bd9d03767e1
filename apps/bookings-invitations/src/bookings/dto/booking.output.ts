import { Directive, Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JSONObject } from '../../common/json-object.scalar';
import { PAYMENT_STATUSES } from '../payment-status';

const AMOUNT_DUE_DOC =
  'What the booker owes now: an open booking its valid tickets’ gross plus the fees of the ' +
  'tickets cancelled; fee_due the cancellation fees; otherwise 0.00';
const PAYMENT_STATUS_DOC =
  'open -> paid | cancelled | fee_due (cancelled unpaid in a fee tier); fee_due -> paid | ' +
  'cancelled; paid -> partially_refunded | refunded; partially_refunded -> refunded';

/**
 * Federation stub of crm-people's Person: this subgraph knows only the id, crm-people resolves
 * the rest (all references of one response in one `_entities` batch). Invitations use it too.
 */
@ObjectType('Person')
@Directive('@key(fields: "id", resolvable: false)')
export class PersonRef {
  @Field(() => ID) id!: string;
}

@ObjectType()
export class BookingBooker {
  @ApiProperty() @Field() firstname!: string;
  @ApiProperty() @Field() lastname!: string;
  @ApiProperty() @Field() email!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'crm-people person',
  })
  @Field(() => ID, { nullable: true })
  personId!: string | null;
}

@ObjectType()
export class BookingParticipant {
  @ApiProperty() @Field() firstname!: string;
  @ApiProperty() @Field() lastname!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  email!: string | null;
}

/** A ticket of a booking with its frozen price. */
@ObjectType()
export class BookingTicket {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) ticketTypeId!: string;
  @ApiProperty() @Field() ticketTypeName!: string;
  @ApiProperty({ example: '119.00' }) @Field() priceGross!: string;
  @ApiProperty({ example: '100.00' }) @Field() priceNet!: string;
  @ApiProperty({ example: '19.00' }) @Field() priceTax!: string;
  @ApiProperty({ example: '19.00' }) @Field() taxRatePercent!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  taxRateId!: string | null;

  @ApiProperty({ enum: ['valid', 'cancelled'] }) @Field() status!: string;
  @ApiProperty({ type: BookingParticipant })
  @Field(() => BookingParticipant)
  participant!: BookingParticipant;
}

/** A booking (BK). */
@ObjectType()
export class Booking {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty({ enum: ['confirmed', 'cancelled'] }) @Field() status!: string;

  @ApiProperty({ enum: PAYMENT_STATUSES, description: PAYMENT_STATUS_DOC })
  @Field()
  paymentStatus!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'An open booking not paid by then is cancelled without a fee (the event’s ' +
      'paymentDeadlineHours, never after its start; BK21 moves it); null: no deadline',
  })
  @Field(() => String, { nullable: true })
  paymentDueAt!: string | null;

  @ApiProperty({ type: BookingBooker }) @Field(() => BookingBooker) booker!: BookingBooker;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'BK9 information about the booker (organiser only; not in public answers)',
  })
  @Field(() => JSONObject, { nullable: true })
  bookerInformation?: Record<string, unknown> | null;

  @ApiProperty({
    description:
      'Language of the mails: the invitation’s when booked with one, else Accept-Language',
  })
  @Field()
  language!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @Field(() => JSONObject, { nullable: true })
  answers!: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  invitationId!: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  websiteId!: string | null;

  @ApiProperty({ example: 'EUR' }) @Field() currency!: string;
  @ApiProperty({ example: '200.00' }) @Field() totalNet!: string;
  @ApiProperty({ example: '38.00' }) @Field() totalTax!: string;
  @ApiProperty({ example: '238.00' }) @Field() totalGross!: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    nullable: true,
    description: 'The cancellation tiers when the booking was made (null: free until the start)',
  })
  @Field(() => [JSONObject], { nullable: true })
  cancellationTiers!: Record<string, unknown>[] | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  cancelledAt!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  cancellationFee!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Paid back over all cancellations (only money received is refunded)',
  })
  @Field(() => String, { nullable: true })
  refundAmount!: string | null;

  @ApiProperty({ example: '24.50', description: AMOUNT_DUE_DOC })
  @Field({ description: AMOUNT_DUE_DOC })
  amountDue!: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-000001' })
  @Field(() => String, { nullable: true })
  invoiceNumber!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  invoiceDate!: string | null;

  @ApiPropertyOptional({
    description: 'BK1 answer only: the secret of the public confirmation (BK2)',
  })
  @Field(() => String, { nullable: true })
  confirmationToken?: string;

  @ApiProperty({ type: [BookingTicket] }) @Field(() => [BookingTicket]) tickets!: BookingTicket[];
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class BookingPage {
  @Field(() => [Booking]) items!: Booking[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType()
export class ConfirmationEvent {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() title!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  startsAt!: string | null;

  @ApiProperty() @Field() timeZone!: string;
}

@ObjectType()
export class ConfirmationTicket {
  @ApiProperty({ format: 'uuid', description: 'For BK23 (cancel tickets)' })
  @Field(() => ID)
  id!: string;
  @ApiProperty() @Field() ticketTypeName!: string;
  @ApiProperty() @Field() participantFirstname!: string;
  @ApiProperty() @Field() participantLastname!: string;
  @ApiProperty() @Field() priceGross!: string;
  @ApiProperty() @Field() status!: string;
}

/** BK2: what the booker sees. */
@ObjectType()
export class BookingConfirmation {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;
  @ApiProperty() @Field() status!: string;
  @ApiProperty() @Field() paymentStatus!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  paymentDueAt!: string | null;
  @ApiProperty({ type: ConfirmationEvent })
  @Field(() => ConfirmationEvent)
  event!: ConfirmationEvent;
  @ApiProperty({ type: [ConfirmationTicket] })
  @Field(() => [ConfirmationTicket])
  tickets!: ConfirmationTicket[];
  @ApiProperty() @Field() currency!: string;
  @ApiProperty() @Field() totalNet!: string;
  @ApiProperty() @Field() totalTax!: string;
  @ApiProperty() @Field() totalGross!: string;
  @ApiProperty({ description: AMOUNT_DUE_DOC }) @Field() amountDue!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  invoiceNumber!: string | null;
}

@ObjectType()
export class BookingDeleted {
  @ApiProperty({ type: [String], description: 'The bookings removed' })
  @Field(() => [ID])
  ids!: string[];
}

@ObjectType()
export class CancellationTierView {
  @ApiProperty() @Field(() => Int) daysBeforeStart!: number;
  @ApiProperty({ type: Number, example: 50, description: 'Percent of the total, as given' })
  @Field(() => Float)
  feePercent!: number;
  @ApiProperty({ example: '5.00' }) @Field() feeFixed!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  deadline!: string | null;
}

/** BK7 */
@ObjectType()
export class CancellationRules {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;
  @ApiProperty({ description: 'The gross total the fee is taken of' }) @Field() total!: string;
  @ApiProperty({ description: 'What cancelling now costs' }) @Field() fee!: string;
  @ApiProperty({
    description: 'What is paid back when cancelling now (0.00 when nothing was paid)',
  })
  @Field()
  refund!: string;
  @ApiProperty({ description: 'The fee owed when cancelling now (an unpaid booking; else 0.00)' })
  @Field()
  feeDue!: string;
  @ApiProperty({ description: `After cancelling now: ${AMOUNT_DUE_DOC}` })
  @Field()
  amountDue!: string;
  @ApiProperty({ type: [String], description: 'The tickets quoted' })
  @Field(() => [ID])
  ticketIds!: string[];
  @ApiProperty() @Field() currency!: string;

  @ApiProperty({ enum: ['free', 'tier', 'noRefund'] })
  @Field()
  rule!: string;

  @ApiPropertyOptional({ type: CancellationTierView, nullable: true })
  @Field(() => CancellationTierView, { nullable: true })
  currentTier!: CancellationTierView | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until when the current rule holds',
  })
  @Field(() => String, { nullable: true })
  deadline!: string | null;

  @ApiPropertyOptional({ type: CancellationTierView, nullable: true })
  @Field(() => CancellationTierView, { nullable: true })
  nextTier!: CancellationTierView | null;
}

/** BK22, BK23: what a cancellation of tickets did. */
@ObjectType()
export class TicketsCancellation {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;
  @ApiProperty({ type: [String], description: 'The tickets cancelled' })
  @Field(() => [ID])
  ticketIds!: string[];
  @ApiProperty({ description: 'This cancellation’s fee' }) @Field() fee!: string;
  @ApiProperty({ description: 'Paid back by it (0.00 when nothing was paid)' })
  @Field()
  refund!: string;
  @ApiProperty({ description: 'Its fee owed (an unpaid booking)' }) @Field() feeDue!: string;
  @ApiProperty({ description: AMOUNT_DUE_DOC }) @Field() amountDue!: string;
  @ApiProperty() @Field() currency!: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) @Field() paymentStatus!: string;
  @ApiProperty({ description: 'The last valid ticket went: the booking is cancelled' })
  @Field()
  bookingCancelled!: boolean;
  @ApiProperty({ type: () => Booking }) @Field(() => Booking) booking!: Booking;
}

/** BK13: one day. */
@ObjectType()
export class BookingStatisticsDay {
  @ApiProperty({ format: 'date', description: "A day in the event's zone" }) @Field() day!: string;
  @ApiProperty({ description: 'Bookings made that day' }) @Field(() => Int) booked!: number;
  @ApiProperty({ description: 'Bookings cancelled that day' }) @Field(() => Int) cancelled!: number;
  @ApiProperty({ description: 'Tickets of the bookings made that day' })
  @Field(() => Int)
  tickets!: number;
  @ApiProperty({ description: 'Net of the bookings made that day, not cancelled since' })
  @Field()
  revenueNet!: string;
  @ApiProperty({ description: 'Gross of the bookings made that day, not cancelled since' })
  @Field()
  revenueGross!: string;
}

@ObjectType()
export class BookingStatistics {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty() @Field() timeZone!: string;
  @ApiProperty({ type: [BookingStatisticsDay] })
  @Field(() => [BookingStatisticsDay])
  days!: BookingStatisticsDay[];
}

@ObjectType()
export class BookingHistoryEntry {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty() @Field() action!: string;
  @ApiProperty({ description: 'The integration, `public` or `system`' }) @Field() actor!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  actorUserId!: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @Field(() => JSONObject, { nullable: true })
  data!: Record<string, unknown> | null;

  @ApiProperty({ format: 'date-time' }) @Field() at!: string;
}

@ObjectType()
export class BookingHistoryPage {
  @Field(() => [BookingHistoryEntry]) items!: BookingHistoryEntry[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType()
export class ConsistencyProblem {
  @ApiProperty() @Field() field!: string;
  @ApiProperty() @Field() expected!: string;
  @ApiProperty() @Field() actual!: string;
}

/** BK15 */
@ObjectType()
export class ConsistencyReport {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;
  @ApiProperty() @Field() consistent!: boolean;
  @ApiProperty({ type: [ConsistencyProblem] })
  @Field(() => [ConsistencyProblem])
  problems!: ConsistencyProblem[];
  @ApiProperty({ type: [ConsistencyProblem], description: 'What the repair changed' })
  @Field(() => [ConsistencyProblem])
  repaired!: ConsistencyProblem[];
}
