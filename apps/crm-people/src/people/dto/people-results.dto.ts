import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EmbeddedPersonality, EmbeddedTag, LifecycleOutput, Person } from './person.dto';

// Answers of the people operations other than the People resource itself.

/** A page of people (GraphQL; REST puts the items in data and the total in metaData). */
@ObjectType()
export class PeoplePage {
  @Field(() => [Person])
  items!: Person[];

  @Field(() => Int, {
    description:
      'Number of people across all pages; an estimate when totalResultsExact is false (by default a list of more than 10,000 people without filters)',
  })
  totalResults!: number;

  @Field({ description: 'false: totalResults is an estimate' })
  totalResultsExact!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'Cursor of the last item: pass it as after for the next page (null on the last page)',
  })
  nextCursor!: string | null;
}

/** P7: what a list or a hover card shows of a person. */
@ObjectType()
export class PersonQuicklook {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() name!: string;
  @ApiProperty() @Field() initials!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  profileImage!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  detailImagePath!: string | null;
  @ApiPropertyOptional({ type: LifecycleOutput, nullable: true })
  @Field(() => LifecycleOutput, { nullable: true })
  lifecycle!: LifecycleOutput | null;
  @ApiProperty({ type: [EmbeddedTag] }) @Field(() => [EmbeddedTag]) orgaTags!: EmbeddedTag[];
  @ApiProperty({ type: [EmbeddedPersonality] })
  @Field(() => [EmbeddedPersonality])
  personalities!: EmbeddedPersonality[];
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The favorite business card (else the oldest) the fields below come from',
  })
  @Field(() => String, { nullable: true })
  cardId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  companyId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  business!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Favorite position' })
  @Field(() => String, { nullable: true })
  position!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Its department' })
  @Field(() => String, { nullable: true })
  department!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Favorite e-mail address' })
  @Field(() => String, { nullable: true })
  email!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Favorite phone number' })
  @Field(() => String, { nullable: true })
  phone!: string | null;
}

/** P6, P10: the people removed. */
@ObjectType()
export class PeopleDeleted {
  @ApiProperty({ type: [String], format: 'uuid' })
  @Field(() => [ID])
  deletedIds!: string[];
}

@ObjectType()
export class PersonValidationProblem {
  @ApiProperty() @Field() field!: string;
  @ApiProperty() @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

@ObjectType()
export class PersonCalculated {
  @ApiProperty() @Field() name!: string;
  @ApiProperty() @Field() initials!: string;
}

/** P15: the outcome of every create check, without writing. */
@ObjectType()
export class PersonValidationResult {
  @ApiProperty() @Field() valid!: boolean;
  @ApiProperty({ type: [PersonValidationProblem] })
  @Field(() => [PersonValidationProblem])
  errors!: PersonValidationProblem[];
  @ApiProperty({ type: PersonCalculated })
  @Field(() => PersonCalculated)
  calculated!: PersonCalculated;
}
