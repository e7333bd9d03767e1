import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IdsInput, PageQuery, queryBoolean } from '@crm/paging';
import { MAX_CODE_LENGTH } from '../../ticket-codes/ticket-code';

export const TICKET_STATUSES = ['valid', 'cancelled'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Set only when given (undefined): update keeps what is not given. */
const given = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);
/** Checked only when neither undefined nor null: null clears the field. */
const present = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] != null);

/** ET1: the tenant's tickets, filtered. */
@ArgsType()
export class EventTicketListQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  eventId?: string;

  @ApiPropertyOptional({ enum: TICKET_STATUSES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(TICKET_STATUSES)
  status?: TicketStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  bookingId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  ticketTypeId?: string;

  @ApiPropertyOptional({ description: 'true: checked in only; false: not checked in only' })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  checkedIn?: boolean;
}

/** ET4 */
@ArgsType()
export class TicketSummaryQuery {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;
}

/** ET13 */
@ArgsType()
export class TicketVerificationQuery extends TicketSummaryQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'Only revocations since then (the `nextSince` of the previous answer); none: every revocation',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;
}

/** ET14 */
@InputType('RotateTicketSigningKeyInput')
export class RotateSigningKeyInput {
  @ApiProperty({ format: 'uuid', description: 'The event whose key is replaced' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;
}

/** ET11 */
export class TicketExportQuery extends TicketSummaryQuery {
  @ApiPropertyOptional({ enum: ['csv', 'xlsx'], default: 'csv' })
  @IsOptional()
  @IsIn(['csv', 'xlsx'])
  format?: 'csv' | 'xlsx';
}

/** ET12 */
export class TicketPdfQuery {
  @ApiPropertyOptional({
    enum: ['en', 'de'],
    description: 'Language of the labels (default: Accept-Language)',
  })
  @IsOptional()
  @IsIn(['en', 'de'])
  lang?: string;
}

/** ET6: the ids of tickets (1 to 1000), each named by its index when it is wrong. */
@InputType('EventTicketIdsInput')
export class TicketIdsInput extends IdsInput({ required: true, each: 'string' }) {}

/** ET5 */
@InputType('SetTicketsStatusInput')
export class SetTicketsStatusInput extends IdsInput({ required: true, each: 'string' }) {
  @ApiProperty({
    enum: TICKET_STATUSES,
    description: 'cancelled frees the seats; a cancelled ticket cannot become valid again (409)',
  })
  @Field(() => String)
  @IsDefined()
  @IsIn(TICKET_STATUSES)
  status!: TicketStatus;
}

/** ET7 */
@InputType('MailTicketsInput')
export class MailTicketsInput extends IdsInput({ required: true, each: 'string' }) {
  @ApiProperty({ maxLength: 300 })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  subject!: string;

  @ApiProperty({ maxLength: 20000, description: 'Plain text; framed by a translated greeting' })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(20000)
  text!: string;
}

/** ET8: which tickets a filtered mail goes to. */
@InputType('EventTicketMailFilter')
export class TicketMailFilter {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;

  @ApiPropertyOptional({ enum: TICKET_STATUSES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(TICKET_STATUSES)
  status?: TicketStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  ticketTypeId?: string;

  @ApiPropertyOptional()
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  checkedIn?: boolean;
}

/** ET8 */
@InputType('MailTicketsFilteredInput')
export class MailTicketsFilteredInput {
  @ApiProperty({ type: TicketMailFilter })
  @Field(() => TicketMailFilter)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => TicketMailFilter)
  filter!: TicketMailFilter;

  @ApiProperty({ maxLength: 300 })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  subject!: string;

  @ApiProperty({ maxLength: 20000 })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(20000)
  text!: string;
}

/** ET9 */
@InputType('TicketCheckInInput')
export class CheckInInput {
  @ApiProperty({
    maxLength: MAX_CODE_LENGTH,
    description: 'The signed code of the ticket (its QR code): v1.<keyId>.<payload>.<signature>',
  })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_CODE_LENGTH)
  code!: string;

  @ApiPropertyOptional({
    maxLength: 100,
    description:
      'Chosen by the scanner per scan: a retry of the same scan with the same nonce answers 200 again instead of 409',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  nonce?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'The gate or device, as it names itself' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  location?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The event the scanner admits to: a ticket of another event is a 409',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  eventId?: string;
}

/** ET10: fields not given stay; null clears email and information. */
export class ParticipantInformationInput {
  @ApiPropertyOptional({ maxLength: 200 })
  @given('firstname')
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  firstname?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @given('lastname')
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  lastname?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 320 })
  @present('email')
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'A JSON object of at most 16 KB (serialized); null clears it',
  })
  @present('information')
  @IsObject()
  information?: Record<string, unknown> | null;
}
