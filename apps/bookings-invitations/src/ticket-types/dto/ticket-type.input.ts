import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageQuery } from '@crm/paging';

const PRICE_DOC =
  'Gross price (what a booker pays, tax included) as a decimal string with at most two ' +
  'decimals; net and tax are derived from it';
const QUOTA_DOC = 'Tickets of this type that can be sold; null: no quota of its own';

/** Set only when given (undefined): update keeps what is not given. */
const given = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);
/** Set only when neither undefined nor null: null clears the field. */
const present = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] != null);

/** K2 PUT: fields not given stay as they are; null clears the nullable ones. */
@InputType('UpdateTicketTypeInput')
export class UpdateTicketTypeInput {
  @ApiPropertyOptional({ maxLength: 200, example: 'Early bird' })
  @Field(() => String, { nullable: true })
  @given('name')
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 5000 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;

  @ApiPropertyOptional({ description: PRICE_DOC, example: '49.00' })
  @Field(() => String, { nullable: true, description: PRICE_DOC })
  @given('price')
  @IsString()
  @MaxLength(20)
  price?: string;

  @ApiPropertyOptional({ description: 'ISO 4217 code', example: 'EUR' })
  @Field(() => String, { nullable: true })
  @given('currency')
  @IsString()
  @MaxLength(3)
  currency?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "An id of the tax-rates vendor list (e.g. de-standard); null: the event's tax rate applies",
  })
  @Field(() => String, { nullable: true })
  @present('taxRateId')
  @IsString()
  @MaxLength(50)
  taxRateId?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, description: QUOTA_DOC })
  @Field(() => Int, { nullable: true })
  @present('quota')
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  quota?: number | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  @present('saleStartsAt')
  @IsISO8601({ strict: true })
  saleStartsAt?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  @present('saleEndsAt')
  @IsISO8601({ strict: true })
  saleEndsAt?: string | null;

  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @Field(() => Int, { nullable: true })
  @given('minPerBooking')
  @IsInt()
  @Min(1)
  @Max(1000)
  minPerBooking?: number;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    description: 'null: no maximum',
  })
  @Field(() => Int, { nullable: true })
  @present('maxPerBooking')
  @IsInt()
  @Min(1)
  @Max(1000)
  maxPerBooking?: number | null;

  @ApiPropertyOptional({ default: true, description: 'An inactive type is not sold' })
  @Field(() => Boolean, { nullable: true })
  @given('active')
  @IsBoolean()
  active?: boolean;
}

/** K1 POST: a ticket type of an event of the tenant. */
@InputType('CreateTicketTypeInput')
export class CreateTicketTypeInput extends UpdateTicketTypeInput {
  @ApiProperty({ format: 'uuid', description: 'The event (of the events service)' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;

  @ApiProperty({ maxLength: 200, example: 'Early bird' })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  declare name: string;

  @ApiProperty({ description: PRICE_DOC, example: '49.00' })
  @Field(() => String, { description: PRICE_DOC })
  @IsDefined()
  @IsString()
  @MaxLength(20)
  declare price: string;

  @ApiProperty({ description: 'ISO 4217 code', example: 'EUR' })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @MaxLength(3)
  declare currency: string;
}

/** K1 GET: the ticket types of one event, paged. */
@ArgsType()
export class TicketTypeListQuery extends PageQuery {
  @ApiProperty({ format: 'uuid', description: 'The event whose ticket types are listed' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;
}
