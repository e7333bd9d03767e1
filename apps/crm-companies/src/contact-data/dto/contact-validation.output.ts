import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CompanyAddressFields } from './contact-data.output';

// Answers of the contact-data routes other than the written item: deletes (C17, C21, C25) and
// the validate operations (C18, C22, POST .../emails/validate).

@ObjectType()
export class CompanyContactDeleted {
  @ApiProperty({ format: 'uuid', description: 'The item removed' })
  @Field(() => ID)
  id!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'The item that became the favorite because the favorite was removed (the first remaining ' +
      'one); null when the favorite did not change',
  })
  @Field(() => ID, { nullable: true })
  newFavoriteId!: string | null;
}

@ObjectType()
export class CompanyContactValidationError {
  @ApiProperty({ example: 'number' }) @Field() field!: string;
  @ApiProperty({ example: 'phoneNumber' }) @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

/** The address as the write would store it (texts trimmed, country code upper-cased). */
@ObjectType()
export class CompanyAddressCalculated extends CompanyAddressFields {
  @ApiProperty({ description: 'Whether the address would be the favorite after the write' })
  @Field()
  isFavorite!: boolean;
}

@ObjectType()
export class CompanyAddressValidation {
  @ApiProperty() @Field() valid!: boolean;

  @ApiProperty({ type: [CompanyContactValidationError] })
  @Field(() => [CompanyContactValidationError])
  errors!: CompanyContactValidationError[];

  @ApiPropertyOptional({
    type: CompanyAddressCalculated,
    nullable: true,
    description: 'Set when valid',
  })
  @Field(() => CompanyAddressCalculated, { nullable: true })
  calculated!: CompanyAddressCalculated | null;
}

/** A phone number as libphonenumber-js reads it. */
@ObjectType()
export class CompanyPhoneCalculated {
  @ApiProperty({ example: '+493012345678', description: 'As stored' })
  @Field()
  e164!: string;

  @ApiProperty({ example: '030 12345678' }) @Field() national!: string;
  @ApiProperty({ example: '+49 30 12345678' }) @Field() international!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'DE',
    description: 'ISO 3166-1 alpha-2; null for non-geographic numbers',
  })
  @Field(() => String, { nullable: true })
  country!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'FIXED_LINE',
    description:
      'FIXED_LINE, MOBILE, FIXED_LINE_OR_MOBILE, TOLL_FREE, PREMIUM_RATE, SHARED_COST, VOIP, ' +
      'PERSONAL_NUMBER, PAGER, UAN, VOICEMAIL; null when unknown',
  })
  @Field(() => String, { nullable: true })
  numberType!: string | null;
}

@ObjectType()
export class CompanyPhoneValidation {
  @ApiProperty() @Field() valid!: boolean;

  @ApiProperty({ type: [CompanyContactValidationError] })
  @Field(() => [CompanyContactValidationError])
  errors!: CompanyContactValidationError[];

  @ApiPropertyOptional({
    type: CompanyPhoneCalculated,
    nullable: true,
    description: 'Set when valid',
  })
  @Field(() => CompanyPhoneCalculated, { nullable: true })
  calculated!: CompanyPhoneCalculated | null;
}

@ObjectType()
export class CompanyEmailCalculated {
  @ApiProperty({ description: 'As stored (trimmed)' }) @Field() email!: string;

  @ApiProperty({ example: 'example.com', description: 'The part after @, lower-cased (C3)' })
  @Field()
  domain!: string;
}

@ObjectType()
export class CompanyEmailValidation {
  @ApiProperty() @Field() valid!: boolean;

  @ApiProperty({ type: [CompanyContactValidationError] })
  @Field(() => [CompanyContactValidationError])
  errors!: CompanyContactValidationError[];

  @ApiPropertyOptional({
    type: CompanyEmailCalculated,
    nullable: true,
    description: 'Set when valid',
  })
  @Field(() => CompanyEmailCalculated, { nullable: true })
  calculated!: CompanyEmailCalculated | null;
}
