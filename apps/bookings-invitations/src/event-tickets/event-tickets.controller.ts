import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Paged, RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  CheckInInput,
  EventTicketListQuery,
  MailTicketsFilteredInput,
  MailTicketsInput,
  ParticipantInformationInput,
  RotateSigningKeyInput,
  SetTicketsStatusInput,
  TicketExportQuery,
  TicketIdsInput,
  TicketPdfQuery,
  TicketSummaryQuery,
  TicketVerificationQuery,
} from './dto/event-ticket.input';
import {
  CheckInResult,
  EventTicket,
  SigningKeyRotation,
  TicketMailsQueued,
  TicketsStatusChanged,
  TicketSummary,
  TicketVerification,
} from './dto/event-ticket.output';
import { EventTicketsService, MAX_JSON_BYTES } from './event-tickets.service';
import { CODE_FORMAT } from './ticket-codes.service';
import { pdfOfTicket } from './ticket-pdf.renderer';
import { TicketSigningKeysService } from './ticket-signing-keys.service';

const NOT_FOUND = ApiResponse({ status: 404, description: 'Unknown or another tenant’s ticket' });
const MAIL_NOTE =
  'Mails are queued in the mail outbox in the same transaction and sent by the mail worker ' +
  '(retried while SMTP is down; status per mail at BK17). A ticket’s mail goes to the ' +
  'participant’s e-mail, else to the booker; the framing text is in the booking’s language.';

