import { Directive, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * An event of the events subgraph, as a federation reference: this subgraph knows only its id;
 * the events subgraph resolves the rest.
 */
@ObjectType('Event')
@Directive('@key(fields: "id", resolvable: false)')
export class EventRef {
  @Field(() => ID) id!: string;
}

/** Net, tax and gross of a ticket type's price at the rate that applies. */
@ObjectType()
export class TicketTypeTax {
  @ApiProperty({ description: "The rate applied: the ticket type's own, else its event's" })
  @Field()
  taxRateId!: string;

  @ApiProperty({ description: 'Percent, two decimals', example: '19.00' })
  @Field()
  rate!: string;

  @ApiProperty({ example: '41.18' }) @Field() net!: string;
  @ApiProperty({ example: '7.82' }) @Field() tax!: string;
  @ApiProperty({ example: '49.00' }) @Field() gross!: string;
}

/** A ticket type of an event (K1, K2). */
@ObjectType()
export class TicketType {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty() @Field() name!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  description!: string | null;

  @ApiProperty({
    description: 'Gross price (tax included), two decimals',
    example: '49.00',
  })
  @Field({ description: 'Gross price (tax included), two decimals' })
  price!: string;

  @ApiProperty({ example: 'EUR' }) @Field() currency!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "The type's own tax rate; null: the event's applies",
  })
  @Field(() => String, { nullable: true })
  taxRateId!: string | null;

  @ApiPropertyOptional({
    type: TicketTypeTax,
    nullable: true,
    description:
      "Net, tax and gross at the type's rate (else the event's) on the event's start day; null " +
      'when no rate applies or none is known for that day',
  })
  @Field(() => TicketTypeTax, { nullable: true })
  tax!: TicketTypeTax | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Int, { nullable: true })
  quota!: number | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  saleStartsAt!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  saleEndsAt!: string | null;

  @ApiProperty() @Field(() => Int) minPerBooking!: number;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Int, { nullable: true })
  maxPerBooking!: number | null;

  @ApiProperty() @Field() active!: boolean;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class TicketTypePage {
  @Field(() => [TicketType]) items!: TicketType[];
  @Field(() => Int) totalResults!: number;
}

/** Answer of K2 DELETE. */
@ObjectType()
export class TicketTypeDeleted {
  @ApiProperty({ format: 'uuid', description: 'The ticket type removed' })
  @Field(() => ID)
  id!: string;
}
