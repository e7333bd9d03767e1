import { Field, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { queryBoolean } from '@crm/paging';

export const ENTRY_TEXT_MAX = 200;
const POSITION_MAX = 1_000_000;

@InputType('CreatePeopleSettingsEntryInput')
export class CreateSettingsEntryInput {
  @ApiProperty({ maxLength: ENTRY_TEXT_MAX, description: 'Unique in its list, ignoring case' })
  @Field()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ENTRY_TEXT_MAX)
  text!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#4CAF50',
    description: 'Lifecycles only: #RRGGBB',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  color?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ENTRY_TEXT_MAX,
    description: 'Personality tags only (e.g. the model the trait belongs to)',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ENTRY_TEXT_MAX)
  category?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    description: 'Order in the list; appended at the end when absent',
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(POSITION_MAX)
  position?: number | null;
}

/** S3: absent fields stay as they are; null clears color, category. */
@InputType('UpdatePeopleSettingsEntryInput')
export class UpdateSettingsEntryInput {
  @ApiPropertyOptional({ maxLength: ENTRY_TEXT_MAX })
  @Field({ nullable: true })
  @ValidateIf((o: UpdateSettingsEntryInput) => o.text !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(ENTRY_TEXT_MAX)
  text?: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '#4CAF50' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  color?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ENTRY_TEXT_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ENTRY_TEXT_MAX)
  category?: string | null;

  @ApiPropertyOptional({ type: Number, minimum: 0 })
  @Field(() => Int, { nullable: true })
  @ValidateIf((o: UpdateSettingsEntryInput) => o.position !== undefined)
  @IsInt()
  @Min(0)
  @Max(POSITION_MAX)
  position?: number;
}

/** `?force=true` on S4/S5: remove the entry from the people and touchpoints using it. */
export class DeleteEntriesQuery {
  @ApiPropertyOptional({
    type: Boolean,
    description: 'Remove the entry from everything that uses it instead of refusing with 409',
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  force?: boolean;
}
