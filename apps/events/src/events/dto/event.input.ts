import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsISO31661Alpha2,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsTimeZone } from './time-zone.validator';

// Bodies of E3 (create), E4 (update: PUT replaces), E7 (validate). The note (E10), the
// publication (E11) and the audit fields are not accepted here: unknown fields are refused.

export const TITLE_MAX = 200;
export const SUBTITLE_MAX = 300;
export const DESCRIPTION_MAX = 20000;
export const CONTRIBUTORS_MAX = 100;
export const TAGS_MAX = 200;
export const TEXT_MAX = 200;
/** Places of one event: far beyond any venue, well inside a 32-bit column. */
export const CAPACITY_MAX = 1_000_000;
/** Minutes a public seat hold keeps its seats: a day at most. */
export const HOLD_MINUTES_MIN = 1;
export const HOLD_MINUTES_MAX = 1440;
export const HOLD_MINUTES_DEFAULT = 15;
/** Minutes a waiting-list offer (a hold) waits for its taker: a week at most, a day by default. */
export const WAITING_LIST_OFFER_MINUTES_MIN = 1;
export const WAITING_LIST_OFFER_MINUTES_MAX = 10080;
export const WAITING_LIST_OFFER_MINUTES_DEFAULT = 1440;
/** Hours after a booking was made until it is cancelled unpaid: a year at most. */
export const PAYMENT_DEADLINE_HOURS_MAX = 8760;
export const MAX_TICKETS_PER_BUYER_MAX = 1000;
export const EVENT_STATUSES = ['draft', 'scheduled', 'cancelled', 'completed'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** ISO 8601 in UTC with a trailing Z (API.md conventions), e.g. 2026-12-01T18:00:00Z. */
const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;
const trimmedOrNull = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() || null : value;

/** An optional text: absent or null is no value; at most `max` characters after trimming. */
const OptionalText = (max: number) => (target: object, key: string) => {
  Transform(trimmedOrNull)(target, key);
  IsOptional()(target, key);
  IsString()(target, key);
  MaxLength(max)(target, key);
};

@InputType('EventVenueInput')
export class EventVenueInput {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: TEXT_MAX,
    example: 'Kongresshalle',
  })
  @Field(() => String, { nullable: true })
  @OptionalText(TEXT_MAX)
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TEXT_MAX })
  @Field(() => String, { nullable: true })
  @OptionalText(TEXT_MAX)
  street?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 20 })
  @Field(() => String, { nullable: true })
  @OptionalText(20)
  zip?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TEXT_MAX })
  @Field(() => String, { nullable: true })
  @OptionalText(TEXT_MAX)
  city?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'ISO 3166-1 alpha-2 code (DE, AT, ...)',
    example: 'DE',
  })
  @Field(() => String, { nullable: true })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toUpperCase() || null : value,
  )
  @IsOptional()
  @IsString()
  @IsISO31661Alpha2()
  country?: string | null;
}

@InputType('EventOnlineMeetingInput')
export class EventOnlineMeetingInput {
  @ApiProperty({ maxLength: 64, description: 'An id of the online-meeting-platforms vendor list' })
  @Field()
  @Transform(trimmed)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  platformId!: string;

  @ApiProperty({ maxLength: 2000, example: 'https://meet.example.com/abc' })
  @Field()
  @Transform(trimmed)
  @IsDefined()
  @IsString()
  @IsUrl({ require_protocol: true, protocols: ['https'] })
  @MaxLength(2000)
  url!: string;
}

@InputType('EventContributorInput')
export class EventContributorInput {
  @ApiProperty({ maxLength: TEXT_MAX })
  @Field()
  @Transform(trimmed)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(TEXT_MAX)
  name!: string;

  @ApiProperty({ format: 'uuid', description: 'An entry of contributor-roles' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  roleId!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A person of crm-people (not checked)',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  personId?: string | null;
}

@InputType('EventContactPersonInput')
export class EventContactPersonInput {
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'A contact person template of the tenant: the fields that are absent are copied from it',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  templateId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50 })
  @Field(() => String, { nullable: true })
  @OptionalText(50)
  salutation?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TEXT_MAX })
  @Field(() => String, { nullable: true })
  @OptionalText(TEXT_MAX)
  firstname?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TEXT_MAX })
  @Field(() => String, { nullable: true })
  @OptionalText(TEXT_MAX)
  lastname?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TEXT_MAX })
  @Field(() => String, { nullable: true })
  @OptionalText(TEXT_MAX)
  position?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 320 })
  @Field(() => String, { nullable: true })
  @Transform(trimmedOrNull)
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50 })
  @Field(() => String, { nullable: true })
  @OptionalText(50)
  phone?: string | null;
}

/** A tag: by id (an entry of the list), or by text (found in any case, else created). */
@InputType('EventTagInput')
export class EventTagInput {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  id?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: TEXT_MAX,
    description: 'Used when id is absent',
  })
  @Field(() => String, { nullable: true })
  @Transform(trimmed)
  @ValidateIf((o: EventTagInput) => !o.id)
  @IsString()
  @IsNotEmpty()
  @MaxLength(TEXT_MAX)
  text?: string | null;
}

/**
 * Every field of an event body but the title. E4 (PUT) replaces the whole event: a field that is
 * absent is cleared (or takes its default), as it would be on create, except the time zone,
 * which stays.
 */
