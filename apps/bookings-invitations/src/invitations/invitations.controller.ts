import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Paged, RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { contentDisposition } from '@crm/storage/uploads';
import {
  CreateInvitationInput,
  DeleteInvitationsInput,
  ImportJobQuery,
  InvitationExportQuery,
  InvitationFreeTextMailInput,
  InvitationListQuery,
  InvitationMailsFilterInput,
  InvitationMailsInput,
  InvitationsStatusInput,
} from './dto/invitation.input';
import {
  Invitation,
  InvitationImportJob,
  InvitationImportPreview,
  InvitationImportQueued,
  InvitationMail,
  InvitationMailsQueued,
  InvitationsDeleted,
  InvitationValidation,
  PublicInvitation,
} from './dto/invitation.output';
import { ImportForm, ImportUploadInterceptor } from './import-upload';
import { csvExport, xlsxExport } from './invitation-export';
import { InvitationImportService } from './invitation-import.service';
import { InvitationMailsService } from './invitation-mails.service';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';

const IMPORT_FORM = {
  schema: {
    type: 'object',
    required: ['file', 'eventId'],
    properties: {
      file: { type: 'string', format: 'binary' },
      eventId: { type: 'string', format: 'uuid' },
    },
  },
};

const IMPORT_RULES =
  'multipart/form-data: the file in field `file` (CSV with `;` or `,`, UTF-8 with or without BOM, ' +
  'or XLSX: the first sheet; at most 10 MB, else 413; another type 415) and the event in field ' +
  '`eventId` (or `?eventId=`). The first row names the columns, in English or German, case, ' +
  'spaces and hyphens ignored: email / E-Mail, firstname / Vorname, lastname / Nachname, ' +
  'language / Sprache (en, de), personId / Person-ID (a person of crm-people: name and e-mail ' +
  'of the favorite card fill what the row leaves empty). Other columns are ignored. A row ' +
  'fails when it has neither address nor person, a bad address, an unknown person, a person ' +
  'without e-mail or an address already in an earlier row; an address already invited to the ' +
  'event is skipped (rule of the unique key: a second upload invites nobody twice).';

const TRANSITIONS =
  'Allowed: created -> sent | withdrawn; sent -> created | withdrawn; withdrawn -> created; ' +
  'the same status again changes nothing. accepted and rejected are the invitee’s answers ' +
  '(a booking with the token, IN2) and are never set or left by hand. A transition not allowed ' +
  'is a 409 naming both states (several: each by index); all or nothing.';

