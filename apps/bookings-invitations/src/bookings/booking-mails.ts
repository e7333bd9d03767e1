import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { I18nService } from 'nestjs-i18n';
import type { MailAttachment, MailDraft } from '../mails/mail-outbox';

/** What a booking mail says about the event. */
export interface MailEvent {
  eventId: string;
  title: string;
  startsAt: Date | null;
  timeZone: string;
}

export interface MailTicket {
  id: string;
  ticketTypeName: string;
  participant: string;
  priceGross: string;
}

export interface MailBooking {
  tenantId: string;
  bookingId: string;
  language: string;
  bookerName: string;
  bookerEmail: string;
  currency: string;
}

/** The booking mails (confirmation, cancellation) in the booker's language, ready to queue. */
@Injectable()
export class BookingMails {
  constructor(private readonly i18n: I18nService) {}

  private t(key: string, lang: string, args: Record<string, unknown> = {}): string {
    return String(this.i18n.t(`bookings.mail.${key}`, { lang, args }));
  }

  /** The event's start in its zone and the booker's language, e.g. "1 June 2030, 10:00". */
  start(event: MailEvent, lang: string): string {
    if (!event.startsAt) return this.t('noDate', lang);
    let at = DateTime.fromJSDate(event.startsAt, { zone: event.timeZone });
    if (!at.isValid) at = DateTime.fromJSDate(event.startsAt, { zone: 'UTC' });
    return `${at.setLocale(lang).toLocaleString(DateTime.DATETIME_MED)} (${at.zoneName})`;
  }

  confirmation(
    b: MailBooking,
    event: MailEvent,
    tickets: MailTicket[],
    totals: { gross: string; tax: string },
    withInvoice: boolean,
  ): MailDraft {
    const lang = b.language;
    const lines = tickets.map((t) =>
      this.t('ticketLine', lang, {
        type: t.ticketTypeName,
        participant: t.participant,
        price: t.priceGross,
        currency: b.currency,
      }),
    );
    const attachments: MailAttachment[] = [
      ...(withInvoice ? [{ kind: 'invoice' as const, bookingId: b.bookingId }] : []),
      ...tickets.map((t) => ({ kind: 'ticket' as const, ticketId: t.id })),
    ];
    return {
      tenantId: b.tenantId,
      kind: 'booking-confirmation',
      toAddress: b.bookerEmail,
      toName: b.bookerName,
      language: lang,
      subject: this.t('confirmationSubject', lang, { title: event.title }).slice(0, 500),
      text: this.t('confirmationText', lang, {
        name: b.bookerName,
        title: event.title,
        start: this.start(event, lang),
        tickets: lines.join('\n'),
        total: totals.gross,
        tax: totals.tax,
        currency: b.currency,
        bookingId: b.bookingId,
      }),
      attachments,
      bookingId: b.bookingId,
      eventId: event.eventId,
    };
  }

  cancellation(
    b: MailBooking,
    event: MailEvent,
    amounts: { fee: string; refund: string },
  ): MailDraft {
    const lang = b.language;
    return {
      tenantId: b.tenantId,
      kind: 'booking-cancellation',
      toAddress: b.bookerEmail,
      toName: b.bookerName,
      language: lang,
      subject: this.t('cancellationSubject', lang, { title: event.title }).slice(0, 500),
      text: this.t('cancellationText', lang, {
        name: b.bookerName,
        title: event.title,
        start: this.start(event, lang),
        bookingId: b.bookingId,
        fee: amounts.fee,
        refund: amounts.refund,
        currency: b.currency,
      }),
      bookingId: b.bookingId,
      eventId: event.eventId,
    };
  }
}
