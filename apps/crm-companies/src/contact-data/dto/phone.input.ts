import { Field, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { Trimmed } from './trim';

export const PHONE_TYPES = ['office', 'mobile', 'fax', 'other'] as const;
/** Longest number as typed (spaces, brackets, dashes); the stored E.164 form is at most 16. */
export const PHONE_INPUT_MAX = 50;
export const PHONE_LABEL_MAX = 200;

const NUMBER =
  'As typed: international (+41 44 668 18 00), or national when countryCode names its region';

/** The fields of C19 and C20 besides the number. */
@InputType({ isAbstract: true })
abstract class CompanyPhoneFields {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: PHONE_TYPES,
    description: 'Default (and null on update): office',
  })
  @Field(() => String, { nullable: true, description: 'office, mobile, fax or other' })
  @IsOptional()
  @IsIn(PHONE_TYPES)
  type?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: PHONE_LABEL_MAX })
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(PHONE_LABEL_MAX)
  label?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'DE',
    description:
      'ISO 3166-1 alpha-2 region for reading a national number; not stored. Without it the ' +
      'number must be international (+...)',
  })
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  countryCode?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description:
      'true makes this the favorite number (the previous favorite loses it); false on the ' +
      'favorite hands the status to the first number',
  })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;
}

/** Body of C19 (add a phone number). */
@InputType()
export class CreateCompanyPhoneInput extends CompanyPhoneFields {
  @ApiProperty({ maxLength: PHONE_INPUT_MAX, example: '+49 30 1234567', description: NUMBER })
  @Field({ description: NUMBER })
  @Trimmed()
  @IsDefined()
  @IsString()
  @MaxLength(PHONE_INPUT_MAX)
  number!: string;
}

/** Body of C20: fields left out stay, null clears label (type returns to office). */
@InputType()
export class UpdateCompanyPhoneInput extends CompanyPhoneFields {
  @ApiPropertyOptional({
    type: String,
    maxLength: PHONE_INPUT_MAX,
    example: '+49 30 1234567',
    description: NUMBER,
  })
  @Field(() => String, { nullable: true, description: NUMBER })
  @Trimmed()
  // absent: unchanged; null or blank cannot clear a required column
  @ValidateIf((_, value) => value !== undefined)
  @IsNotEmpty()
  @IsString()
  @MaxLength(PHONE_INPUT_MAX)
  number?: string | null;
}
