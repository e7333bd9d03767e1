import { Directive, Field, Float, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output shapes of the People resource (seed: "Resources and their fields"). The same classes
// describe REST (OpenAPI) and GraphQL, so both answer with identical field names.

@ObjectType()
export class Birthday {
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true })
  @Field(() => String, { nullable: true })
  birthday!: string | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true })
  @Field(() => Boolean, { nullable: true })
  considerBirthYear!: boolean | null;
}

@ObjectType()
export class ImportantDate {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  text!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  date!: string | null;
}

@ObjectType()
export class SocialMedia {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  type!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  link!: string | null;
}

@ObjectType()
export class EmbeddedTag {
  @ApiProperty()
  @Field(() => ID)
  id!: string;

  @ApiProperty()
  @Field()
  text!: string;
}

@ObjectType()
export class EmbeddedPersonality {
  @ApiProperty()
  @Field(() => ID)
  id!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  category!: string | null;

  @ApiProperty()
  @Field()
  text!: string;
}

@ObjectType()
export class LifecycleOutput {
  @ApiProperty()
  @Field(() => ID)
  lifecycleId!: string;

  @ApiProperty()
  @Field()
  text!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  color!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  dateChanged!: string | null;
}

@ObjectType()
export class PeopleNote {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 10000 })
  @Field(() => String, { nullable: true })
  note!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  modifiedBy!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  dateCreated!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  dateModified!: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  createdByUserId!: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  modifiedByUserId!: string | null;
}

@ObjectType()
export class IdText {
  @ApiProperty()
  @Field(() => ID)
  id!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  text!: string | null;
}

@ObjectType()
export class CardPhone {
  @ApiPropertyOptional({ type: Boolean })
  @Field(() => Boolean, { nullable: true })
  isFavorite!: boolean | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  type!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  number!: string | null;
}

@ObjectType()
export class CardEmail {
  @ApiPropertyOptional({ type: IdText, nullable: true })
  @Field(() => IdText, { nullable: true })
  type!: IdText | null;

  @ApiPropertyOptional({ type: Boolean })
  @Field(() => Boolean, { nullable: true })
  isFavorite!: boolean | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  mail!: string | null;
}

@ObjectType()
export class BusinessPosition {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  department!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  position!: string | null;

  @ApiPropertyOptional({ type: Boolean })
  @Field(() => Boolean, { nullable: true })
  isFavorite!: boolean | null;
}

@ObjectType()
export class Coordinates {
  @ApiProperty()
  @Field(() => Float)
  longitude!: number;

  @ApiProperty()
  @Field(() => Float)
  latitude!: number;
}

@ObjectType()
export class AddressValidationInfo {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  status!: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Float, { nullable: true })
  deviation!: number | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  lastValidationDate!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  message!: string | null;
}

@ObjectType()
export class CardAddress {
  @ApiProperty()
  @Field(() => ID)
  id!: string;

  @ApiProperty()
  @Field()
  isFavorite!: boolean;

  @ApiProperty({ type: [IdText] })
  @Field(() => [IdText])
  addressTypes!: IdText[];

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  country!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
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
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  cityAddition!: string | null;

  @ApiPropertyOptional({ type: Coordinates, nullable: true })
  @Field(() => Coordinates, { nullable: true })
  coordinates!: Coordinates | null;

  @ApiPropertyOptional({ type: AddressValidationInfo, nullable: true })
  @Field(() => AddressValidationInfo, { nullable: true })
  validationInfo!: AddressValidationInfo | null;

  @ApiProperty()
  @Field()
  isPostOfficeBox!: boolean;
}

@ObjectType()
@Directive('@key(fields: "id")')
export class BusinessCard {
  @ApiProperty() @Field(() => ID) id!: string;
  @ApiProperty() @Field() isPrivate!: boolean;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  alternativeSalutation!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  alternativeTitle!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  alternativeFirstname!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  alternativeLastname!: string | null;
  @ApiProperty() @Field() useAlternativeName!: boolean;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  companyId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  business!: string | null;
  @ApiPropertyOptional({ type: IdText, nullable: true })
  @Field(() => IdText, { nullable: true })
  companyRelationType!: IdText | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  companyRelationSince!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  companyRelationUntil!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  validFrom!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  validTo!: string | null;
  @ApiProperty({ type: [CardPhone] }) @Field(() => [CardPhone]) phones!: CardPhone[];
  @ApiProperty({ type: [CardEmail] }) @Field(() => [CardEmail]) emails!: CardEmail[];
  @ApiProperty({ type: [BusinessPosition] })
  @Field(() => [BusinessPosition])
  businessPositions!: BusinessPosition[];
  @ApiProperty({ type: [CardAddress] }) @Field(() => [CardAddress]) addresses!: CardAddress[];
  @ApiProperty() @Field() isFavorite!: boolean;
  @ApiProperty() @Field() isActive!: boolean;
  @ApiProperty() @Field() markAsFavorite!: boolean;
}

@ObjectType()
export class RelationType {
  @ApiProperty() @Field() typeIdentifier!: string;
  @ApiProperty() @Field() isFavorite!: boolean;
}

@ObjectType()
export class PersonRelation {
  @ApiProperty() @Field(() => ID) id!: string;
  @ApiProperty({ description: 'The related person' }) @Field(() => ID) personId!: string;
  @ApiProperty({ type: RelationType }) @Field(() => RelationType) type!: RelationType;
}

@ObjectType()
@Directive('@key(fields: "id")')
export class Person {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  modifiedBy!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  createdByUserId!: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  modifiedByUserId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  salutation!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  title!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  firstname!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  lastname!: string | null;
  @ApiPropertyOptional({ type: Birthday, nullable: true })
  @Field(() => Birthday, { nullable: true })
  birthday!: Birthday | null;
  @ApiProperty({ type: [ImportantDate] })
  @Field(() => [ImportantDate])
  importantDates!: ImportantDate[];
  @ApiProperty({ type: [SocialMedia] }) @Field(() => [SocialMedia]) socialMedias!: SocialMedia[];
  @ApiProperty({ type: [EmbeddedTag] }) @Field(() => [EmbeddedTag]) orgaTags!: EmbeddedTag[];
  @ApiProperty({ type: [EmbeddedPersonality] })
  @Field(() => [EmbeddedPersonality])
  personalities!: EmbeddedPersonality[];
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  customerNumber!: string | null;
  @ApiPropertyOptional({ type: PeopleNote, nullable: true })
  @Field(() => PeopleNote, { nullable: true })
  note!: PeopleNote | null;
  @ApiProperty({ type: [BusinessCard] }) @Field(() => [BusinessCard]) cards!: BusinessCard[];
  @ApiProperty({ type: [PersonRelation] })
  @Field(() => [PersonRelation])
  relations!: PersonRelation[];
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  userMail!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  employeeStatus!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  employeeNumber!: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  userId!: string | null;
  @ApiPropertyOptional({ type: LifecycleOutput, nullable: true })
  @Field(() => LifecycleOutput, { nullable: true })
  lifecycle!: LifecycleOutput | null;
  @ApiProperty({ type: [LifecycleOutput] })
  @Field(() => [LifecycleOutput])
  lifecycleHistories!: LifecycleOutput[];
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  profileImage!: string | null;
  @ApiProperty({ readOnly: true }) @Field() initials!: string;
  @ApiPropertyOptional({ type: String, nullable: true, readOnly: true })
  @Field(() => String, { nullable: true })
  detailImagePath!: string | null;
  @ApiProperty({ readOnly: true }) @Field() name!: string;
}
