import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { IdsInput, queryBoolean } from '@crm/paging';
import { BookingFormFieldSetData, CancellationConditionData } from './entry-data.input';

const DATA_SCHEMA = {
  oneOf: [
    { $ref: getSchemaPath(BookingFormFieldSetData) },
    { $ref: getSchemaPath(CancellationConditionData) },
  ],
};

export const ENTRY_TEXT_MAX = 200;
const COLOR_MAX = 20;
const POSITION_MAX = 1_000_000;

const DATA_DESCRIPTION =
  'Required for booking-form-field-sets (`{ fields: [{ key, label, type, required, options? }] }`, ' +
  '1-50 fields, key a slug unique in the set, type text|textarea|email|phone|number|date|select|' +
  'checkbox, options 1-50 for select only) and cancellation-conditions (`{ tiers: [{ ' +
  'daysBeforeStart, feePercent, feeFixed }] }`, 1-20 tiers, distinct daysBeforeStart >= 0, ' +
  'feePercent 0-100 with up to 2 decimals, feeFixed a decimal string >= 0 such as "5.00"); ' +
  'refused for the other lists.';

/** An item of ES5 create (REST body, one object or an array). */
export class CreateEventSettingsEntryInput {
  @ApiProperty({ maxLength: ENTRY_TEXT_MAX, description: 'Unique in its list, ignoring case' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(ENTRY_TEXT_MAX)
  text!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#4CAF50',
    description: 'Event categories, orga tags and portal tags only: #RRGGBB',
  })
  @IsOptional()
  @IsString()
  @MaxLength(COLOR_MAX)
  color?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: POSITION_MAX,
    description: 'Order in the list; appended at the end when absent',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(POSITION_MAX)
  position?: number | null;

  @ApiPropertyOptional({ ...DATA_SCHEMA, description: DATA_DESCRIPTION })
  @ValidateIf((o: CreateEventSettingsEntryInput) => o.data !== undefined)
  @IsObject()
  data?: unknown;
}

/** ES5 update: absent fields stay as they are; null clears color. */
export class UpdateEventSettingsEntryInput {
  @ApiPropertyOptional({ maxLength: ENTRY_TEXT_MAX })
  @ValidateIf((o: UpdateEventSettingsEntryInput) => o.text !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(ENTRY_TEXT_MAX)
  text?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#4CAF50',
    description: 'Event categories, orga tags and portal tags only: #RRGGBB; null removes it',
  })
  @IsOptional()
  @IsString()
  @MaxLength(COLOR_MAX)
  color?: string | null;

  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: POSITION_MAX })
  @ValidateIf((o: UpdateEventSettingsEntryInput) => o.position !== undefined)
  @IsInt()
  @Min(0)
  @Max(POSITION_MAX)
  position?: number;

  @ApiPropertyOptional({ ...DATA_SCHEMA, description: `Replaces the data. ${DATA_DESCRIPTION}` })
  @ValidateIf((o: UpdateEventSettingsEntryInput) => o.data !== undefined)
  @IsObject()
  data?: unknown;
}

/** Body of the batch delete: `{ ids: [...] }`, 1 to 1000 UUIDs. */
export class DeleteEventSettingsEntriesInput extends IdsInput({
  required: false,
  each: 'uuid',
}) {}

/** `?force=true` on ES5 delete: take the entries off every event using them instead of a 409. */
export class DeleteEventSettingsEntriesQuery {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'true: remove the entries from every event using them (in the same transaction) instead ' +
      'of refusing with 409',
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  force?: boolean;
}
