import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IdsInput } from '@crm/paging';
import { EmbeddedTagInput } from '../../people/dto/person.input';

export const TOUCHPOINT_TYPES = [
  'call',
  'email',
  'meeting',
  'visit',
  'letter',
  'chat',
  'note',
  'other',
  // written by crm-people from bookings-invitations' visitor activities (visitor-activities.events.ts)
  'event-booking',
  'event-booking-cancelled',
  'event-invitation-accepted',
  'event-invitation-rejected',
  'event-check-in',
] as const;
export const MOODS = ['very-bad', 'bad', 'neutral', 'good', 'very-good'] as const;
export const SUBJECT_MAX = 200;
export const DESCRIPTION_MAX = 10000;
export const COMMENT_MAX = 1000;
export const PEOPLE_MAX = 500;
export const TAGS_MAX = 100;
/** Batch operations: the API-wide limit. */
export const BATCH_MAX = 1000;
export const DEFAULT_PRIORITY = 3;

@InputType('TouchpointMoodInput')
export class TouchpointMoodInput {
  @ApiProperty({ enum: MOODS, example: 'good' })
  @Field(() => String, { description: MOODS.join(', ') })
  @IsDefined()
  @IsString()
  @IsIn(MOODS)
  mood!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: COMMENT_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(COMMENT_MAX)
  comment?: string | null;
}

/**
 * Body of T4 (update; PUT replaces every field: omitted optional ones are cleared, priority goes
 * back to 3) and the base of T3. Person ids are checked one by one in the service, so a problem
 * names its index (`personIds[2]`).
 */
@InputType('TouchpointInput')
export class TouchpointInput {
  @ApiProperty({ enum: TOUCHPOINT_TYPES, example: 'meeting' })
  @Field(() => String, { description: TOUCHPOINT_TYPES.join(', ') })
  @IsDefined()
  @IsString()
  @IsIn(TOUCHPOINT_TYPES)
  type!: string;

  @ApiProperty({ maxLength: SUBJECT_MAX, example: 'Quarterly review' })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(SUBJECT_MAX)
  subject!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-03-01T09:00:00Z' })
  @Field(() => String)
  @IsDefined()
  @IsISO8601({ strict: true })
  start!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Not before start',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  end?: string | null;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: PEOPLE_MAX,
    description: 'People involved (at least one, each a person of the tenant; repeats are ignored)',
  })
  @Field(() => [ID])
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(PEOPLE_MAX)
  personIds!: string[];

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A company of crm-companies; stored as given (not checked yet)',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  companyId?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 5, default: DEFAULT_PRIORITY })
  @Field(() => Int, { nullable: true, description: '1 (highest) .. 5 (lowest), default 3' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  priority?: number | null;

  @ApiPropertyOptional({
    type: [EmbeddedTagInput],
    nullable: true,
    description: 'Orga tags by id, or by text (an unknown text creates the entry)',
  })
  @Field(() => [EmbeddedTagInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TAGS_MAX)
  @ValidateNested({ each: true })
  @Type(() => EmbeddedTagInput)
  tags?: EmbeddedTagInput[] | null;
}

/** Body of T3 and T7: the fields of a touchpoint and, optionally, its first mood. */
@InputType('CreateTouchpointInput')
export class CreateTouchpointInput extends TouchpointInput {
  @ApiPropertyOptional({ type: TouchpointMoodInput, nullable: true })
  @Field(() => TouchpointMoodInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => TouchpointMoodInput)
  mood?: TouchpointMoodInput | null;
}

@InputType('TouchpointIdsInput')
export class TouchpointIdsInput extends IdsInput({ required: true, each: 'any' }) {}

/** Body of T8 and T9. */
@InputType('TouchpointTagsInput')
export class TouchpointTagsInput {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: BATCH_MAX })
  @Field(() => [ID])
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BATCH_MAX)
  touchpointIds!: string[];

  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: TAGS_MAX,
    description: 'Ids of orga tags',
  })
  @Field(() => [ID])
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TAGS_MAX)
  tagIds!: string[];
}

/** Body of T12 (GraphQL takes `priority` as an argument); base of the items of T11. */
@InputType({ isAbstract: true })
export class PriorityInput {
  @ApiProperty({ minimum: 1, maximum: 5 })
  @Field(() => Int)
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(5)
  priority!: number;
}

@InputType('TouchpointPriorityInput')
export class TouchpointPriorityInput extends PriorityInput {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsString()
  id!: string;
}

/** Body of T14 (the NATS command carries the same fields and the tenant). */
@InputType('MoveTouchpointsInput')
export class MoveTouchpointsInput {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  fromPersonId!: string;

  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  toPersonId!: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: BATCH_MAX,
    description: "Only these of fromPerson's touchpoints; all of them when absent",
  })
  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(BATCH_MAX)
  touchpointIds?: string[] | null;
}
