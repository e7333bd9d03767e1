import { Field, InputType, Int } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsEmail,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

export const CAPACITY_MAX = 1_000_000;

/** Defaults for new events (ES2): each id must name an existing entry; null or absent: none. */
@InputType()
export class EventDefaultsInput {
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: CAPACITY_MAX })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(CAPACITY_MAX)
  capacity?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'event-categories',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsUUID('all')
  categoryId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'booking-form-field-sets',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsUUID('all')
  bookingFormFieldSetId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'cancellation-conditions',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsUUID('all')
  cancellationConditionId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'de-standard',
    description: 'An id of the tax-rates vendor list',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  taxRateId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'A contact person template',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsUUID('all')
  contactPersonTemplateId?: string | null;
}

const text = (max: number, description?: string) =>
  ApiPropertyOptional({ type: String, nullable: true, maxLength: max, description });

/** The sender printed on invoices (ES2): every field optional; null or absent: none. */
@InputType()
export class InvoiceSenderInput {
  @text(200)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string | null;

  @text(200)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  street?: string | null;

  @text(20)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  zip?: string | null;

  @text(200)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  city?: string | null;

  @text(2, 'ISO 3166-1 alpha-2, e.g. DE')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2)
  country?: string | null;

  @text(20, 'VAT identification number, e.g. DE123456789')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  vatId?: string | null;

  @text(30)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(30)
  taxNumber?: string | null;

  @text(320)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  email?: string | null;

  @text(50)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  phone?: string | null;

  @text(42, 'Checked (country, length, checksum); stored without blanks, upper case')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(42)
  iban?: string | null;

  @text(11, 'Checked (8 or 11 characters, country); stored upper case')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(14)
  bic?: string | null;
}

/**
 * ES2 body (PUT replaces): absent fields take their defaults (timeZone Europe/Berlin, currency
 * EUR, no event defaults, no invoice sender). ES3 checks the same without writing.
 */
@InputType()
export class UpdateEventSettingsInput {
  @ApiPropertyOptional({ example: 'Europe/Berlin', description: 'IANA time zone' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timeZone?: string | null;

  @ApiPropertyOptional({ example: 'EUR', description: 'ISO 4217 code' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(3)
  currency?: string | null;

  @ApiPropertyOptional({ type: EventDefaultsInput })
  @Field(() => EventDefaultsInput, { nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EventDefaultsInput)
  eventDefaults?: EventDefaultsInput | null;

  @ApiPropertyOptional({ type: InvoiceSenderInput })
  @Field(() => InvoiceSenderInput, { nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InvoiceSenderInput)
  invoiceSender?: InvoiceSenderInput | null;
}
