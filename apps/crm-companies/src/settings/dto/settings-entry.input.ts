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
import { IdsInput, queryBoolean } from '@crm/paging';

export const ENTRY_TEXT_MAX = 200;
const COLOR_MAX = 20;
const POSITION_MAX = 1_000_000;

@InputType()
export class CreateCompanySettingsEntryInput {
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
    description: 'Tags and life cycles only: #RRGGBB',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(COLOR_MAX)
  color?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ENTRY_TEXT_MAX,
    description: 'Industry sectors only (e.g. the classification the sector belongs to)',
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
    maximum: POSITION_MAX,
    description: 'Order in the list; appended at the end when absent',
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(POSITION_MAX)
  position?: number | null;
}

/** S3: absent fields stay as they are; null clears color and category. */
@InputType()
export class UpdateCompanySettingsEntryInput {
  @ApiPropertyOptional({ maxLength: ENTRY_TEXT_MAX })
  @Field({ nullable: true })
  @ValidateIf((o: UpdateCompanySettingsEntryInput) => o.text !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(ENTRY_TEXT_MAX)
  text?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#4CAF50',
    description: 'Tags and life cycles only: #RRGGBB; null removes it',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(COLOR_MAX)
  color?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ENTRY_TEXT_MAX,
    description: 'Industry sectors only; null removes it',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(ENTRY_TEXT_MAX)
  category?: string | null;

  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: POSITION_MAX })
  @Field(() => Int, { nullable: true })
  @ValidateIf((o: UpdateCompanySettingsEntryInput) => o.position !== undefined)
  @IsInt()
  @Min(0)
  @Max(POSITION_MAX)
  position?: number;
}

/** Body of S4: `{ ids: [...] }`, 1 to 1000 UUIDs. */
export class DeleteCompanySettingsEntriesInput extends IdsInput({
  required: false,
  each: 'uuid',
}) {}

/** `?force=true` on S4/S5: remove the entries from everything using them instead of a 409. */
export class DeleteCompanySettingsEntriesQuery {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'true: remove the entries from every company, e-mail address and relation using them ' +
      '(in the same transaction) instead of refusing with 409',
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  force?: boolean;
}