@ApiTags('Event tickets')
@Controller('event-tickets')
export class EventTicketsController {
  constructor(
    private readonly tickets: EventTicketsService,
    private readonly signingKeys: TicketSigningKeysService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'ET1 List event tickets',
    description:
      'ET1 Filters (all optional): `eventId`, `status` (valid, cancelled), `bookingId`, ' +
      '`ticketTypeId`, `checkedIn` (true/false). `q` searches participant names, e-mail and the ' +
      'ticket type’s name. Sort by participantLastname, participantFirstname, participantEmail, ' +
      'ticketTypeName, status, dateCreated (default), dateModified. Each valid ticket carries its ' +
      'signed code.',
  })
  @ApiEnvelope(EventTicket, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: EventTicketListQuery,
  ): Promise<Paged<EventTicket>> {
    return this.tickets.list(ctx, query);
  }

  @Get('summary')
  @ApiOperation({
    summary: 'ET4 Summary of an event’s tickets',
    description:
      'ET4 Counts by ticket type and status with the checked-in count of each (one SQL ' +
      'aggregation), and the totals. Unknown or foreign event: 404.',
  })
  @ApiEnvelope(TicketSummary)
  summary(@Ctx() ctx: RequestContext, @Query() query: TicketSummaryQuery): Promise<TicketSummary> {
    return this.tickets.summary(ctx, query.eventId);
  }

  @Get('verification')
  @ApiOperation({
    summary: 'ET13 What a scanner needs to verify codes offline',
    description:
      `ET13 The event’s current Ed25519 public key (raw base64url, SPKI PEM and JWK), its keyId ` +
      'and, in `keys`, every key of the event (the current one first, then those rotated away by ' +
      'ET14, each with `validUntil`: codes of a retired key are accepted until the event’s end), ' +
      `and the code format: ${CODE_FORMAT} The first key is created with the event’s first ticket type ` +
      '(a read never writes one); an event without one has null key fields and no `keys`. `revoked`: tickets revoked (cancelled) since `since` ' +
      '(none: all), each with revokedAt. Pass `nextSince` as the next `since`: the list starts ' +
      'two minutes before `since`, so a revocation committed late is never missed (an id may ' +
      'come twice). Unknown or foreign event: 404.',
  })
  @ApiEnvelope(TicketVerification)
  verification(
    @Ctx() ctx: RequestContext,
    @Query() query: TicketVerificationQuery,
  ): Promise<TicketVerification> {
    return this.tickets.verification(ctx, query);
  }

  @Get('export')
  @RawResponse()
  @ApiOperation({
    summary: 'ET11 Export an event’s tickets (CSV or XLSX)',
    description:
      'ET11 `format` csv (default; UTF-8 with BOM, header row) or xlsx. Streamed ' +
      'in keyset pages of 1000: every ticket of the event, whatever their number. Columns: ' +
      'ticketId, bookingId, ticketTypeId, ticketType, status, firstname, lastname, email, ' +
      'priceGross, currency, bookerFirstname, bookerLastname, bookerEmail, checkedInAt, ' +
      'checkInLocation, revokedAt, dateCreated, code. CSV text cells starting with = + - @ get a ' +
      "leading ' (no formula runs in a spreadsheet). `Accept-Language: de`: German header names " +
      '(Ticket-ID, Vorname, Preis brutto, ...) and, in CSV, `;` as separator and a decimal comma ' +
      '(`49,00`); English: the column names above, `,` and `49.00`. XLSX: priceGross is a number ' +
      'cell. Dates are ISO 8601 in UTC in both. Unknown or foreign event: 404 (JSON).',
  })
  @ApiProduces('text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
  @ApiOkResponse({ description: 'The file (attachment)' })
  async export(
    @Ctx() ctx: RequestContext,
    @Query() query: TicketExportQuery,
  ): Promise<StreamableFile> {
    const xlsx = query.format === 'xlsx';
    const file = await this.tickets.exportFile(ctx, query.eventId, xlsx ? 'xlsx' : 'csv');
    const name = `tickets-${query.eventId.toLowerCase()}`;
    if (xlsx) {
      return new StreamableFile(file, {
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        disposition: `attachment; filename="${name}.xlsx"`,
      });
    }
    return new StreamableFile(file, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${name}.csv"`,
    });
  }

  @Put('status')
  @ApiOperation({
    summary: 'ET5 Change the status of tickets',
    description:
      'ET5 Body `{ ids, status }` (1 to 1000 ids), all or nothing. `cancelled`: the tickets are ' +
      'cancelled, their seats freed at once and their codes revoked from now (ET13); a booking ' +
      'left without a valid ticket is cancelled (history `tickets-status-changed`). A ticket ' +
      'already in the status is left as it is. `valid` for a cancelled ticket: 409 naming it ' +
      '(`ids[2]`): its seat may be sold, so book it again instead. Malformed ids: 400; unknown ' +
      'or foreign ids: 404 naming each by index.',
  })
  @ApiEnvelope(TicketsStatusChanged)
  @ApiResponse({ status: 409, description: 'A cancelled ticket cannot become valid again' })
  setStatus(
    @Ctx() ctx: RequestContext,
    @Body() body: SetTicketsStatusInput,
  ): Promise<TicketsStatusChanged> {
    return this.tickets.setStatus(ctx, body);
  }

  @Post('resend')
  @HttpCode(200)
  @ApiOperation({
    summary: 'ET6 Resend tickets',
    description:
      `ET6 Body \`{ ids }\`. One \`tickets\` mail per recipient and booking with each ticket’s ` +
      `PDF attached. A cancelled ticket: 409 naming it; unknown or foreign: 404. ${MAIL_NOTE}`,
  })
  @ApiEnvelope(TicketMailsQueued)
  resend(@Ctx() ctx: RequestContext, @Body() body: TicketIdsInput): Promise<TicketMailsQueued> {
    return this.tickets.resend(ctx, body.ids);
  }

  @Post('mails')
  @HttpCode(200)
  @ApiOperation({
    summary: 'ET7 Free mail to participants',
    description: `ET7 Body \`{ ids, subject, text }\`; one mail per address. ${MAIL_NOTE}`,
  })
  @ApiEnvelope(TicketMailsQueued)
  mail(@Ctx() ctx: RequestContext, @Body() body: MailTicketsInput): Promise<TicketMailsQueued> {
    return this.tickets.mail(ctx, body);
  }

  @Post('mails/filtered')
  @HttpCode(200)
  @ApiOperation({
    summary: 'ET8 Free mail to participants matching a filter',
    description:
      'ET8 Body `{ filter: { eventId, status?, ticketTypeId?, checkedIn? }, subject, text }`; ' +
      `one mail per address, at most 20000. Unknown or foreign event: 404. ${MAIL_NOTE}`,
  })
  @ApiEnvelope(TicketMailsQueued)
  mailFiltered(
    @Ctx() ctx: RequestContext,
    @Body() body: MailTicketsFilteredInput,
  ): Promise<TicketMailsQueued> {
    return this.tickets.mailFiltered(ctx, body);
  }

  @Post('check-in')
  @HttpCode(200)
  @ApiOperation({
    summary: 'ET9 Check a ticket in by its code',
    description:
      'ET9 Body `{ code, nonce?, location?, eventId? }`. In order: the code’s signature (400 ' +
      'rule invalidCode: malformed, tampered, or not signed by this tenant’s key of its event; ' +
      '400 rule retiredKey: signed by a key rotated away (ET14) and the event has ended), ' +
      'the ticket (404), valid (409 cancelled), of the scanner’s `eventId` when given (409). A ' +
      'ticket checks in exactly once (a unique constraint decides, also between concurrent ' +
      'scans): a second check-in is a 409 like every error (`data: null`) whose translated ' +
      '`message` names the time of the first (in the event’s time zone and the caller’s ' +
      'language, e.g. `27.11.2026, 14:01` or `Nov 27, 2026, 2:01 PM`) and its `location`, and so does ' +
      '`errors[0]` (field `code`, rule `alreadyCheckedIn`). A retry with the first scan’s ' +
      '`nonce` answers 200 again (`retried: true`). On success the booking history gets ' +
      '`checked-in` and `bookings-invitations.tickets.checked-in` is published (webhook ' +
      'ticket.checked_in, touchpoint of the booker).',
  })
  @ApiEnvelope(CheckInResult)
  @ApiResponse({ status: 409, description: 'Checked in before, cancelled, or another event' })
  checkIn(@Ctx() ctx: RequestContext, @Body() body: CheckInInput): Promise<CheckInResult> {
    return this.tickets.checkIn(ctx, body);
  }

  @Post('signing-keys/rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'ET14 Rotate an event’s signing key for ticket codes',
    description:
      'ET14 (*ours*) Body `{ eventId }`. A new Ed25519 key becomes the event’s current key and ' +
      'the current one is retired: every code read from now on (ET1, ET2, ET11, ET12, mails) is ' +
      'signed with the new key and carries its keyId. Codes of the retired key that were already ' +
      'handed out keep admitting, at check-in (ET9) and offline (ET13 lists every key with ' +
      '`validUntil`), until the event has ended: its end (`endsAt`; without one, a day after ' +
      'its start; never while it has no dates); after that ET9 refuses them with 400 rule ' +
      '`retiredKey`. Rotations of one event run one after the other (each retires the key the ' +
      'previous wrote), so there is always exactly one current key. An event without a key yet ' +
      'gets its first. Answers the new key (`current`) and the retired one (`retired`). Unknown ' +
      'or foreign event: 404.',
  })
  @ApiEnvelope(SigningKeyRotation)
  @ApiResponse({ status: 404, description: 'Unknown or another tenant’s event' })
  rotateSigningKey(
    @Ctx() ctx: RequestContext,
    @Body() body: RotateSigningKeyInput,
  ): Promise<SigningKeyRotation> {
    return this.signingKeys.rotate(ctx, body);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'ET2 Read an event ticket',
    description: 'ET2 With its signed code (null when cancelled) and its check-in.',
  })
  @ApiEnvelope(EventTicket)
  @NOT_FOUND
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<EventTicket> {
    return this.tickets.get(ctx, id);
  }

  @Put(':id/integration-data')
  @ApiOperation({
    summary: 'ET3 Set the integration data of a ticket',
    description:
      `ET3 The body is the JSON object kept with the ticket (replacing what was there); at most ` +
      `${MAX_JSON_BYTES} bytes serialized: 413 above, 400 when the body is not an object.`,
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiEnvelope(EventTicket)
  @NOT_FOUND
  @ApiResponse({ status: 413, description: 'Larger than 16 KB' })
  setIntegrationData(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<EventTicket> {
    return this.tickets.setIntegrationData(ctx, id, body);
  }

  @Put(':id/participant-information')
  @ApiOperation({
    summary: 'ET10 Set the participant information of a ticket',
    description:
      'ET10 `firstname`, `lastname`, `email` (null clears it; mails then go to the booker), ' +
      '`information` (a JSON object of at most 16 KB: 413 above; null clears it). Fields not ' +
      'given stay as they are.',
  })
  @ApiEnvelope(EventTicket)
  @NOT_FOUND
  setParticipantInformation(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: ParticipantInformationInput,
  ): Promise<EventTicket> {
    return this.tickets.setParticipantInformation(ctx, id, body);
  }

  @Get(':id/pdf')
  @RawResponse()
  @ApiOperation({
    summary: 'ET12 The ticket as PDF',
    description:
      'ET12 A4 with the event’s title, date and time in its time zone, the participant, the ' +
      'ticket type, the QR code of the signed code and the code as text. A cancelled ticket is ' +
      'marked as such, without a code. Labels in `lang`, else Accept-Language.',
  })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF', content: { 'application/pdf': {} } })
  @NOT_FOUND
  async pdf(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: TicketPdfQuery,
  ): Promise<StreamableFile> {
    const found = await this.tickets.requireForPdf(ctx, id);
    const file = await pdfOfTicket(found, query.lang ?? ctx.language);
    return new StreamableFile(file.content, {
      type: file.contentType,
      disposition: `inline; filename="${file.filename}"`,
    });
  }
}
