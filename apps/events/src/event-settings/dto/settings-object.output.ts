import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const id = (description: string) =>
  ApiPropertyOptional({ type: String, nullable: true, description });
const str = () => ApiPropertyOptional({ type: String, nullable: true });

@ObjectType()
export class EventDefaults {
  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Int, { nullable: true })
  capacity!: number | null;
  @id('An entry of event-categories')
  @Field(() => String, { nullable: true })
  categoryId!: string | null;
  @id('An entry of booking-form-field-sets')
  @Field(() => String, { nullable: true })
  bookingFormFieldSetId!: string | null;
  @id('An entry of cancellation-conditions')
  @Field(() => String, { nullable: true })
  cancellationConditionId!: string | null;
  @id('An id of the tax-rates vendor list')
  @Field(() => String, { nullable: true })
  taxRateId!: string | null;
  @id('A contact person template')
  @Field(() => String, { nullable: true })
  contactPersonTemplateId!: string | null;
}

@ObjectType()
export class InvoiceSender {
  @str() @Field(() => String, { nullable: true }) name!: string | null;
  @str() @Field(() => String, { nullable: true }) street!: string | null;
  @str() @Field(() => String, { nullable: true }) zip!: string | null;
  @str() @Field(() => String, { nullable: true }) city!: string | null;
  @str() @Field(() => String, { nullable: true }) country!: string | null;
  @str() @Field(() => String, { nullable: true }) vatId!: string | null;
  @str() @Field(() => String, { nullable: true }) taxNumber!: string | null;
  @str() @Field(() => String, { nullable: true }) email!: string | null;
  @str() @Field(() => String, { nullable: true }) phone!: string | null;
  @str() @Field(() => String, { nullable: true }) iban!: string | null;
  @str() @Field(() => String, { nullable: true }) bic!: string | null;
}

/** ES1/ES2: the tenant's event settings, defaults applied. */
@ObjectType()
export class EventSettingsView {
  @ApiProperty({ example: 'Europe/Berlin' }) @Field() timeZone!: string;
  @ApiProperty({ example: 'EUR' }) @Field() currency!: string;
  @ApiProperty({ type: EventDefaults }) @Field(() => EventDefaults) eventDefaults!: EventDefaults;
  @ApiProperty({ type: InvoiceSender }) @Field(() => InvoiceSender) invoiceSender!: InvoiceSender;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Last saved (UTC); null while the tenant has the defaults',
  })
  @Field(() => String, { nullable: true })
  dateModified!: string | null;
}

@ObjectType()
export class EventSettingsValidationProblem {
  @ApiProperty() @Field() field!: string;
  @ApiProperty() @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

/** ES3: the outcome of every check of ES2, without writing. */
@ObjectType()
export class EventSettingsValidationResult {
  @ApiProperty() @Field() valid!: boolean;
  @ApiProperty({ type: [EventSettingsValidationProblem] })
  @Field(() => [EventSettingsValidationProblem])
  errors!: EventSettingsValidationProblem[];
}
