import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { dayIn } from '../ticket-types/ticket-prices';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import type { Prisma } from '../generated/prisma/client';
import type { MailDraft } from '../mails/mail-outbox';
import { documentLanguage } from '../invoices/invoice-document';
import { type CancelledTicket, creditNoteContent } from './credit-note-lines';
import { CreditNotesRepository } from './credit-notes.repository';
import type { Tx } from '../database/tx';

/** The booking being cancelled, as locked by the cancellation (its tickets before it). */
export interface CreditedBooking {
  id: string;
  eventId: string;
  invoiceNumber: string | null;
  currency: string;
  language: string;
  bookerFirstname: string;
  bookerLastname: string;
  bookerEmail: string;
  tickets: CancelledTicket[];
}

export interface CreditNoteRequest {
  booking: CreditedBooking;
  /** The tickets this cancellation cancelled (valid before it). */
  cancelledTicketIds: readonly string[];
  /** The cancellation fee kept, gross ("0.00": none). */
  fee: string;
  /** BookingCancelledEvent.reason */
  reason: string;
  at: Date;
}

/** What the cancellation needs of an issued credit note (its mail attaches it). */
export interface IssuedCreditNote {
  id: string;
  number: string;
}

/**
 * Issues the credit note (cancellation invoice) of a cancellation of an invoiced booking, in the
 * cancellation's transaction: rolled back with it, so its number never leaves a gap.
 */
@Injectable()
export class CreditNotes {
  constructor(
    private readonly repo: CreditNotesRepository,
    private readonly copies: EventCopiesRepository,
  ) {}

  /**
   * The credit note of the cancelled tickets: null for a booking without an invoice number (a
   * free booking: nothing was invoiced) or when no ticket was cancelled. The year of its number is
   * the cancellation's in the event's zone (as the invoice's is the booking's). Draws the
   * credit note counter: call it after the capacity counters, last.
   */
  async issue(tx: Tx, tenantId: string, req: CreditNoteRequest): Promise<IssuedCreditNote | null> {
    const { booking } = req;
    const cancelled = new Set(req.cancelledTicketIds);
    const tickets = booking.tickets.filter((t) => cancelled.has(t.id));
    if (!booking.invoiceNumber || !tickets.length) return null;
    const event = await this.copies.find(tenantId, booking.eventId, tx);
    const content = creditNoteContent(tickets, req.fee);
    const note = await this.repo.issue(tx, {
      id: randomUUID(),
      tenantId,
      bookingId: booking.id,
      eventId: booking.eventId,
      year: Number(dayIn(req.at, event?.timeZone ?? 'UTC').slice(0, 4)),
      issuedAt: req.at,
      invoiceNumber: booking.invoiceNumber,
      currency: booking.currency,
      language: documentLanguage(booking.language),
      bookerFirstname: booking.bookerFirstname,
      bookerLastname: booking.bookerLastname,
      bookerEmail: booking.bookerEmail,
      reason: req.reason.slice(0, 50),
      totalNet: content.totals.net,
      totalTax: content.totals.tax,
      totalGross: content.totals.gross,
      feeGross: content.fee,
      lines: content.lines as unknown as Prisma.InputJsonValue,
    });
    return { id: note.id, number: note.number };
  }
}

/** A cancellation mail with the credit note attached (the mail worker renders it), or as it is. */
export function attachCreditNote(mail: MailDraft, note: IssuedCreditNote | null): MailDraft {
  if (!note || !mail.bookingId) return mail;
  return {
    ...mail,
    attachments: [
      ...(mail.attachments ?? []),
      { kind: 'credit-note', bookingId: mail.bookingId, creditNoteId: note.id },
    ],
  };
}
