import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { BookingsRepository } from '../bookings/bookings.repository';
import { toCents } from '../common/money';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import type { CreditNote } from '../generated/prisma/client';
import { documentLanguage, taxLines } from '../invoices/invoice-document';
import { InvoiceSenders } from '../invoices/invoice-sender';
import { AttachmentGoneError, type RenderedAttachment } from '../mails/mail-attachments';
import type { CreditNoteLine } from './credit-note-lines';
import { type CreditNoteLabels, creditNoteFileName, renderCreditNotePdf } from './credit-note-pdf';
import { CreditNotesRepository } from './credit-notes.repository';
import type { CreditNoteView } from './dto/credit-note.output';

/** Labels the credit note has of its own (i18n `creditNotes.pdf.*`); the rest are the invoice's. */
const OWN_LABELS = [
  'title',
  'creditNoteNumber',
  'creditNoteDate',
  'correctsInvoice',
  'item',
  'reversal',
  'fee',
  'totalGross',
] as const;
const INVOICE_LABELS = [
  'noSender',
  'vatId',
  'taxNumber',
  'iban',
  'bic',
  'booking',
  'billTo',
  'event',
  'eventDate',
  'participant',
  'net',
  'taxRate',
  'tax',
  'gross',
  'taxLine',
  'totalNet',
  'totalTax',
] as const;

const linesOf = (row: CreditNote) => row.lines as unknown as CreditNoteLine[];

export function toCreditNoteView(row: CreditNote): CreditNoteView {
  const lines = linesOf(row);
  return {
    id: row.id,
    bookingId: row.bookingId,
    number: row.number,
    issuedAt: row.issuedAt.toISOString(),
    invoiceNumber: row.invoiceNumber,
    currency: row.currency,
    reason: row.reason,
    totalNet: row.totalNet.toFixed(2),
    totalTax: row.totalTax.toFixed(2),
    totalGross: row.totalGross.toFixed(2),
    fee: row.feeGross.toFixed(2),
    ticketIds: lines.filter((l) => l.ticketId).map((l) => l.ticketId!),
    taxes: taxLines(lines).map((t) => ({
      rate: t.rate,
      net: toCents(t.net),
      tax: toCents(t.tax),
      gross: toCents(t.gross),
    })),
    lines,
  };
}

/**
 * Reading credit notes (CN1 list, CN2 PDF, Booking.creditNotes) and rendering the `credit-note`
 * attachment of the cancellation mail. The PDF is rendered from the row as issued; only the
 * event's title and the tenant's sender are read at rendering, as for the invoice.
 */
@Injectable()
export class CreditNotesService {
  constructor(
    private readonly repo: CreditNotesRepository,
    private readonly bookings: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly senders: InvoiceSenders,
    private readonly i18n: I18nService,
  ) {}

  private notFound(
    ctx: RequestContext,
    key: 'bookings.resource.booking' | 'creditNotes.resource.creditNote',
    id: string,
  ) {
    return AppException.notFound(this.i18n.t(key, { lang: ctx.language }) as string, id);
  }

  private async requireBooking(ctx: RequestContext, id: string): Promise<string> {
    const bookingId = isUuid(id) ? id.toLowerCase() : null;
    if (!bookingId || !(await this.bookings.exists(ctx.tenantId, bookingId))) {
      throw this.notFound(ctx, 'bookings.resource.booking', id);
    }
    return bookingId;
  }

  /** CN1: the booking's credit notes, oldest first; unknown or foreign booking: 404. */
  async list(ctx: RequestContext, id: string): Promise<CreditNoteView[]> {
    const bookingId = await this.requireBooking(ctx, id);
    return (await this.repo.ofBookings(ctx.tenantId, [bookingId])).map(toCreditNoteView);
  }

  /** Booking.creditNotes of many bookings in one query (a GraphQL list of bookings). */
  async ofBookings(tenantId: string, bookingIds: readonly string[]): Promise<CreditNoteView[][]> {
    const rows = await this.repo.ofBookings(tenantId, bookingIds);
    return bookingIds.map((id) => rows.filter((r) => r.bookingId === id).map(toCreditNoteView));
  }

  /** CN2: the credit note's PDF; unknown booking or credit note (or of another booking): 404. */
  async pdf(ctx: RequestContext, id: string, creditNoteId: string): Promise<RenderedAttachment> {
    const bookingId = await this.requireBooking(ctx, id);
    const row = isUuid(creditNoteId)
      ? await this.repo.find(ctx.tenantId, bookingId, creditNoteId.toLowerCase())
      : null;
    if (!row) throw this.notFound(ctx, 'creditNotes.resource.creditNote', creditNoteId);
    return this.render(row);
  }

  /** The `credit-note` attachment of a queued mail; a credit note that is gone gives the mail up. */
  async attachment(tenantId: string, bookingId: string, id: string): Promise<RenderedAttachment> {
    const row = await this.repo.find(tenantId, bookingId, id);
    if (!row) throw new AttachmentGoneError(`credit note ${id} no longer exists`);
    return this.render(row);
  }

  private labels(lang: 'en' | 'de'): CreditNoteLabels {
    const t = (key: string) => this.i18n.t(key, { lang }) as string;
    return Object.fromEntries([
      ...OWN_LABELS.map((k) => [k, t(`creditNotes.pdf.${k}`)]),
      ...INVOICE_LABELS.map((k) => [k, t(`invoices.pdf.${k}`)]),
    ]) as unknown as CreditNoteLabels;
  }

  private async render(row: CreditNote): Promise<RenderedAttachment> {
    const language = documentLanguage(row.language);
    const [sender, event] = await Promise.all([
      this.senders.of(row.tenantId),
      this.copies.invoiceFacts(row.tenantId, row.eventId),
    ]);
    const content = await renderCreditNotePdf(
      {
        language,
        number: row.number,
        issuedAt: row.issuedAt,
        invoiceNumber: row.invoiceNumber,
        bookingId: row.bookingId,
        currency: row.currency,
        booker: {
          firstname: row.bookerFirstname,
          lastname: row.bookerLastname,
          email: row.bookerEmail,
        },
        event: event ?? { title: row.eventId, startsAt: null, timeZone: 'UTC' },
        sender,
        lines: linesOf(row),
        totals: { net: row.totalNet, tax: row.totalTax, gross: row.totalGross },
      },
      this.labels(language),
    );
    return {
      filename: creditNoteFileName(row.number, language),
      contentType: 'application/pdf',
      content,
    };
  }
}