// Fixed paths first (Fastify prefers static segments anyway; the order keeps it obvious).
@ApiTags('Invitations')
@Controller('invitations')
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly mails: InvitationMailsService,
    private readonly imports: InvitationImportService,
    private readonly repo: InvitationsRepository,
  ) {}

  @Get('public/:token')
  @ApiOperation({
    summary: 'IN1 Invitation details (public)',
    description:
      'IN1 No API key: the token is the key. The event (title, start, end, time zone), the ' +
      'invitee’s name, language and status and whether a booking was made with it; never the ' +
      'e-mail address or information data. Unknown token, another tenant’s or a withdrawn ' +
      'invitation: the same 404.',
  })
  @ApiEnvelope(PublicInvitation)
  @ApiResponse({ status: 404, description: 'Unknown, foreign or withdrawn' })
  publicGet(@Ctx() ctx: RequestContext, @Param('token') token: string): Promise<PublicInvitation> {
    return this.invitations.publicGet(ctx, token);
  }

  @Post('public/:token/reject')
  @HttpCode(200)
  @ApiOperation({
    summary: 'IN2 Reject an invitation (public)',
    description:
      'IN2 No API key. Status rejected with respondedAt; a booking made with the invitation is ' +
      'cancelled without a fee and its seats freed, in the same transaction; ' +
      '`bookings-invitations.invitations.rejected` is published (webhook invitation.rejected, ' +
      'touchpoint of the person). A second reject answers 200 with the same state and changes ' +
      'nothing. Unknown, foreign or withdrawn: 404.',
  })
  @ApiEnvelope(PublicInvitation)
  @ApiResponse({ status: 404, description: 'Unknown, foreign or withdrawn' })
  publicReject(
    @Ctx() ctx: RequestContext,
    @Param('token') token: string,
  ): Promise<PublicInvitation> {
    return this.invitations.publicReject(ctx, token);
  }

  @Get()
  @ApiOperation({
    summary: 'IN3 List invitations',
    description:
      'IN3 Filters `eventId`, `status`; `q` searches first name, last name and e-mail; paged; ' +
      'sort by firstname, lastname, email, status, language, sentAt, respondedAt, dateCreated ' +
      '(default), dateModified.',
  })
  @ApiEnvelope(Invitation, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: InvitationListQuery,
  ): Promise<Paged<Invitation>> {
    return this.invitations.list(ctx, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'IN7 Create an invitation',
    description:
      'IN7 For a person of crm-people (`personId`: name and the first e-mail of the favorite ' +
      'card, else of any card, asked over NATS; 503 naming crm-people when it does not answer; ' +
      'an unknown person is a 400 `personId`/`unknownPerson`, one without e-mail ' +
      '`personId`/`noEmail`) or an address (`email`): exactly one of them (rule ' +
      '`personOrEmail`). The event must be the tenant’s (404). One invitation per event and ' +
      'address (case ignored): a second is a 409 naming the address. The token has 128 random ' +
      'bits. language: given, else the person’s, else Accept-Language. websiteId: one of the ' +
      'event’s websites (rule websiteNotOfEvent). inviteeInformation: a JSON object of at most ' +
      '16 KB (rule maxBytes). Status created.',
  })
  @ApiEnvelope(Invitation, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign event' })
  @ApiResponse({ status: 409, description: 'The address is already invited to the event' })
  @ApiResponse({ status: 503, description: 'crm-people or events did not answer' })
  create(@Ctx() ctx: RequestContext, @Body() body: CreateInvitationInput): Promise<Invitation> {
    return this.invitations.create(ctx, body);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'IN8 Validate an invitation',
    description:
      'IN8 Every check of IN7 without writing; an address already invited is `email`/`unique`.',
  })
  @ApiBody({ type: CreateInvitationInput })
  @ApiEnvelope(InvitationValidation)
  validate(@Ctx() ctx: RequestContext, @Body() body: unknown): Promise<InvitationValidation> {
    return this.invitations.validate(ctx, body);
  }

  @Delete('batch')
  @ApiOperation({
    summary: 'IN6 Delete several invitations',
    description:
      'IN6 At most 1000 ids, all or nothing: malformed ids 400, ids that are not invitations of ' +
      'the tenant 404, each named by index.',
  })
  @ApiEnvelope(InvitationsDeleted)
  removeMany(
    @Ctx() ctx: RequestContext,
    @Body() body: DeleteInvitationsInput,
  ): Promise<InvitationsDeleted> {
    return this.invitations.removeMany(ctx, body.ids);
  }

  @Put('status')
  @ApiOperation({
    summary: 'IN16 Change the status of invitations',
    description: `IN16 ${TRANSITIONS}`,
  })
  @ApiEnvelope(Invitation, 200, true)
  @ApiResponse({ status: 409, description: 'A transition that is not allowed' })
  async setStatus(
    @Ctx() ctx: RequestContext,
    @Body() body: InvitationsStatusInput,
  ): Promise<Invitation[]> {
    return this.invitations.setStatus(ctx, body.ids, body.status);
  }

  @Post('mails')
  @HttpCode(202)
  @ApiOperation({
    summary: 'IN9 Send the invitation mail',
    description:
      'IN9 To each invitation of `ids` (at most 1000), in the invitee’s language: the event’s ' +
      'title and start in its time zone, the invitation link, accept (book with the token) and ' +
      'reject links. The mails are queued in the transaction that marks the invitations sent ' +
      '(sentAt); the mail worker sends them (IN17 shows each one’s status). Only created and ' +
      'sent invitations get it: another status is a 409 naming it (all or nothing). 503 naming ' +
      'events when this service has no copy of the event yet (the mail needs its title and start).',
  })
  @ApiEnvelope(InvitationMailsQueued, 202)
  send(
    @Ctx() ctx: RequestContext,
    @Body() body: InvitationMailsInput,
  ): Promise<InvitationMailsQueued> {
    return this.mails.send(ctx, body.ids);
  }

  @Post('mails/filtered')
  @HttpCode(202)
  @ApiOperation({
    summary: 'IN10 Send the invitation mail to a filter',
    description:
      'IN10 To every invitation of the event with the status (created or sent; default both) ' +
      'matching `q` (name, e-mail); answered and withdrawn ones are never written to.',
  })
  @ApiEnvelope(InvitationMailsQueued, 202)
  sendFiltered(
    @Ctx() ctx: RequestContext,
    @Body() body: InvitationMailsFilterInput,
  ): Promise<InvitationMailsQueued> {
    return this.mails.sendFiltered(ctx, body);
  }

  @Post('mails/free-text')
  @HttpCode(202)
  @ApiOperation({
    summary: 'IN11 Send a free-text mail',
    description:
      'IN11 `{ ids, subject, text }`: {firstname} and {lastname} are replaced per invitee. ' +
      'Withdrawn invitations are refused (409); statuses do not change.',
  })
  @ApiEnvelope(InvitationMailsQueued, 202)
  freeText(
    @Ctx() ctx: RequestContext,
    @Body() body: InvitationFreeTextMailInput,
  ): Promise<InvitationMailsQueued> {
    return this.mails.freeText(ctx, body);
  }

  @Post('import/preview')
  @HttpCode(200)
  @UseInterceptors(ImportUploadInterceptor)
  @ApiOperation({
    summary: 'IN13 Preview an import',
    description: `IN13 Writes nothing: the columns and the field each maps to, the row count, the first 20 rows as mapped, the rows already invited and every row's errors. ${IMPORT_RULES}`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(IMPORT_FORM)
  @ApiEnvelope(InvitationImportPreview)
  @ApiResponse({ status: 413, description: 'The file is larger than 10 MB' })
  @ApiResponse({ status: 415, description: 'Neither CSV nor XLSX' })
  preview(
    @Ctx() ctx: RequestContext,
    @ImportForm()
    form: { file?: { buffer: Buffer; name: string; mimetype: string }; eventId?: string },
  ): Promise<InvitationImportPreview> {
    return this.imports.preview(ctx, form.file, form.eventId);
  }

  @Post('import')
  @HttpCode(202)
  @UseInterceptors(ImportUploadInterceptor)
  @ApiOperation({
    summary: 'IN14 Import invitations from a file',
    description: `IN14 202 with the job id; GET /invitations/import/{jobId} reports its progress and the result of each row (created, skipped, failed with errors). The file is read at once (a file that cannot be read is refused now); the rows run as a job of the service, inserted 1000 per statement. ${IMPORT_RULES}`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(IMPORT_FORM)
  @ApiEnvelope(InvitationImportQueued, 202)
  @ApiResponse({ status: 413, description: 'The file is larger than 10 MB' })
  @ApiResponse({ status: 415, description: 'Neither CSV nor XLSX' })
  enqueue(
    @Ctx() ctx: RequestContext,
    @ImportForm()
    form: { file?: { buffer: Buffer; name: string; mimetype: string }; eventId?: string },
  ): Promise<InvitationImportQueued> {
    return this.imports.enqueue(ctx, form.file, form.eventId);
  }

  @Get('import/:jobId')
  @ApiOperation({
    summary: 'IN14 Read an import job',
    description:
      'IN14 Status (queued, running, done, failed), progress in percent, counts and, when ' +
      'done, the result of each row (`results=failed`: of the failed rows only; `none`). ' +
      'Another tenant’s job: 404.',
  })
  @ApiEnvelope(InvitationImportJob)
  job(
    @Ctx() ctx: RequestContext,
    @Param('jobId') jobId: string,
    @Query() query: ImportJobQuery,
  ): Promise<InvitationImportJob> {
    return this.imports.job(ctx, jobId, query.results);
  }

  @Get('export')
  @RawResponse()
  @ApiOperation({
    summary: 'IN15 Export the invitations of an event',
    description:
      'IN15 Every invitation of the event (not a page), streamed as it is read page by page: ' +
      'CSV (UTF-8 with BOM, `,`) or XLSX. Columns: id, email, firstname, lastname, language, ' +
      'status, personId, bookingId, sentAt, respondedAt, dateCreated. `Accept-Language: de`: ' +
      'German header names (ID, E-Mail, Vorname, Nachname, Sprache, ...: IN13/IN14 read them ' +
      'back) and, in CSV, `;` as separator. Dates are ISO 8601 in UTC. CSV text cells starting ' +
      "with = + - @ get a leading '. Unknown or foreign event: 404.",
  })
  @ApiProduces('text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
  @ApiResponse({ status: 200, description: 'The file' })
  async export(
    @Ctx() ctx: RequestContext,
    @Query() query: InvitationExportQuery,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile> {
    const eventId = query.eventId.toLowerCase();
    await this.invitations.requireEvent(ctx, eventId);
    const xlsx = query.format === 'xlsx';
    res.header(
      'Content-Type',
      xlsx
        ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
        : 'text/csv; charset=utf-8',
    );
    res.header(
      'Content-Disposition',
      contentDisposition(`invitations-${eventId}.${xlsx ? 'xlsx' : 'csv'}`),
    );
    const stream = (xlsx ? xlsxExport : csvExport)(
      this.repo,
      ctx.tenantId,
      eventId,
      this.invitations.exportStyle(ctx),
    );
    return new StreamableFile(stream);
  }

  @Get(':id')
  @ApiOperation({ summary: 'IN4 Read an invitation', description: 'IN4 Unknown or foreign: 404.' })
  @ApiEnvelope(Invitation)
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Invitation> {
    return this.invitations.get(ctx, id);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'IN5 Delete an invitation',
    description: 'IN5 Unknown or foreign: 404.',
  })
  @ApiEnvelope(InvitationsDeleted)
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<InvitationsDeleted> {
    return this.invitations.remove(ctx, id);
  }

  @Put(':id/invitee-information')
  @ApiOperation({
    summary: 'IN12 Set the information data of the invitee',
    description:
      'IN12 The body is a JSON object (anything else 400), at most 16 KB (413); it replaces ' +
      'the previous one. Never shown by the public endpoints.',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiEnvelope(Invitation)
  @ApiResponse({ status: 413, description: 'Larger than 16 KB' })
  setInformation(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<Invitation> {
    return this.invitations.setInformation(ctx, id, body);
  }

  @Get(':id/mails')
  @ApiOperation({
    summary: 'IN17 Mails of an invitation',
    description: 'IN17 Newest first, with status (queued, sent, failed), attempts and last error.',
  })
  @ApiEnvelope(InvitationMail, 200, true)
  mailsOf(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<InvitationMail[]> {
    return this.mails.mailsOf(ctx, id);
  }
}
