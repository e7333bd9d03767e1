import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { Readable } from 'node:stream';
import { Paged, paged } from '@crm/envelope';
import {
  AppException,
  BATCH_MAX,
  ErrorCode,
  FieldProblem,
  isUuid,
  listProblems,
  MessageArgs,
  throwIfProblems,
} from '@crm/errors';
import { SUPPORTED_LANGUAGES } from '@crm/i18n';
import { parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { BookingCancellation, CancelledBooking } from '../bookings/booking-cancellation';
import { actorOf, HistoryEntry } from '../bookings/booking-history';
import { EventLookup } from '../event-copies/event-lookup.service';
import { Prisma } from '../generated/prisma/client';
import { localTime } from '../common/local-time';
import { MailDraft } from '../mails/mail-outbox';
import type {
  CheckInInput,
  EventTicketListQuery,
  MailTicketsFilteredInput,
  MailTicketsInput,
  ParticipantInformationInput,
  SetTicketsStatusInput,
  TicketVerificationQuery,
} from './dto/event-ticket.input';
import type {
  CheckInResult,
  EventTicket,
  TicketMailsQueued,
  TicketsStatusChanged,
  TicketSummary,
  TicketVerification,
} from './dto/event-ticket.output';
import { recipientOf, toEventTicket } from './event-ticket.mapper';
import {
  EVENT_TICKET_SORT_FIELDS,
  EventTicketsRepository,
  TicketFilter,
  TicketRecord,
} from './event-tickets.repository';
import { exportHeaders, exportLocale } from '../common/export-locale';
import {
  cellsOf,
  csvStream,
  EXPORT_COLUMNS,
  EXPORT_PAGE,
  ExportCells,
  xlsxStream,
} from './ticket-export';
import { CODE_FORMAT, TicketCodes } from './ticket-codes.service';
import { toTicketSigningKey } from './ticket-signing-keys.service';
import type { SigningKey } from '../ticket-codes/signing-keys';
import { validUntilOf } from '../ticket-codes/ticket-code';
import { BookingHistoryRepository } from '../bookings/booking-history.repository';
import { BookingsRepository } from '../bookings/bookings.repository';
import { MailsRepository } from '../mails/mails.repository';
import type { Tx } from '../database/tx';

/** ET3, ET10: largest JSON object kept (serialized, UTF-8). */
export const MAX_JSON_BYTES = 16 * 1024;
/** ET8: most recipients of one filtered mail. */
export const MAX_FILTERED_RECIPIENTS = 20_000;
/**
 * ET13: revocations are listed from this long before `since`, so one whose transaction began
 * before the previous answer's serverTime but committed after it is not missed (ids may repeat).
 */
export const REVOCATION_OVERLAP_MS = 2 * 60_000;

const problem = (field: string, rule: string, args?: MessageArgs): FieldProblem => ({
  field,
  rule,
  args,
  messageKey: `eventTickets.problems.${rule}`,
});

const languageOf = (l: string | null | undefined) =>
  (SUPPORTED_LANGUAGES as readonly string[]).includes(l ?? '') ? l! : 'en';

/**
 * Thrown for a second check-in: the first one's when and where travel with it. The message
 * names the time as the person at the gate reads it (`at`: the event's zone, the caller's
 * language); `checkedInAt` keeps the instant (ISO 8601, UTC) in the arguments.
 */
export class AlreadyCheckedIn extends AppException {
  constructor(
    readonly first: { ticketId: string; checkedInAt: Date; location: string | null },
    timeZone: string | null,
    language: string,
  ) {
    const args = {
      id: first.ticketId,
      checkedInAt: first.checkedInAt.toISOString(),
      at: localTime(first.checkedInAt, timeZone, languageOf(language)),
      location: first.location ?? '-',
    };
    super(ErrorCode.CONFLICT, 'eventTickets.errors.alreadyCheckedIn', args, [
      problem('code', 'alreadyCheckedIn', args),
    ]);
  }
}

/**
 * Event tickets ET1-ET13: issued by bookings (one per participant), listed, read with their
 * signed code, checked in exactly once (the CheckIn row's unique ticketId decides), cancelled
 * (seats freed at once), mailed through the mail outbox.
 */
@Injectable()
export class EventTicketsService {
  constructor(
    private readonly repo: EventTicketsRepository,
    private readonly codes: TicketCodes,
    private readonly events: EventLookup,
    private readonly bookings: BookingCancellation,
    private readonly i18n: I18nService,
    private readonly history: BookingHistoryRepository,
    private readonly bookingRows: BookingsRepository,
    private readonly mailbox: MailsRepository,
  ) {}

  private t(key: string, lang: string, args?: Record<string, unknown>): string {
    return this.i18n.t(`eventTickets.${key}`, { lang: languageOf(lang), args }) as string;
  }

  private notFound(ctx: RequestContext, id: string): AppException {
    return AppException.notFound(this.t('resource.ticket', ctx.language), id);
  }

  /** 400 naming each malformed id by index; then the distinct ids in lower case. */
  private checkIds(ids: unknown): string[] {
    const problems = listProblems(ids, 'ids', BATCH_MAX);
    throwIfProblems(problems);
    const list = ids as unknown[];
    throwIfProblems(
      list.flatMap((id, i) => (isUuid(id) ? [] : [{ field: `ids[${i}]`, rule: 'isUuid' }])),
    );
    return list.map((id) => (id as string).toLowerCase());
  }

  /** The tickets of the given ids, or a 404 naming each one that is not the tenant's. */
  private async requireAll(ctx: RequestContext, ids: string[], db?: Tx): Promise<TicketRecord[]> {
    const rows = await this.repo.findMany(ctx.tenantId, [...new Set(ids)], db);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.flatMap((id, i) =>
      byId.has(id) ? [] : [problem(`ids[${i}]`, 'unknownTicket', { id })],
    );
    if (missing.length) {
      throw new AppException(
        ErrorCode.NOT_FOUND,
        'errors.notFound.resource',
        {
          resource: this.t('resource.ticket', ctx.language),
          id: missing.map((m) => m.args!.id).join(', '),
        },
        missing,
      );
    }
    return ids.map((id) => byId.get(id)!);
  }

  private async find(ctx: RequestContext, id: string): Promise<TicketRecord> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id.toLowerCase()) : null;
    if (!row) throw this.notFound(ctx, id);
    return row;
  }

  private async views(rows: TicketRecord[]): Promise<EventTicket[]> {
    const codes = await this.codes.codesOf(rows);
    return rows.map((r) => toEventTicket(r, codes.get(r.id) ?? null));
  }

  /** ET1 */
  async list(ctx: RequestContext, query: EventTicketListQuery): Promise<Paged<EventTicket>> {
    const sort = parseSort(
      query.sort,
      EVENT_TICKET_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'asc' }],
      'id',
    );
    const [rows, total] = await this.repo.page(ctx.tenantId, filterOf(query), {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
    });
    return paged(await this.views(rows), total);
  }

  /** ET2 */
  async get(ctx: RequestContext, id: string): Promise<EventTicket> {
    const [view] = await this.views([await this.find(ctx, id)]);
    return view;
  }

  /** ET3: replaces the ticket's integration data. */
  async setIntegrationData(ctx: RequestContext, id: string, data: unknown): Promise<EventTicket> {
    const json = this.checkJsonObject('body', data);
    const row = await this.find(ctx, id);
    await this.repo.transaction((tx) =>
      this.repo.updateFields(tx, ctx.tenantId, row.id, {
        integrationData: json as Prisma.InputJsonValue,
      }),
    );
    return this.get(ctx, row.id);
  }

  /** A JSON object of at most 16 KB: 400 when not an object, 413 when larger. */
  private checkJsonObject(field: string, value: unknown): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throwIfProblems([{ field, rule: 'isObject' }]);
    }
    const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
    if (bytes > MAX_JSON_BYTES) {
      throw new AppException(
        ErrorCode.PAYLOAD_TOO_LARGE,
        'eventTickets.errors.jsonTooLarge',
        { field, bytes, max: MAX_JSON_BYTES },
        [problem(field, 'jsonTooLarge', { bytes, max: MAX_JSON_BYTES })],
      );
    }
    return value as Record<string, unknown>;
  }

  /** ET10 */
  async setParticipantInformation(
    ctx: RequestContext,
    id: string,
    input: ParticipantInformationInput,
  ): Promise<EventTicket> {
    const problems: FieldProblem[] = [];
    for (const f of ['firstname', 'lastname'] as const) {
      if (input[f] !== undefined && !input[f]?.trim())
        problems.push({ field: f, rule: 'isNotEmpty' });
    }
    throwIfProblems(problems);
    if (input.information != null) this.checkJsonObject('information', input.information);
    const row = await this.find(ctx, id);
    await this.repo.transaction((tx) =>
      this.repo.updateFields(tx, ctx.tenantId, row.id, {
        ...(input.firstname !== undefined ? { participantFirstname: input.firstname.trim() } : {}),
        ...(input.lastname !== undefined ? { participantLastname: input.lastname.trim() } : {}),
        ...(input.email !== undefined ? { participantEmail: input.email?.trim() || null } : {}),
        ...(input.information !== undefined
          ? {
              participantInformation:
                input.information === null
                  ? Prisma.DbNull
                  : (input.information as Prisma.InputJsonValue),
            }
          : {}),
        dateModified: new Date(),
      }),
    );
    return this.get(ctx, row.id);
  }

  /** ET4 */
  async summary(ctx: RequestContext, eventId: string): Promise<TicketSummary> {
    await this.events.require(ctx, eventId);
    const id = eventId.toLowerCase();
    const rows = await this.repo.summary(ctx.tenantId, id);
    const types = new Map<string, TicketSummary['ticketTypes'][number]>();
    for (const r of rows) {
      const t = types.get(r.ticketTypeId) ?? {
        ticketTypeId: r.ticketTypeId,
        ticketTypeName: r.ticketTypeName,
        total: 0,
        valid: 0,
        cancelled: 0,
        checkedIn: 0,
      };
      t.total += r.total;
      t.checkedIn += r.checkedIn;
      if (r.status === 'valid') t.valid += r.total;
      if (r.status === 'cancelled') t.cancelled += r.total;
      types.set(r.ticketTypeId, t);
    }
    const list = [...types.values()];
    const sum = (k: 'total' | 'valid' | 'cancelled' | 'checkedIn') =>
      list.reduce((n, t) => n + t[k], 0);
    return {
      eventId: id,
      total: sum('total'),
      valid: sum('valid'),
      cancelled: sum('cancelled'),
      checkedIn: sum('checkedIn'),
      ticketTypes: list,
    };
  }

  /** ET13: the current key in the key fields, every key of the event in `keys`. */
  async verification(
    ctx: RequestContext,
    query: TicketVerificationQuery,
  ): Promise<TicketVerification> {
    const event = await this.events.require(ctx, query.eventId);
    const eventId = query.eventId.toLowerCase();
    const keys = (await this.codes.keysOf(ctx.tenantId, eventId)).map((k) =>
      toTicketSigningKey(k, event),
    );
    const key = keys.find((k) => k.current) ?? null;
    const serverTime = await this.repo.now();
    const from = query.since
      ? new Date(new Date(query.since).getTime() - REVOCATION_OVERLAP_MS)
      : null;
    const revoked = await this.repo.revoked(ctx.tenantId, eventId, from);
    return {
      eventId,
      algorithm: 'Ed25519',
      keyId: key?.keyId ?? null,
      publicKey: key?.publicKey ?? null,
      publicKeyPem: key?.publicKeyPem ?? null,
      publicKeyJwk: key?.publicKeyJwk ?? null,
      keys,
      codeFormat: CODE_FORMAT,
      revoked: revoked.map((r) => ({ ticketId: r.ticketId, revokedAt: r.revokedAt.toISOString() })),
      serverTime: serverTime.toISOString(),
      nextSince: serverTime.toISOString(),
    };
  }

  /**
   * ET5: all or nothing. valid -> cancelled frees the seats (revoked from now); a cancelled
   * ticket never becomes valid again (its seat may be sold): 409, book again instead. A booking
   * left without a valid ticket is cancelled.
   */
  async setStatus(
    ctx: RequestContext,
    input: SetTicketsStatusInput,
  ): Promise<TicketsStatusChanged> {
    const ids = this.checkIds(input.ids);
    const unique = [...new Set(ids)];
    return this.repo.transaction(async (tx) => {
      // bookings before tickets, the order of BK8, so the two never wait on each other in a cycle
      await this.bookingRows.lockOfTickets(tx, ctx.tenantId, unique);
      const rows = await this.repo.lockForCancellation(tx, ctx.tenantId, unique);
      const locked = new Map(rows.map((r) => [r.id, r.status]));
      const missing = ids.flatMap((id, i) =>
        locked.has(id) ? [] : [problem(`ids[${i}]`, 'unknownTicket', { id })],
      );
      if (missing.length) {
        throw new AppException(
          ErrorCode.NOT_FOUND,
          'errors.notFound.resource',
          {
            resource: this.t('resource.ticket', ctx.language),
            id: missing.map((m) => m.args!.id).join(', '),
          },
          missing,
        );
      }
      if (input.status === 'valid') {
        const refused = ids.flatMap((id, i) =>
          locked.get(id) === 'cancelled' ? [problem(`ids[${i}]`, 'cannotRevalidate', { id })] : [],
        );
        if (refused.length) {
          throw new AppException(
            ErrorCode.CONFLICT,
            'eventTickets.errors.cannotRevalidate',
            { count: refused.length },
            refused,
          );
        }
        return { changed: 0, cancelledBookingIds: [] };
      }
      // each booking's valid tickets cancelled as BK22 cancels them, by the organiser and without
      // a fee (no checks: the organiser's status change overrides check-ins and minimums): seats,
      // refund of a paid booking, payment status, history, outbox event, the booker's mail; the
      // last valid ticket cancels the booking
      const byBooking = new Map<string, string[]>();
      for (const r of rows.filter((x) => x.status === 'valid')) {
        byBooking.set(r.bookingId, [...(byBooking.get(r.bookingId) ?? []), r.id]);
      }
      const done: CancelledBooking[] = [];
      for (const bookingId of [...byBooking.keys()].sort()) {
        done.push(
          await this.bookings.cancelTickets(
            tx,
            ctx.tenantId,
            bookingId,
            byBooking.get(bookingId)!,
            {
              reason: 'organiser',
              actor: actorOf(ctx),
              fee: 'none',
              note: 'tickets cancelled (ET5)',
              language: ctx.language,
              strict: false,
            },
          ),
        );
      }
      const emptied = done.filter((d) => d.bookingCancelled).map((d) => d.bookingId);
      await this.history.add(
        tx,
        actorOf(ctx),
        ...done.map((d): HistoryEntry => ({
          tenantId: ctx.tenantId,
          eventId: d.eventId,
          bookingId: d.bookingId,
          action: 'tickets-status-changed',
          data: {
            status: 'cancelled',
            ticketIds: d.ticketIds,
            bookingCancelled: d.bookingCancelled,
          },
        })),
      );
      return {
        changed: done.reduce((n, d) => n + d.ticketIds.length, 0),
        cancelledBookingIds: emptied,
      };
    });
  }
  /**
   * ET6: one `tickets` mail per recipient and booking, with each ticket's PDF attached (rendered
   * when the mail is sent). Cancelled tickets are not sent: 409 naming them.
   */
  async resend(ctx: RequestContext, rawIds: unknown): Promise<TicketMailsQueued> {
    const ids = this.checkIds(rawIds);
    const rows = await this.requireAll(ctx, ids);
    const refused = rows.flatMap((r, i) =>
      r.status === 'valid' ? [] : [problem(`ids[${i}]`, 'ticketCancelled', { id: r.id })],
    );
    if (refused.length) {
      throw new AppException(
        ErrorCode.CONFLICT,
        'eventTickets.errors.resendCancelled',
        { count: refused.length },
        refused,
      );
    }
    const titles = await this.codes.titlesOf(ctx.tenantId, rows);
    const groups = new Map<string, TicketRecord[]>();
    for (const r of uniqueRows(rows)) {
      const k = `${recipientOf(r).address.toLowerCase()}\u0000${r.bookingId}`;
      groups.set(k, [...(groups.get(k) ?? []), r]);
    }
    const drafts: MailDraft[] = [...groups.values()].map((tickets) => {
      const first = tickets[0];
      const to = recipientOf(first);
      const lang = languageOf(first.booking.language);
      const args = {
        name: to.name,
        event: titles.get(first.eventId) ?? '',
        count: tickets.length,
        names: tickets.map((t) => `${t.participantFirstname} ${t.participantLastname}`).join(', '),
      };
      return {
        tenantId: ctx.tenantId,
        kind: 'tickets',
        toAddress: to.address,
        toName: to.name,
        language: lang,
        subject: this.t(
          tickets.length > 1 ? 'mail.tickets.subjectMany' : 'mail.tickets.subject',
          lang,
          args,
        ),
        text: this.t('mail.tickets.text', lang, args),
        attachments: tickets.map((t) => ({ kind: 'ticket' as const, ticketId: t.id })),
        bookingId: first.bookingId,
        ticketId: tickets.length === 1 ? first.id : null,
        eventId: first.eventId,
      };
    });
    return this.repo.transaction(async (tx) => {
      const mailIds = await this.mailbox.enqueueMany(tx, drafts);
      const byBooking = new Map<string, TicketRecord[]>();
      for (const r of uniqueRows(rows))
        byBooking.set(r.bookingId, [...(byBooking.get(r.bookingId) ?? []), r]);
      await this.history.add(
        tx,
        actorOf(ctx),
        ...[...byBooking.values()].map((ts) => ({
          tenantId: ctx.tenantId,
          eventId: ts[0].eventId,
          bookingId: ts[0].bookingId,
          action: 'tickets-resent' as const,
          data: { ticketIds: ts.map((t) => t.id) },
        })),
      );
      return { queued: mailIds.length, mailIds };
    });
  }

  /** ET7 */
  async mail(ctx: RequestContext, input: MailTicketsInput): Promise<TicketMailsQueued> {
    const ids = this.checkIds(input.ids);
    this.checkMailText(input);
    const rows = await this.requireAll(ctx, ids);
    return this.queueFreeMails(ctx, uniqueRows(rows), input);
  }

  /** ET8 */
  async mailFiltered(
    ctx: RequestContext,
    input: MailTicketsFilteredInput,
  ): Promise<TicketMailsQueued> {
    this.checkMailText(input);
    await this.events.require(ctx, input.filter.eventId);
    const rows = await this.repo.findAll(
      ctx.tenantId,
      {
        eventId: input.filter.eventId.toLowerCase(),
        status: input.filter.status,
        ticketTypeId: input.filter.ticketTypeId?.toLowerCase(),
        checkedIn: input.filter.checkedIn,
      },
      MAX_FILTERED_RECIPIENTS + 1,
    );
    if (rows.length > MAX_FILTERED_RECIPIENTS) {
      throwIfProblems([problem('filter', 'tooManyRecipients', { max: MAX_FILTERED_RECIPIENTS })]);
    }
    return this.queueFreeMails(ctx, rows, input);
  }

  private checkMailText(input: { subject: string; text: string }) {
    throwIfProblems(
      (['subject', 'text'] as const).flatMap((f) =>
        input[f].trim() ? [] : [{ field: f, rule: 'isNotEmpty' }],
      ),
    );
  }

  /** One mail per address (a booker of three tickets gets one), framed in the booking's language. */
  private async queueFreeMails(
    ctx: RequestContext,
    rows: TicketRecord[],
    input: { subject: string; text: string },
  ): Promise<TicketMailsQueued> {
    const titles = await this.codes.titlesOf(ctx.tenantId, rows);
    const seen = new Set<string>();
    const drafts: MailDraft[] = [];
    for (const r of rows) {
      const to = recipientOf(r);
      const key = `${r.eventId}\u0000${to.address.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const lang = languageOf(r.booking.language);
      const args = { name: to.name, event: titles.get(r.eventId) ?? '' };
      drafts.push({
        tenantId: ctx.tenantId,
        kind: 'ticket-free-text',
        toAddress: to.address,
        toName: to.name,
        language: lang,
        subject: input.subject.trim(),
        text: [
          this.t('mail.free.greeting', lang, args),
          input.text.trim(),
          this.t('mail.free.footer', lang, args),
        ].join('\n\n'),
        bookingId: r.bookingId,
        ticketId: r.id,
        eventId: r.eventId,
      });
    }
    const mailIds = await this.repo.transaction((tx) => this.mailbox.enqueueMany(tx, drafts));
    return { queued: mailIds.length, mailIds };
  }

  /**
   * ET9: the code's signature (400 invalidCode; a key rotated away, after the event's end: 400
   * retiredKey), the tenant's ticket (404), valid (409), the
   * scanner's event (409); then one conditional insert decides: the CheckIn row's unique ticketId
   * lets exactly one of any number of concurrent scans through. A retry with the first scan's
   * nonce is that scan again (200).
   */
  async checkIn(ctx: RequestContext, input: CheckInInput): Promise<CheckInResult> {
    const verdict = await this.codes.verify(ctx.tenantId, input.code);
    if (verdict.refusal) throwIfProblems([problem('code', verdict.refusal)]);
    const claims = verdict.claims!;
    const ticketId = claims.ticketId;
    const nonce = input.nonce ?? null;
    const location = input.location?.trim() || null;
    const scanEventId = input.eventId?.toLowerCase() ?? null;
    const ticket = await this.repo.checkIn({
      tenantId: ctx.tenantId,
      ticketId,
      codeEventId: claims.eventId,
      scanEventId,
      nonce,
      location,
      actor: actorOf(ctx),
    });
    if (!ticket || ticket.eventId !== claims.eventId) throw this.notFound(ctx, ticketId);
    if (ticket.status !== 'valid') {
      throw new AppException(
        ErrorCode.CONFLICT,
        'eventTickets.errors.checkInCancelled',
        { id: ticketId },
        [problem('code', 'ticketCancelled', { id: ticketId })],
      );
    }
    if (scanEventId && scanEventId !== ticket.eventId) {
      const args = { id: ticketId, eventId: input.eventId! };
      throw new AppException(ErrorCode.CONFLICT, 'eventTickets.errors.wrongEvent', args, [
        problem('eventId', 'wrongEvent', args),
      ]);
    }
    const result = (at: Date, where: string | null, retried: boolean): CheckInResult => ({
      ticketId,
      eventId: ticket.eventId,
      bookingId: ticket.bookingId,
      ticketTypeName: ticket.ticketTypeName,
      participantFirstname: ticket.participantFirstname,
      participantLastname: ticket.participantLastname,
      checkedInAt: at.toISOString(),
      location: where,
      retried,
    });
    if (ticket.checkedInAt) return result(ticket.checkedInAt, location, false);
    // the insert found a check-in: committed by then (ON CONFLICT waits for its transaction)
    const first = await this.repo.checkInOf(ticketId);
    if (!first) throw new Error(`check-in of ${ticketId} conflicted but is not there`);
    if (nonce !== null && first.nonce === nonce) {
      return result(first.checkedInAt, first.location, true);
    }
    throw new AlreadyCheckedIn(
      { ticketId, checkedInAt: first.checkedInAt, location: first.location },
      ticket.timeZone,
      ctx.language,
    );
  }

  /** ET11 as a file in the caller's language (header names; CSV separator and decimal mark). */
  async exportFile(
    ctx: RequestContext,
    eventId: string,
    format: 'csv' | 'xlsx',
  ): Promise<Readable> {
    const rows = await this.exportRows(ctx, eventId);
    const locale = exportLocale(ctx.language);
    const headers = exportHeaders(this.i18n, 'eventTickets', EXPORT_COLUMNS, locale);
    return format === 'xlsx'
      ? xlsxStream(rows, 'Tickets', headers)
      : csvStream(rows, locale, headers);
  }

  /**
   * ET11: every ticket of the event in keyset pages of EXPORT_PAGE, after the event is checked
   * (404 before a byte is sent).
   */
  async exportRows(ctx: RequestContext, eventId: string): Promise<AsyncIterable<ExportCells>> {
    const copy = await this.events.require(ctx, eventId);
    const id = eventId.toLowerCase();
    const validUntil = validUntilOf(copy);
    const repo = this.repo;
    const codes = this.codes;
    const tenantId = ctx.tenantId;
    return (async function* () {
      let after: { dateCreated: Date; id: string } | null = null;
      // read once, when the first valid ticket needs it (null: the event has no key, no codes)
      let key: SigningKey | null | undefined;
      for (;;) {
        const page = await repo.exportPage(tenantId, id, after, EXPORT_PAGE);
        for (const r of page) {
          if (r.status === 'valid' && key === undefined) key = await codes.keyOf(tenantId, id);
          const code =
            r.status === 'valid' && key ? TicketCodes.codeWith(key, validUntil, r.id, id) : null;
          yield cellsOf(r, code);
        }
        if (page.length < EXPORT_PAGE) return;
        const last = page[page.length - 1];
        after = { dateCreated: last.dateCreated, id: last.id };
      }
    })();
  }

  /** ET12 and the mail attachment: the ticket and what its PDF shows. */
  async forPdf(tenantId: string, id: string) {
    const row = isUuid(id) ? await this.repo.find(tenantId, id.toLowerCase()) : null;
    if (!row) return null;
    const code = (await this.codes.codesOf([row])).get(row.id) ?? null;
    const event = await this.events.find(tenantId, row.eventId);
    return { row, code, event };
  }

  /** ET12 for a request: 404 when not the tenant's. */
  async requireForPdf(ctx: RequestContext, id: string) {
    const found = await this.forPdf(ctx.tenantId, id);
    if (!found) throw this.notFound(ctx, id);
    return found;
  }
}

function filterOf(q: EventTicketListQuery): TicketFilter {
  return {
    eventId: q.eventId?.toLowerCase(),
    status: q.status,
    bookingId: q.bookingId?.toLowerCase(),
    ticketTypeId: q.ticketTypeId?.toLowerCase(),
    checkedIn: q.checkedIn,
    q: q.q,
  };
}

/** The same ticket named twice is one ticket. */
function uniqueRows(rows: TicketRecord[]): TicketRecord[] {
  return [...new Map(rows.map((r) => [r.id, r])).values()];
}
