import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EmbeddedTag } from '../../people/dto/person.dto';
import { MOODS, TOUCHPOINT_TYPES } from './touchpoint.input';

// Output shapes of touchpoints, shared by REST (OpenAPI) and GraphQL.

@ObjectType()
export class TouchpointMood {
  @ApiProperty()
  @Field(() => ID)
  id!: string;

  @ApiProperty({ enum: MOODS })
  @Field()
  mood!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  comment!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Field()
  dateCreated!: string;
}

/** Derived from the stored fields; never written. */
@ObjectType()
export class TouchpointCalculated {
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Whole minutes from start to end; null without an end',
  })
  @Field(() => Int, { nullable: true })
  durationMinutes!: number | null;

  @ApiProperty({ description: 'It has ended (its end, or its start without an end, has passed)' })
  @Field()
  isPast!: boolean;

  @ApiProperty({ description: 'It has not started yet' })
  @Field()
  isUpcoming!: boolean;

  @ApiPropertyOptional({ enum: MOODS, nullable: true, description: 'The latest mood' })
  @Field(() => String, { nullable: true })
  currentMood!: string | null;

  @ApiProperty()
  @Field(() => Int)
  participantCount!: number;
}

@ObjectType()
export class Touchpoint extends TouchpointCalculated {
  @ApiProperty()
  @Field(() => ID)
  id!: string;

  @ApiProperty({ enum: TOUCHPOINT_TYPES })
  @Field()
  type!: string;

  @ApiProperty()
  @Field()
  subject!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  description!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Field()
  start!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  end!: string | null;

  @ApiProperty({
    type: [String],
    description: 'People involved, by last name (GraphQL also offers `people`)',
  })
  @Field(() => [ID])
  personIds!: string[];

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => ID, { nullable: true })
  companyId!: string | null;

  @ApiProperty({ minimum: 1, maximum: 5 })
  @Field(() => Int)
  priority!: number;

  @ApiProperty({ type: [TouchpointMood], description: 'Mood history, newest last' })
  @Field(() => [TouchpointMood])
  moods!: TouchpointMood[];

  @ApiProperty({ type: [EmbeddedTag], description: 'Orga tags, by text' })
  @Field(() => [EmbeddedTag])
  tags!: EmbeddedTag[];

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  modifiedBy!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdByUserId!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  modifiedByUserId!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Field()
  dateCreated!: string;

  @ApiProperty({ format: 'date-time' })
  @Field()
  dateModified!: string;
}

@ObjectType()
export class TouchpointPage {
  @Field(() => [Touchpoint])
  items!: Touchpoint[];

  @Field(() => Int)
  totalResults!: number;
}

@ObjectType()
export class TouchpointValidationError {
  @ApiProperty()
  @Field()
  field!: string;

  @ApiProperty()
  @Field()
  rule!: string;

  @ApiProperty()
  @Field()
  message!: string;
}

/** Answer of T7: every check of create, nothing written. */
@ObjectType()
export class TouchpointValidation {
  @ApiProperty()
  @Field()
  valid!: boolean;

  @ApiProperty({ type: [TouchpointValidationError] })
  @Field(() => [TouchpointValidationError])
  errors!: TouchpointValidationError[];

  @ApiPropertyOptional({
    type: TouchpointCalculated,
    nullable: true,
    description: 'Null while start is missing or invalid',
  })
  @Field(() => TouchpointCalculated, { nullable: true })
  calculated!: TouchpointCalculated | null;
}

@ObjectType()
export class TouchpointsDeleted {
  @ApiProperty({ description: 'How many touchpoints were deleted' })
  @Field(() => Int)
  deleted!: number;
}

@ObjectType()
export class TouchpointsMoved {
  @ApiProperty({ description: 'How many touchpoints changed their people' })
  @Field(() => Int)
  moved!: number;
}
