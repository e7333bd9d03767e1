import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsInt,
  IsObject,
  IsUUID,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { TICKETS_MAX } from '../../bookings/dto/booking.input';

@InputType('SeatHoldTicketsInput')
export class HoldTicketsInput {
  @ApiProperty({ format: 'uuid', description: 'A ticket type of the event' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  ticketTypeId!: string;

  @ApiProperty({ minimum: 1, maximum: TICKETS_MAX, description: 'Seats to hold of this type' })
  @Field(() => Int)
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(TICKETS_MAX)
  count!: number;
}

/** BK18: seats to hold while the buyer fills in the booking form. */
@InputType('CreateSeatHoldInput')
export class CreateHoldInput {
  @ApiProperty({ format: 'uuid', description: 'The event (of the events service)' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;

  @ApiProperty({ type: [HoldTicketsInput], minItems: 1, maxItems: TICKETS_MAX })
  @Field(() => [HoldTicketsInput])
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TICKETS_MAX)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => HoldTicketsInput)
  tickets!: HoldTicketsInput[];
}
