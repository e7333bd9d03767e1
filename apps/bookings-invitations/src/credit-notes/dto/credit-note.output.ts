import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A line of a credit note: a ticket's reversal (negative) or the fee kept at one rate. */
@ObjectType('CreditNoteLine')
export class CreditNoteLineView {
  @ApiProperty({ enum: ['ticket', 'fee'] }) @Field() kind!: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  ticketId!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  ticketTypeName!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  participant!: string | null;

  @ApiProperty({ example: '19', description: 'Tax rate in percent' }) @Field() rate!: string;
  @ApiProperty({ example: '-100.00' }) @Field() net!: string;
  @ApiProperty({ example: '-19.00' }) @Field() tax!: string;
  @ApiProperty({ example: '-119.00' }) @Field() gross!: string;
}

/** The credit note's net, tax and gross at one tax rate. */
@ObjectType()
export class CreditNoteTax {
  @ApiProperty({ example: '19' }) @Field() rate!: string;
  @ApiProperty({ example: '-90.00' }) @Field() net!: string;
  @ApiProperty({ example: '-17.10' }) @Field() tax!: string;
  @ApiProperty({ example: '-107.10' }) @Field() gross!: string;
}

/** A credit note (cancellation invoice) of a booking (CN1 items, Booking.creditNotes). */
@ObjectType('CreditNote')
export class CreditNoteView {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;

  @ApiProperty({
    example: '2026-C000001',
    description: 'Gap-free per tenant and year, `<year>-C<6 digits>`',
  })
  @Field()
  number!: string;

  @ApiProperty({ format: 'date-time' }) @Field() issuedAt!: string;

  @ApiProperty({ example: '2026-000042', description: 'The invoice it corrects' })
  @Field()
  invoiceNumber!: string;

  @ApiProperty({ example: 'EUR' }) @Field() currency!: string;

  @ApiProperty({
    description: 'booker | organiser | invitation-rejected | event-deleted | payment-overdue',
  })
  @Field()
  reason!: string;

  @ApiProperty({ example: '-90.00' }) @Field() totalNet!: string;
  @ApiProperty({ example: '-17.10' }) @Field() totalTax!: string;

  @ApiProperty({ example: '-107.10', description: '-(cancelled gross - fee)' })
  @Field({ description: '-(cancelled gross - fee)' })
  totalGross!: string;

  @ApiProperty({ example: '11.90', description: 'The cancellation fee kept (gross)' })
  @Field({ description: 'The cancellation fee kept (gross)' })
  fee!: string;

  @ApiProperty({ type: [String], description: 'The cancelled tickets it reverses' })
  @Field(() => [ID])
  ticketIds!: string[];

  @ApiProperty({ type: [CreditNoteTax], description: 'Totals per tax rate, highest first' })
  @Field(() => [CreditNoteTax])
  taxes!: CreditNoteTax[];

  @ApiProperty({ type: [CreditNoteLineView] })
  @Field(() => [CreditNoteLineView])
  lines!: CreditNoteLineView[];
}
