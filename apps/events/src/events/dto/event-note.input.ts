import { Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { IdsInput } from '@crm/paging';

export const NOTE_MAX = 10000;
export const WEBSITES_MAX = 100;

/** E10 body. `note` must be present; null clears the note. */
export class UpdateEventNoteInput {
  @ApiProperty({ type: String, nullable: true, maxLength: NOTE_MAX })
  @ValidateIf((o: UpdateEventNoteInput) => o.note !== null)
  @IsDefined()
  @IsString()
  @MaxLength(NOTE_MAX)
  note!: string | null;
}

/** E11 body. */
@InputType('EventPublicationInput')
export class EventPublicationInput {
  @ApiProperty({
    description: 'true publishes (every check of E12 must pass, else 409), false unpublishes',
  })
  @Field()
  @IsDefined()
  @IsBoolean()
  published!: boolean;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: WEBSITES_MAX,
    description:
      'Websites of the tenant to publish on; replaces the stored ones. Absent: the stored ones stay.',
  })
  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WEBSITES_MAX)
  @IsUUID('all', { each: true })
  websiteIds?: string[];
}

/** E12 body (optional): the websites to check instead of the stored ones. */
@InputType('EventPublicationCheckInput')
export class EventPublicationCheckInput {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: WEBSITES_MAX })
  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WEBSITES_MAX)
  @IsUUID('all', { each: true })
  websiteIds?: string[];
}

/** E6 body: 1 to 1000 ids; malformed ones are named by index by the service. */
@InputType('DeleteEventsInput')
export class DeleteEventsInput extends IdsInput({ required: true, each: 'string' }) {}
