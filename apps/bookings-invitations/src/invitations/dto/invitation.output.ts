import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JSONObject } from '../../common/json-object.scalar';
import { INVITATION_STATUSES } from './invitation.input';

/** An invitation to an event (IN3, IN4, IN7). */
@ObjectType()
export class Invitation {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;

  @ApiProperty({
    description: 'The key of the public endpoints (IN1, IN2) and of a booking with it (BK1)',
  })
  @Field()
  token!: string;

  @ApiProperty({
    description:
      'The link of the invitation mail: the portal page of the invitation’s website (its ' +
      'invitation link template, default `{websiteUrl}/invitations/{token}`), which shows it ' +
      'with IN1 and serves `?action=accept` (BK1 with the token) and `?action=reject` (IN2). ' +
      'Without a website of its own: the event’s website (of several, the one with the lowest ' +
      'id); PUBLIC_INVITATION_URL only when the event has no website. Null when the event has ' +
      'no website and PUBLIC_INVITATION_URL is not set: there is no page to open it on, and ' +
      'its invitation mail is refused (409) until the event has a website',
    example: 'https://events.example.com/invitations/3q2-7wQ8QkW3l0Jd9cYb1A',
    type: String,
    nullable: true,
  })
  @Field(() => String, { nullable: true })
  publicUrl!: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  personId!: string | null;

  @ApiProperty() @Field() email!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  firstname!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  lastname!: string | null;

  @ApiProperty({ example: 'de' }) @Field() language!: string;
  @ApiProperty({ enum: INVITATION_STATUSES }) @Field() status!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @Field(() => JSONObject, { nullable: true })
  inviteeInformation!: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  websiteId!: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The booking made with the invitation',
  })
  @Field(() => ID, { nullable: true })
  bookingId!: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  importJobId!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  sentAt!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  respondedAt!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class InvitationPage {
  @Field(() => [Invitation]) items!: Invitation[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType()
export class InvitationsDeleted {
  @ApiProperty({ type: [String], format: 'uuid' })
  @Field(() => [ID])
  ids!: string[];
}

@ObjectType()
export class InvitationProblem {
  @ApiProperty() @Field() field!: string;
  @ApiProperty() @Field() message!: string;
}

/** IN8. */
@ObjectType()
export class InvitationValidation {
  @ApiProperty() @Field() valid!: boolean;
  @ApiProperty({ type: [InvitationProblem] })
  @Field(() => [InvitationProblem])
  errors!: InvitationProblem[];
}

/** What the public sees of the event (IN1). */
@ObjectType()
export class PublicInvitationEvent {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  title!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  startsAt!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  endsAt!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Europe/Berlin' })
  @Field(() => String, { nullable: true })
  timeZone!: string | null;
}

/** IN1, IN2: an invitation as its invitee sees it (no e-mail, no information data). */
@ObjectType()
export class PublicInvitation {
  @ApiProperty({ type: PublicInvitationEvent })
  @Field(() => PublicInvitationEvent)
  event!: PublicInvitationEvent;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  firstname!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  lastname!: string | null;

  @ApiProperty() @Field() language!: string;
  @ApiProperty({ enum: ['created', 'sent', 'accepted', 'rejected'] }) @Field() status!: string;
  @ApiProperty({ description: 'A booking was made with the invitation' }) @Field() booked!: boolean;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  respondedAt!: string | null;
}

/** IN9-IN11. */
@ObjectType()
export class InvitationMailsQueued {
  @ApiProperty({ description: 'Mails queued (sent by the mail worker)' })
  @Field(() => Int)
  queued!: number;

  @ApiProperty({ type: [String], format: 'uuid', description: 'The invitations written to' })
  @Field(() => [ID])
  invitationIds!: string[];
}

/** IN17: a mail of an invitation. */
@ObjectType()
export class InvitationMail {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ example: 'invitation' }) @Field() kind!: string;
  @ApiProperty() @Field() toAddress!: string;
  @ApiProperty() @Field() language!: string;
  @ApiProperty() @Field() subject!: string;
  @ApiProperty({ enum: ['queued', 'sent', 'failed'] }) @Field() status!: string;
  @ApiProperty() @Field(() => Int) attempts!: number;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  sentAt!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
}

/** IN14 POST. */
@ObjectType()
export class InvitationImportQueued {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) jobId!: string;
}

@ObjectType()
export class ImportRowProblem {
  @ApiProperty() @Field() field!: string;
  @ApiProperty() @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

/** The result of one row of an import (IN14) or its preview (IN13). */
@ObjectType()
export class ImportRowResult {
  @ApiProperty({ description: 'Row number in the file (the header is row 1)' })
  @Field(() => Int)
  row!: number;

  @ApiProperty({ enum: ['created', 'skipped', 'failed', 'valid'] })
  @Field()
  status!: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  invitationId?: string | null;

  @ApiPropertyOptional({ type: [ImportRowProblem] })
  @Field(() => [ImportRowProblem], { nullable: true })
  errors?: ImportRowProblem[];
}

/** IN14 GET /invitations/import/{jobId}. */
@ObjectType()
export class InvitationImportJob {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty() @Field() fileName!: string;
  @ApiProperty({ enum: ['queued', 'running', 'done', 'failed'] }) @Field() status!: string;
  @ApiProperty() @Field(() => Int) totalRows!: number;
  @ApiProperty() @Field(() => Int) processed!: number;
  @ApiProperty({ description: 'Percent of the rows processed' })
  @Field(() => Int)
  progress!: number;
  @ApiProperty() @Field(() => Int) created!: number;
  @ApiProperty() @Field(() => Int) skipped!: number;
  @ApiProperty() @Field(() => Int) failed!: number;

  @ApiPropertyOptional({ type: [ImportRowResult], nullable: true })
  @Field(() => [ImportRowResult], { nullable: true })
  results!: ImportRowResult[] | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  error!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  finishedAt!: string | null;
}

/** A mapped column of an import file (IN13). */
export class ImportColumn {
  @ApiProperty({ description: 'The header as written in the file' }) header!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The field it maps to; null: ignored',
  })
  field!: string | null;
}

/** IN13. */
export class InvitationImportPreview {
  @ApiProperty({ type: [ImportColumn] }) columns!: ImportColumn[];
  @ApiProperty() totalRows!: number;
  @ApiProperty() validRows!: number;
  @ApiProperty({ description: 'Rows of an address already invited to the event (skipped)' })
  alreadyInvited!: number;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'The first 20 rows as mapped',
  })
  rows!: Record<string, unknown>[];
  @ApiProperty({ type: [ImportRowResult], description: 'Every row with errors' })
  errors!: ImportRowResult[];
}
