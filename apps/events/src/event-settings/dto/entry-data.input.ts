import { Field, Float, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

// The structured `data` of the entries of booking-form-field-sets and cancellation-conditions
// (EventSettingsEntry.data), checked with class-validator: a 400 names the field, e.g.
// `data.fields[2].type`; a field left out is `isDefined` ("is required", not "must be a text").
// The rules class-validator cannot say (keys unique in a set, options
// only for select, distinct daysBeforeStart) are in entry-data.rules.ts.

export const FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'phone',
  'number',
  'date',
  'select',
  'checkbox',
] as const;
export type BookingFormFieldType = (typeof FIELD_TYPES)[number];

export const FIELDS_MAX = 50;
export const OPTIONS_MAX = 50;
export const TIERS_MAX = 20;
export const DAYS_MAX = 3650;
/** A slug: lower-case letters and digits, words joined by `-` or `_`. */
export const FIELD_KEY_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
/** A non-negative amount with at most two decimals ("5.00", "12", "0.5"). */
export const AMOUNT_PATTERN = /^\d{1,10}(?:\.\d{1,2})?$/;

@InputType('BookingFormFieldInput')
@ObjectType()
export class BookingFormField {
  @ApiProperty({ maxLength: 64, example: 'dietary-needs', description: 'Slug, unique in the set' })
  @Field()
  @IsDefined()
  @IsString()
  @MaxLength(64)
  @Matches(FIELD_KEY_PATTERN)
  key!: string;

  @ApiProperty({ maxLength: 200, example: 'Dietary needs' })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  label!: string;

  @ApiProperty({ enum: FIELD_TYPES })
  @Field(() => String, { description: FIELD_TYPES.join(', ') })
  @IsDefined()
  @IsIn(FIELD_TYPES)
  type!: BookingFormFieldType;

  @ApiProperty()
  @Field()
  @IsDefined()
  @IsBoolean()
  required!: boolean;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: OPTIONS_MAX,
    description: 'The choices of a `select` field (1-50); not allowed for other types',
  })
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(OPTIONS_MAX)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(200, { each: true })
  options?: string[];
}

/** `data` of a booking-form-field-sets entry: the fields a booking form asks for. */
@InputType('BookingFormFieldSetDataInput')
@ObjectType()
export class BookingFormFieldSetData {
  @ApiProperty({ type: [BookingFormField], minItems: 1, maxItems: FIELDS_MAX })
  @Field(() => [BookingFormField])
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(FIELDS_MAX)
  @ValidateNested({ each: true })
  @Type(() => BookingFormField)
  fields!: BookingFormField[];
}

/**
 * A tier of a cancellation condition: until `daysBeforeStart` days before the event starts,
 * cancelling costs `feePercent` % of the booking's gross total plus `feeFixed`. A tier's deadline
 * is the start minus daysBeforeStart days in the event's time zone; the tier that applies at a
 * moment is the one with the largest daysBeforeStart whose deadline has not passed. No tier left
 * (all deadlines passed): the fee is the total (no refund). No tiers at all: free until the start.
 * The fee is capped at the total (bookings-invitations BK7, bookings/cancellation-rules.ts).
 */
@InputType('CancellationTierInput')
@ObjectType()
export class CancellationTier {
  @ApiProperty({ minimum: 0, maximum: DAYS_MAX, example: 14 })
  @Field(() => Int)
  @IsDefined()
  @IsInt()
  @Min(0)
  @Max(DAYS_MAX)
  daysBeforeStart!: number;

  @ApiProperty({ minimum: 0, maximum: 100, example: 50, description: 'Up to 2 decimals' })
  @Field(() => Float)
  @IsDefined()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  feePercent!: number;

  @ApiProperty({ example: '5.00', description: 'Decimal string >= 0, up to 2 decimals' })
  @Field()
  @IsDefined()
  @IsString()
  @Matches(AMOUNT_PATTERN)
  feeFixed!: string;
}

/** `data` of a cancellation-conditions entry: its tiers (1-20, distinct daysBeforeStart). */
@InputType('CancellationConditionDataInput')
@ObjectType()
export class CancellationConditionData {
  @ApiProperty({ type: [CancellationTier], minItems: 1, maxItems: TIERS_MAX })
  @Field(() => [CancellationTier])
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TIERS_MAX)
  @ValidateNested({ each: true })
  @Type(() => CancellationTier)
  tiers!: CancellationTier[];
}
