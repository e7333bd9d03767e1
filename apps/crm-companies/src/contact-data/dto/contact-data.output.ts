import { Field, Float, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output shapes of a company's contact data (C15-C25). They are embedded in Company (C2) and
// answered by the contact-data routes; the same classes describe REST (OpenAPI) and GraphQL.

/** The fields of an address as stored (C15/C16 answer them with id, C18 calculates them). */
@ObjectType({ isAbstract: true })
export abstract class CompanyAddressFields {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'headquarters, branch, billing, delivery, postal or other',
  })
  @Field(() => String, { nullable: true })
  type!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  country!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'ISO 3166-1 alpha-2' })
  @Field(() => String, { nullable: true })
  countryCode!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  street!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  streetAdditional!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  zip!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  city!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  postboxNumber!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  federalState!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  cityDistrict!: string | null;

  @ApiProperty() @Field() isPostOfficeBox!: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Float, { nullable: true })
  longitude!: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Float, { nullable: true })
  latitude!: number | null;
}

@ObjectType()
export class CompanyAddress extends CompanyAddressFields {
  @ApiProperty() @Field(() => ID) id!: string;

  @ApiProperty({ description: 'The one favorite address of the company' })
  @Field()
  isFavorite!: boolean;
}

@ObjectType()
export class CompanyPhone {
  @ApiProperty() @Field(() => ID) id!: string;

  @ApiProperty({ description: 'office, mobile, fax or other' })
  @Field()
  type!: string;

  @ApiProperty({ description: 'E.164, e.g. +493012345678' })
  @Field()
  number!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  label!: string | null;

  @ApiProperty() @Field() isFavorite!: boolean;
}

@ObjectType()
export class CompanyEmailType {
  @ApiProperty() @Field(() => ID) id!: string;
  @ApiProperty() @Field() text!: string;
}

@ObjectType()
export class CompanyEmail {
  @ApiProperty() @Field(() => ID) id!: string;
  @ApiProperty() @Field() email!: string;

  @ApiPropertyOptional({ type: CompanyEmailType, nullable: true })
  @Field(() => CompanyEmailType, { nullable: true })
  emailType!: CompanyEmailType | null;

  @ApiProperty() @Field() isFavorite!: boolean;
}
