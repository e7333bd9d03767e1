import { Field, Float, InputType } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { Trimmed } from './trim';

export const ADDRESS_TYPES = [
  'headquarters',
  'branch',
  'billing',
  'delivery',
  'postal',
  'other',
] as const;

/** Longest texts, as the columns allow (prisma/crm-companies/schema.prisma). */
export const ADDRESS_MAX = {
  text: 200,
  zip: 20,
  postboxNumber: 50,
} as const;

const text = (maxLength: number, description?: string) =>
  ApiPropertyOptional({ type: String, nullable: true, maxLength, description });

/**
 * Body of C15 (create) and C16 (update) of an address. Every field is optional: on update a
 * field left out stays, null clears it (a flag set to null returns to false). Texts are trimmed.
 */
@InputType()
export class CompanyAddressInput {
  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description:
      'true makes this the favorite address (the previous favorite loses it); false on the ' +
      'favorite hands the status to the first address',
  })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ADDRESS_TYPES })
  @Field(() => String, {
    nullable: true,
    description: 'headquarters, branch, billing, delivery, postal or other',
  })
  @IsOptional()
  @IsIn(ADDRESS_TYPES)
  type?: string | null;

  @text(ADDRESS_MAX.text)
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_MAX.text)
  country?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'DE',
    description: 'ISO 3166-1 alpha-2, any case (stored upper case)',
  })
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  countryCode?: string | null;

  @text(ADDRESS_MAX.text)
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_MAX.text)
  street?: string | null;

  @text(ADDRESS_MAX.text)
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_MAX.text)
  streetAdditional?: string | null;

  @text(ADDRESS_MAX.zip)
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_MAX.zip)
  zip?: string | null;

  @text(ADDRESS_MAX.text)
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_MAX.text)
  city?: string | null;

  @text(ADDRESS_MAX.postboxNumber, 'Required when isPostOfficeBox is true')
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_MAX.postboxNumber)
  postboxNumber?: string | null;

  @text(ADDRESS_MAX.text)
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_MAX.text)
  federalState?: string | null;

  @text(ADDRESS_MAX.text)
  @Field(() => String, { nullable: true })
  @Trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_MAX.text)
  cityDistrict?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description: 'A post office box address; needs postboxNumber',
  })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isPostOfficeBox?: boolean | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: -180,
    maximum: 180,
    description: 'WGS 84 degrees; given together with latitude',
  })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  longitude?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: -90,
    maximum: 90,
    description: 'WGS 84 degrees; given together with longitude',
  })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  latitude?: number | null;
}
