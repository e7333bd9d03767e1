import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IdsInput, PageParam, PageQuery, PageSizeParam, queryBoolean } from '@crm/paging';
import { Transform } from 'class-transformer';
import { JSONObject } from '../../common/json-object.scalar';
import { PAYMENT_STATUSES } from '../payment-status';

export const BOOKING_STATUSES = ['confirmed', 'cancelled'] as const;
/** Most tickets (participants) of one booking. */
export const TICKETS_MAX = 100;

@InputType('BookingPersonInput')
export class BookerInput {
  @ApiProperty({ maxLength: 200, example: 'Ada' })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  firstname!: string;

  @ApiProperty({ maxLength: 200, example: 'Lovelace' })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  lastname!: string;

  @ApiProperty({ maxLength: 320, example: 'ada@example.org' })
  @Field()
  @IsDefined()
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email!: string;
}

@InputType('BookingParticipantInput')
export class ParticipantInput {
  @ApiProperty({ maxLength: 200 })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  firstname!: string;

  @ApiProperty({ maxLength: 200 })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  lastname!: string;

  @ApiPropertyOptional({ maxLength: 320, description: 'Where the ticket may be sent' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email?: string | null;
}

@InputType('BookingTicketInput')
export class BookingTicketInput {
  @ApiProperty({ format: 'uuid', description: 'A ticket type of the event' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  ticketTypeId!: string;

  @ApiProperty({ type: ParticipantInput })
  @Field(() => ParticipantInput)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ParticipantInput)
  participant!: ParticipantInput;
}

/** BK1: a public booking. */
@InputType('CreateBookingInput')
export class CreateBookingInput {
  @ApiProperty({ format: 'uuid', description: 'The event (of the events service)' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;

  @ApiProperty({ type: BookerInput, description: 'Who books (and receives the mails)' })
  @Field(() => BookerInput)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => BookerInput)
  booker!: BookerInput;

  @ApiProperty({
    type: [BookingTicketInput],
    minItems: 1,
    maxItems: TICKETS_MAX,
    description: 'One entry per participant (one ticket each)',
  })
  @Field(() => [BookingTicketInput])
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TICKETS_MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => BookingTicketInput)
  tickets!: BookingTicketInput[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "Answers to the event's booking form, keyed by field key: text/textarea/email/phone/date " +
      '(YYYY-MM-DD)/select: strings, number: a number, checkbox: a boolean',
  })
  @Field(() => JSONObject, { nullable: true })
  @IsOptional()
  @IsObject()
  answers?: Record<string, unknown> | null;

  @ApiPropertyOptional({ maxLength: 64, description: 'The token of an invitation to this event' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  invitationToken?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: 'The website the booking came from' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  websiteId?: string | null;

  @ApiPropertyOptional({
    maxLength: 64,
    description:
      'The token of a seat hold of this event (BK18): the booking takes the held seats (at most ' +
      'as many tickets per type as held; seats held and not booked return to sale)',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  holdToken?: string | null;
}

/** BK3: the tenant's bookings. */
@ArgsType()
export class BookingListQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  eventId?: string;

  @ApiPropertyOptional({ enum: PAYMENT_STATUSES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  paymentStatus?: string;

  @ApiPropertyOptional({ enum: BOOKING_STATUSES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(BOOKING_STATUSES)
  status?: string;
}

/** BK2 */
export class ConfirmationQuery {
  @ApiProperty({ description: 'The confirmationToken of the booking' })
  @IsDefined()
  @IsString()
  @MaxLength(200)
  token!: string;
}

/** BK5 / BK6 batch body. */
@InputType('DeleteBookingsInput')
export class DeleteBookingsInput extends IdsInput({ required: true, each: 'string' }) {}

/** BK8 */
@InputType('CancelBookingInput')
export class CancelBookingInput {
  @ApiPropertyOptional({ maxLength: 1000, description: 'Why (kept in the history)' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string | null;

  @ApiPropertyOptional({
    default: false,
    description: 'true: cancel without a fee (goodwill); otherwise the fee of BK7 applies',
  })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  waiveFee?: boolean;
}

const TICKET_IDS_DOC: ApiPropertyOptions = {
  type: [String],
  format: 'uuid',
  minItems: 1,
  maxItems: TICKETS_MAX,
  description: 'Tickets of this booking to cancel (valid, not checked in; each counted once)',
};

/** BK22: the organiser cancels some tickets of a booking. */
@InputType('CancelBookingTicketsInput')
export class CancelTicketsInput extends CancelBookingInput {
  @ApiProperty(TICKET_IDS_DOC)
  @Field(() => [ID])
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TICKETS_MAX)
  @IsUUID('all', { each: true })
  ticketIds!: string[];
}

/** BK23: the booker cancels some tickets, with the booking's confirmation token. */
export class PublicCancelTicketsInput {
  @ApiProperty({ description: 'The confirmationToken of the booking (BK1’s answer)' })
  @IsDefined()
  @IsString()
  @MaxLength(200)
  token!: string;

  @ApiProperty(TICKET_IDS_DOC)
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TICKETS_MAX)
  @IsUUID('all', { each: true })
  ticketIds!: string[];

  @ApiPropertyOptional({ maxLength: 1000, description: 'Why (kept in the history)' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string | null;
}

/** A comma-separated list of a query (or the parameter repeated) as an array. */
const commaList = ({ value }: { value: unknown }) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
    .map((v) => (typeof v === 'string' ? v.trim() : v));

/** BK7 */
export class CancellationRulesQuery {
  @ApiPropertyOptional({
    type: String,
    description:
      'Comma-separated ids of the booking’s tickets to quote (default: every valid ticket)',
  })
  @IsOptional()
  @Transform(commaList)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TICKETS_MAX)
  @IsUUID('all', { each: true })
  ticketIds?: string[];
}

/** Checked when present: null is refused like any other wrong value (a booker needs a name). */
const given = () => ValidateIf((_o: unknown, v: unknown) => v !== undefined);

/** BK9 */
@InputType('SetBookingBookerInput')
export class SetBookerInput {
  @ApiPropertyOptional({ maxLength: 200 })
  @Field(() => String, { nullable: true })
  @given()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  firstname?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @Field(() => String, { nullable: true })
  @given()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  lastname?: string;

  @ApiPropertyOptional({ maxLength: 320 })
  @Field(() => String, { nullable: true })
  @given()
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A person of crm-people (checked there); null removes the link',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  personId?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'What the organiser keeps about the booker: a JSON object of at most 16 KB (413 above); null clears it',
  })
  @Field(() => JSONObject, { nullable: true })
  @IsOptional()
  @IsObject()
  information?: Record<string, unknown> | null;
}

/** BK12 */
@InputType('SetBookingPaymentStatusInput')
export class SetPaymentStatusInput {
  @ApiProperty({ enum: PAYMENT_STATUSES })
  @Field()
  @IsDefined()
  @IsIn(PAYMENT_STATUSES)
  paymentStatus!: string;

  @ApiPropertyOptional({ maxLength: 1000, description: 'A note kept in the history' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string | null;
}

/** BK21 */
@InputType('SetPaymentDeadlineInput')
export class SetPaymentDeadlineInput {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the unpaid booking is cancelled without a fee: in the future; null: never',
  })
  @Field(() => String, { nullable: true })
  @IsDefined({ message: 'paymentDueAt is required (null removes the deadline)' })
  @ValidateIf((_, v) => v !== null)
  @IsISO8601({ strict: true })
  @MaxLength(40)
  paymentDueAt!: string | null;
}

/** BK13 */
@ArgsType()
export class StatisticsQuery {
  @ApiPropertyOptional({ format: 'date', description: "First day (in the event's zone)" })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  @MaxLength(10)
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: "Last day (in the event's zone), inclusive" })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  @MaxLength(10)
  to?: string;
}

export const HISTORY_ACTIONS = [
  'created',
  'cancelled',
  'tickets-cancelled',
  'deleted',
  'booker-changed',
  'payment-status-changed',
  'invoice-number-set',
  'invoice-mailed',
  'repaired',
  'tickets-status-changed',
  'tickets-resent',
  'checked-in',
  'person-merged',
  'person-deleted',
  'event-deleted',
] as const;

/** BK14 */
@ArgsType()
export class HistoryQuery {
  @PageParam()
  page?: number;

  @PageSizeParam()
  pageSize?: number;

  @ApiPropertyOptional({ format: 'uuid' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  bookingId?: string;

  @ApiPropertyOptional({ enum: HISTORY_ACTIONS })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(HISTORY_ACTIONS)
  action?: string;
}

/** BK15 */
export class ConsistencyQuery {
  @ApiPropertyOptional({ default: false, description: 'true: repair what is found' })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  repair?: boolean;
}

/** BK13 over GraphQL: the event is an argument too. */
@ArgsType()
export class StatisticsArgs extends StatisticsQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  eventId!: string;
}

/** BK14 over GraphQL: the event is an argument too. */
@ArgsType()
export class HistoryArgs extends HistoryQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  eventId!: string;
}
