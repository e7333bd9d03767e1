import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A mail queued or sent for a booking (BK10 answer, BK17 items). */
@ObjectType()
export class BookingMail {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  eventId!: string | null;

  @ApiProperty({
    description: 'booking-confirmation | invoice | tickets | ticket-free-text | ...',
    example: 'invoice',
  })
  @Field()
  kind!: string;

  @ApiProperty({ description: 'Recipient address' }) @Field() to!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  toName!: string | null;

  @ApiProperty() @Field() subject!: string;

  @ApiProperty({
    description: 'queued (waiting or being retried) | sent | failed (gave up)',
    example: 'queued',
  })
  @Field({ description: 'queued (waiting or being retried) | sent | failed (gave up)' })
  status!: string;

  @ApiProperty({ description: 'Send attempts so far' }) @Field(() => Int) attempts!: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The error of the last failed attempt',
  })
  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  sentAt!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
}

@ObjectType()
export class BookingMailPage {
  @Field(() => [BookingMail]) items!: BookingMail[];
  @Field(() => Int) totalResults!: number;
}

/** BK11 answer: the booking's invoice number and date. */
@ObjectType()
export class BookingInvoiceNumber {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;
  @ApiProperty({ example: 'EXT-2026-0042' }) @Field() invoiceNumber!: string;
  @ApiProperty({ format: 'date-time' }) @Field() invoiceDate!: string;
}
