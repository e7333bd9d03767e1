import { Transform } from 'class-transformer';
import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
} from 'class-validator';
import { SUPPORTED_LANGUAGES } from '@crm/i18n';
import { IdsInput, PageQuery } from '@crm/paging';
import { JSONObject } from '../../common/json-object.scalar';

export const INVITATION_STATUSES = [
  'created',
  'sent',
  'accepted',
  'rejected',
  'withdrawn',
] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

const PERSON_OR_EMAIL =
  'Exactly one of personId (a person of crm-people: name and the e-mail of the favorite card are ' +
  'taken from there) and email (a free address)';

/** IN7 POST, IN8 validate: an invitation to an event, for a person or an e-mail address. */
@InputType('CreateInvitationInput')
export class CreateInvitationInput {
  @ApiProperty({ format: 'uuid', description: 'The event (of the events service)' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;

  @ApiPropertyOptional({ format: 'uuid', description: PERSON_OR_EMAIL })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  personId?: string | null;

  @ApiPropertyOptional({ maxLength: 320, description: PERSON_OR_EMAIL })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email?: string | null;

  @ApiPropertyOptional({ maxLength: 200, description: "Overrides the person's first name" })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  firstname?: string | null;

  @ApiPropertyOptional({ maxLength: 200, description: "Overrides the person's last name" })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  lastname?: string | null;

  @ApiPropertyOptional({
    enum: SUPPORTED_LANGUAGES,
    description: "The invitee's language (mails); default: the person's, else Accept-Language",
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(SUPPORTED_LANGUAGES)
  language?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: 'The website the invitation is for' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  websiteId?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Information data of the invitee: a JSON object of at most 16 KB',
  })
  @Field(() => JSONObject, { nullable: true })
  @IsOptional()
  @IsObject()
  inviteeInformation?: Record<string, unknown> | null;
}

/** IN3 GET. */
@ArgsType()
export class InvitationListQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the invitations of this event' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  eventId?: string;

  @ApiPropertyOptional({ enum: INVITATION_STATUSES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(INVITATION_STATUSES)
  status?: InvitationStatus;
}

/** IN6 DELETE /invitations/batch; ids named by index when malformed. */
@InputType('DeleteInvitationsInput')
export class DeleteInvitationsInput extends IdsInput({ required: true, each: 'string' }) {}

/** IN9, IN11: the invitations to write to. */
@InputType('InvitationMailsInput')
export class InvitationMailsInput extends IdsInput({ required: true, each: 'string' }) {}

/** IN11: a free-text mail to invitations. */
@InputType('InvitationFreeTextMailInput')
export class InvitationFreeTextMailInput extends IdsInput({ required: true, each: 'string' }) {
  @ApiProperty({ maxLength: 300 })
  @Field()
  @IsDefined()
  @IsString()
  @MaxLength(300)
  subject!: string;

  @ApiProperty({
    maxLength: 20000,
    description: 'Plain text; {firstname} and {lastname} are replaced',
  })
  @Field()
  @IsDefined()
  @IsString()
  @MaxLength(20000)
  text!: string;
}

/** IN10: the invitation mail to every invitation of an event matching a filter. */
@InputType('InvitationMailsFilterInput')
export class InvitationMailsFilterInput {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  eventId!: string;

  @ApiPropertyOptional({
    enum: ['created', 'sent'],
    description: 'Default: both (answered and withdrawn invitations are never written to)',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(['created', 'sent'])
  status?: 'created' | 'sent';

  @ApiPropertyOptional({ maxLength: 200, description: 'Text search on name and e-mail' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

/** IN16: a new status for several invitations. */
@InputType('InvitationsStatusInput')
export class InvitationsStatusInput extends IdsInput({ required: true, each: 'string' }) {
  @ApiProperty({ enum: ['created', 'sent', 'withdrawn'] })
  @Field(() => String)
  @IsDefined()
  @IsIn(INVITATION_STATUSES)
  status!: InvitationStatus;
}

/** IN15 GET. */
export class InvitationExportQuery {
  @ApiProperty({ format: 'uuid' })
  @IsDefined()
  @IsUUID()
  eventId!: string;

  @ApiPropertyOptional({ enum: ['csv', 'xlsx'], default: 'csv' })
  @IsOptional()
  @IsIn(['csv', 'xlsx'])
  format?: 'csv' | 'xlsx';
}

/** IN14 GET: which results of the rows to answer (a 10,000-row job polled by a UI needs none). */
@ArgsType()
export class ImportJobQuery {
  @ApiPropertyOptional({
    enum: ['all', 'failed', 'none'],
    default: 'all',
    description: 'The results of every row (once done), of the failed rows only, or none',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(['all', 'failed', 'none'])
  results?: 'all' | 'failed' | 'none';
}

/** IN14 GET over GraphQL: the job and which results. */
@ArgsType()
export class ImportJobArgs extends ImportJobQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  jobId!: string;
}
