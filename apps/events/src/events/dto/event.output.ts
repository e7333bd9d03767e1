import { Directive, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output shapes of the Event resource (E1-E12). The same classes describe REST (OpenAPI) and
// GraphQL, so both answer with identical field names.

const nullableText = { type: String, nullable: true } as const;

@ObjectType()
export class EventVenue {
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) name!: string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) street!:
    string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) zip!: string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) city!: string | null;
  @ApiPropertyOptional({ ...nullableText, description: 'ISO 3166-1 alpha-2' })
  @Field(() => String, { nullable: true })
  country!: string | null;
}

@ObjectType()
export class EventOnlineMeeting {
  @ApiProperty({ description: 'An id of the online-meeting-platforms vendor list' })
  @Field()
  platformId!: string;
  @ApiProperty() @Field() url!: string;
}

@ObjectType()
export class EventContributor {
  @ApiProperty() @Field() name!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) roleId!: string;
  @ApiPropertyOptional({ ...nullableText, format: 'uuid' })
  @Field(() => ID, { nullable: true })
  personId!: string | null;
}

@ObjectType()
export class EventContactPerson {
  @ApiPropertyOptional({
    ...nullableText,
    format: 'uuid',
    description: 'The template it was copied from',
  })
  @Field(() => ID, { nullable: true })
  templateId!: string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) salutation!:
    string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) firstname!:
    string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) lastname!:
    string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) position!:
    string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) email!: string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) phone!: string | null;
}

@ObjectType()
export class EventTag {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() text!: string;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) color!: string | null;
}

@ObjectType()
@Directive('@key(fields: "id")')
export class Event {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() title!: string;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) subtitle!:
    string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) description!:
    string | null;
  @ApiPropertyOptional({ ...nullableText, format: 'date-time' })
  @Field(() => String, { nullable: true })
  startsAt!: string | null;
  @ApiPropertyOptional({ ...nullableText, format: 'date-time' })
  @Field(() => String, { nullable: true })
  endsAt!: string | null;
  @ApiProperty({ description: 'IANA time zone' }) @Field() timeZone!: string;
  @ApiPropertyOptional({ type: EventVenue, nullable: true })
  @Field(() => EventVenue, { nullable: true })
  venue!: EventVenue | null;
  @ApiPropertyOptional({ type: EventOnlineMeeting, nullable: true })
  @Field(() => EventOnlineMeeting, { nullable: true })
  onlineMeeting!: EventOnlineMeeting | null;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'null: unlimited' })
  @Field(() => Int, { nullable: true })
  capacity!: number | null;
  @ApiPropertyOptional({ ...nullableText, format: 'uuid' })
  @Field(() => ID, { nullable: true })
  categoryId!: string | null;
  @ApiProperty({ type: [EventContributor] })
  @Field(() => [EventContributor])
  contributors!: EventContributor[];
  @ApiPropertyOptional({ type: EventContactPerson, nullable: true })
  @Field(() => EventContactPerson, { nullable: true })
  contactPerson!: EventContactPerson | null;
  @ApiProperty({ type: [EventTag] }) @Field(() => [EventTag]) orgaTags!: EventTag[];
  @ApiProperty({ type: [EventTag] }) @Field(() => [EventTag]) portalTags!: EventTag[];
  @ApiPropertyOptional({ ...nullableText, format: 'uuid' })
  @Field(() => ID, { nullable: true })
  bookingFormFieldSetId!: string | null;
  @ApiPropertyOptional({ ...nullableText, format: 'uuid' })
  @Field(() => ID, { nullable: true })
  cancellationConditionId!: string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) taxRateId!:
    string | null;
  @ApiProperty({ description: 'Minutes a public seat hold keeps its seats (1-1440)' })
  @Field(() => Int, { description: 'Minutes a public seat hold keeps its seats (1-1440)' })
  holdMinutes!: number;
  @ApiProperty({
    description: 'Minutes a waiting-list offer waits to be booked (1-10080, default 1440)',
  })
  @Field(() => Int, {
    description: 'Minutes a waiting-list offer waits to be booked (1-10080, default 1440)',
  })
  waitingListOfferMinutes!: number;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description:
      'Hours after a booking was made until it is cancelled unpaid, without a fee; null: no deadline',
  })
  @Field(() => Int, {
    nullable: true,
    description: 'Hours after a booking until it is cancelled unpaid; null: no deadline',
  })
  paymentDeadlineHours!: number | null;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Hours before the payment deadline the booker is reminded; null: no reminder',
  })
  @Field(() => Int, {
    nullable: true,
    description: 'Hours before the payment deadline the booker is reminded; null: no reminder',
  })
  paymentReminderHours!: number | null;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description:
      'At most this many tickets per booker e-mail over its bookings of the event; null: no limit',
  })
  @Field(() => Int, {
    nullable: true,
    description: 'At most this many tickets per booker e-mail over its bookings; null: no limit',
  })
  maxTicketsPerBuyer!: number | null;
  @ApiPropertyOptional({ ...nullableText, description: 'Internal; set with E10' })
  @Field(() => String, { nullable: true })
  note!: string | null;
  @ApiProperty({ enum: ['draft', 'scheduled', 'cancelled', 'completed'] }) @Field() status!: string;
  @ApiProperty() @Field() published!: boolean;
  @ApiPropertyOptional({ ...nullableText, format: 'date-time' })
  @Field(() => String, { nullable: true })
  publishedAt!: string | null;
  @ApiProperty({ type: [String], format: 'uuid', description: 'Websites it is published on (E11)' })
  @Field(() => [ID])
  websiteIds!: string[];
  @ApiProperty({ description: 'RFC 5545 SEQUENCE: +1 with every change' })
  @Field(() => Int)
  sequence!: number;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) createdBy!:
    string | null;
  @ApiPropertyOptional(nullableText) @Field(() => String, { nullable: true }) modifiedBy!:
    string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class EventPage {
  @Field(() => [Event]) items!: Event[];
  @Field(() => Int, { description: 'Number of events across all pages' }) totalResults!: number;
}

@ObjectType()
export class EventNoteOutput {
  @ApiPropertyOptional({ ...nullableText, maxLength: 10000 })
  @Field(() => String, { nullable: true })
  note!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

/** E5, E6: the events removed. */
@ObjectType()
export class EventsDeleted {
  @ApiProperty({ type: [String], format: 'uuid' })
  @Field(() => [ID])
  deletedIds!: string[];
}

@ObjectType()
export class EventValidationProblem {
  @ApiProperty() @Field() field!: string;
  @ApiProperty() @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

/** E7, E12: every problem found, without writing. */
@ObjectType()
export class EventValidationResult {
  @ApiProperty() @Field() valid!: boolean;
  @ApiProperty({ type: [EventValidationProblem] })
  @Field(() => [EventValidationProblem])
  errors!: EventValidationProblem[];
}