@InputType({ isAbstract: true })
export abstract class EventFieldsInput {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: SUBTITLE_MAX })
  @Field(() => String, { nullable: true })
  @OptionalText(SUBTITLE_MAX)
  subtitle?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @Field(() => String, { nullable: true })
  @OptionalText(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Start, ISO 8601 in UTC with Z. Required to publish.',
    example: '2026-12-01T18:00:00Z',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @IsISO8601({ strict: true })
  @Matches(UTC_INSTANT)
  startsAt?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'End, ISO 8601 in UTC with Z; after startsAt. Required to publish.',
    example: '2026-12-01T21:00:00Z',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @IsISO8601({ strict: true })
  @Matches(UTC_INSTANT)
  endsAt?: string | null;

  @ApiPropertyOptional({
    maxLength: 64,
    description:
      "IANA time zone the event is held in (Europe/Berlin). Default: the tenant's event settings time zone.",
    example: 'Europe/Berlin',
  })
  @Field(() => String, { nullable: true })
  @Transform(trimmed)
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @IsTimeZone()
  timeZone?: string;

  @ApiPropertyOptional({
    type: EventVenueInput,
    nullable: true,
    description: 'Where it takes place (with or instead of onlineMeeting)',
  })
  @Field(() => EventVenueInput, { nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EventVenueInput)
  venue?: EventVenueInput | null;

  @ApiPropertyOptional({ type: EventOnlineMeetingInput, nullable: true })
  @Field(() => EventOnlineMeetingInput, { nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EventOnlineMeetingInput)
  onlineMeeting?: EventOnlineMeetingInput | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: CAPACITY_MAX,
    description: 'Places; null: unlimited',
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(CAPACITY_MAX)
  capacity?: number | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'An entry of event-categories',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  categoryId?: string | null;

  @ApiPropertyOptional({ type: [EventContributorInput], maxItems: CONTRIBUTORS_MAX })
  @Field(() => [EventContributorInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CONTRIBUTORS_MAX)
  @ValidateNested({ each: true })
  @Type(() => EventContributorInput)
  contributors?: EventContributorInput[];

  @ApiPropertyOptional({ type: EventContactPersonInput, nullable: true })
  @Field(() => EventContactPersonInput, { nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EventContactPersonInput)
  contactPerson?: EventContactPersonInput | null;

  @ApiPropertyOptional({
    type: [EventTagInput],
    maxItems: TAGS_MAX,
    description: 'Entries of orga-tags',
  })
  @Field(() => [EventTagInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TAGS_MAX)
  @ValidateNested({ each: true })
  @Type(() => EventTagInput)
  orgaTags?: EventTagInput[];

  @ApiPropertyOptional({
    type: [EventTagInput],
    maxItems: TAGS_MAX,
    description: 'Entries of portal-tags',
  })
  @Field(() => [EventTagInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TAGS_MAX)
  @ValidateNested({ each: true })
  @Type(() => EventTagInput)
  portalTags?: EventTagInput[];

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'An entry of booking-form-field-sets',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  bookingFormFieldSetId?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'An entry of cancellation-conditions',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  cancellationConditionId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 64,
    description: 'An id of the tax-rates vendor list',
  })
  @Field(() => String, { nullable: true })
  @Transform(trimmedOrNull)
  @IsOptional()
  @IsString()
  @MaxLength(64)
  taxRateId?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: HOLD_MINUTES_MIN,
    maximum: HOLD_MINUTES_MAX,
    default: HOLD_MINUTES_DEFAULT,
    description:
      'Minutes a public seat hold keeps its seats while the buyer fills in the booking form. Absent or null: 15.',
    example: 15,
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(HOLD_MINUTES_MIN)
  @Max(HOLD_MINUTES_MAX)
  holdMinutes?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: WAITING_LIST_OFFER_MINUTES_MIN,
    maximum: WAITING_LIST_OFFER_MINUTES_MAX,
    default: WAITING_LIST_OFFER_MINUTES_DEFAULT,
    description:
      'Minutes a waiting-list offer (seats held for the first fitting entry of a sold-out ticket type) waits to be booked before it passes to the next entry. Absent or null: 1440 (a day).',
    example: 1440,
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(WAITING_LIST_OFFER_MINUTES_MIN)
  @Max(WAITING_LIST_OFFER_MINUTES_MAX)
  waitingListOfferMinutes?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: PAYMENT_DEADLINE_HOURS_MAX,
    description:
      'An unpaid booking is cancelled without a fee this many hours after it was made; null: no deadline',
    example: 72,
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(PAYMENT_DEADLINE_HOURS_MAX)
  paymentDeadlineHours?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: PAYMENT_DEADLINE_HOURS_MAX - 1,
    description:
      'The booker of an unpaid booking is reminded this many hours before the payment deadline: less than paymentDeadlineHours, which it needs; null: no reminder',
    example: 24,
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(PAYMENT_DEADLINE_HOURS_MAX - 1)
  paymentReminderHours?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: MAX_TICKETS_PER_BUYER_MAX,
    description:
      'At most this many tickets per booker e-mail (any case) over all of its bookings of the event, against scalpers; null: no limit',
    example: 4,
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_TICKETS_PER_BUYER_MAX)
  maxTicketsPerBuyer?: number | null;

  @ApiPropertyOptional({ enum: EVENT_STATUSES, default: 'draft' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(EVENT_STATUSES)
  status?: EventStatus;
}

/** E3, E4 body. */
@InputType('EventInput')
export class EventInput extends EventFieldsInput {
  @ApiProperty({ minLength: 1, maxLength: TITLE_MAX, example: 'Winter concert' })
  @Field()
  @Transform(trimmed)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(TITLE_MAX)
  title!: string;
}

/** E7 over GraphQL: the title may be missing, so that it is reported among the errors. */
@InputType('EventDraftInput')
export class EventDraftInput extends EventFieldsInput {
  @Field(() => String, { nullable: true })
  title?: string | null;
}
