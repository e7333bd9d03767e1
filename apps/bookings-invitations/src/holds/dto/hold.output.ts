import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const HOLD_STATUSES = ['active', 'confirmed', 'released', 'expired'] as const;

@ObjectType()
export class HeldSeats {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) ticketTypeId!: string;
  @ApiProperty() @Field(() => Int) count!: number;
}

/** A seat hold as the buyer sees it (BK18-BK20). */
@ObjectType('SeatHold')
export class SeatHold {
  @ApiProperty({ description: 'The key to the hold: BK1 `holdToken`, BK19, BK20' })
  @Field()
  token!: string;

  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;

  @ApiProperty({
    enum: HOLD_STATUSES,
    description:
      'active: the seats are held until expiresAt; confirmed: a booking took them; released: ' +
      'given back early; expired: back on sale',
  })
  @Field()
  status!: string;

  @ApiProperty({ format: 'date-time' }) @Field() expiresAt!: string;

  @ApiProperty({ type: [HeldSeats] })
  @Field(() => [HeldSeats])
  tickets!: HeldSeats[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  bookingId!: string | null;
}
