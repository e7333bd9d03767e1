import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { BookingFormFieldSetData, CancellationConditionData } from './entry-data.input';

// Output shapes of the event settings lists (ES4/ES5 under /event-settings), shared by REST
// (OpenAPI) and GraphQL.

@ObjectType()
export class EventSettingsEntry {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiProperty({ description: 'System entries are translated by Accept-Language' })
  @Field()
  text!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#4CAF50',
    description: 'Event categories, orga tags and portal tags only',
  })
  @Field(() => String, { nullable: true })
  color!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Not used by these lists' })
  @Field(() => String, { nullable: true })
  category!: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Order among the tenant entries (system entries come first: null)',
  })
  @Field(() => Int, { nullable: true })
  position!: number | null;

  @ApiProperty({ description: 'Given by the system: read-only, same id for every tenant' })
  @Field()
  isSystem!: boolean;

  @ApiPropertyOptional({
    oneOf: [
      { $ref: getSchemaPath(BookingFormFieldSetData) },
      { $ref: getSchemaPath(CancellationConditionData) },
    ],
    nullable: true,
    description:
      'booking-form-field-sets: `{ fields: [{ key, label, type, required, options? }] }`; ' +
      'cancellation-conditions: `{ tiers: [{ daysBeforeStart, feePercent, feeFixed }] }`; ' +
      'null for the other lists',
  })
  data!: unknown;
}

@ObjectType()
export class EventSettingsEntryPage {
  @Field(() => [EventSettingsEntry]) items!: EventSettingsEntry[];
  @Field(() => Int) totalResults!: number;
}
