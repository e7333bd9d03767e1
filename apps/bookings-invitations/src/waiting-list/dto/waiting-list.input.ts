import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { SUPPORTED_LANGUAGES } from '@crm/i18n';
import { TICKETS_MAX } from '../../bookings/dto/booking.input';

/** Positions an organiser can move an entry to (a larger one is the end of the list). */
export const POSITION_MAX = 100_000;

/** Joining the waiting list of a sold-out ticket type of the event (the path's or argument's). */
@InputType('JoinWaitingListInput')
export class JoinWaitingListInput {
  @ApiProperty({ format: 'uuid', description: 'The sold-out ticket type of the event' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  ticketTypeId!: string;

  @ApiProperty({
    minimum: 1,
    maximum: TICKETS_MAX,
    description: 'Tickets wanted, within the type’s minPerBooking and maxPerBooking',
  })
  @Field(() => Int)
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(TICKETS_MAX)
  quantity!: number;

  @ApiProperty({ maxLength: 254, example: 'ada@example.org' })
  @Field()
  @IsDefined()
  @IsString()
  @MaxLength(254)
  @IsEmail()
  email!: string;

  @ApiProperty({ maxLength: 100, example: 'Ada' })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstname!: string;

  @ApiProperty({ maxLength: 100, example: 'Lovelace' })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastname!: string;

  @ApiPropertyOptional({
    enum: SUPPORTED_LANGUAGES,
    description: 'The language of the offer mail; default: Accept-Language',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(SUPPORTED_LANGUAGES)
  language?: string | null;

  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    description:
      'The website of the event the visitor came from: the offer mail links to its portal',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  websiteId?: string | null;
}

/** Where an organiser puts a waiting entry. */
@InputType('MoveWaitingListEntryInput')
export class MoveWaitingListEntryInput {
  @ApiProperty({
    minimum: 1,
    maximum: POSITION_MAX,
    description: '1-based among the type’s waiting entries; past the end: the last',
  })
  @Field(() => Int)
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(POSITION_MAX)
  position!: number;
}

/** An event's waiting list, optionally one type's. */
@ArgsType()
export class WaitingListQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only this ticket type’s entries' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  ticketTypeId?: string;
}
