import { Field, Float, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

/** Text fields of an address: long enough for any real street, short enough to index and show. */
export const ADDRESS_TEXT_MAX = 200;

/**
 * A reference to a settings entry by id. `text` is accepted so a client can send back what it
 * read ({ id, text }); it is ignored: the text always comes from the list.
 */
@InputType('CardEntryRefInput')
export class CardEntryRefInput {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  id!: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Ignored (read-only)' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_TEXT_MAX)
  text?: string | null;
}

@InputType('CardCoordinatesInput')
export class CardCoordinatesInput {
  @ApiProperty({ minimum: -180, maximum: 180 })
  @Field(() => Float)
  @IsDefined()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  longitude!: number;

  @ApiProperty({ minimum: -90, maximum: 90 })
  @Field(() => Float)
  @IsDefined()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  latitude!: number;
}

@InputType('CardAddressValidationInfoInput')
export class CardAddressValidationInfoInput {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  status?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  deviation?: number | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  lastValidationDate?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  message?: string | null;
}

const textProp = (description?: string) =>
  ApiPropertyOptional({ type: String, nullable: true, maxLength: ADDRESS_TEXT_MAX, description });

/** Body of B11 (create) and B13 (update) of an address; every field optional and nullable. */
@InputType('CardAddressInput')
export class CardAddressInput {
  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description: 'true makes this the favorite address; the previous favorite loses the status',
  })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;

  @ApiPropertyOptional({
    type: [CardEntryRefInput],
    nullable: true,
    description: 'Entries of the tenant list address-types, by id',
  })
  @Field(() => [CardEntryRefInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => CardEntryRefInput)
  addressTypes?: CardEntryRefInput[] | null;

  @textProp()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_TEXT_MAX)
  country?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'DE',
    description: 'ISO 3166-1 alpha-2 (stored upper case)',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  countryCode?: string | null;

  @textProp()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_TEXT_MAX)
  street?: string | null;

  @textProp()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_TEXT_MAX)
  streetAdditional?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 20 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  zip?: string | null;

  @textProp()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_TEXT_MAX)
  city?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  postboxNumber?: string | null;

  @textProp()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_TEXT_MAX)
  federalState?: string | null;

  @textProp()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_TEXT_MAX)
  cityDistrict?: string | null;

  @textProp()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_TEXT_MAX)
  cityAddition?: string | null;

  @ApiPropertyOptional({ type: CardCoordinatesInput, nullable: true })
  @Field(() => CardCoordinatesInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardCoordinatesInput)
  coordinates?: CardCoordinatesInput | null;

  @ApiPropertyOptional({ type: CardAddressValidationInfoInput, nullable: true })
  @Field(() => CardAddressValidationInfoInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardAddressValidationInfoInput)
  validationInfo?: CardAddressValidationInfoInput | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isPostOfficeBox?: boolean | null;
}

/**
 * An address inside a card body (B2, B5). On update the list replaces the card's addresses:
 * an item with the id of one of them updates it in place (the id stays), one without an id is
 * new, and addresses not listed are removed.
 */
@InputType('CardAddressItemInput')
export class CardAddressItemInput extends CardAddressInput {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  id?: string | null;
}
