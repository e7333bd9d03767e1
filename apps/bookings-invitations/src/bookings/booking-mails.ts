import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { I18nService } from 'nestjs-i18n';
import { Money } from '../common/money';
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

/** The money of a cancellation, as its mail tells it. */
export interface CancellationAmounts {
  /** The fee of this cancellation. */
  fee: string;
  /** What this cancellation pays back ("0.00" when nothing was paid). */
  refund: string;
  /** Money was received for the booking (a refund), else the fee is owed. */
  paid: boolean;
  /** What the booker owes after it (unpaid bookings). */
  amountDue: string;
  /** No valid ticket is left. */
  allCancelled: boolean;
}

export interface MailBooking {
  tenantId: string;
  bookingId: string;
  language: string;
  bookerName: string;
  bookerEmail: string;
  currency: string;
}

/** Formatted starts kept (a batch of an on-sale formats the same event's start 100 times). */
const STARTS_KEPT = 1000;

/** The booking mails (confirmation, cancellation) in the booker's language, ready to queue. */
@Injectable()
export class BookingMails {
  private readonly starts = new Map<string, string>();

  constructor(private readonly i18n: I18nService) {}

  private t(key: string, lang: string, args: Record<string, unknown> = {}): string {
    return String(this.i18n.t(`bookings.mail.${key}`, { lang, args }));
  }

  /** The event's start in its zone and the booker's language, e.g. "1 June 2030, 10:00". */
  start(event: MailEvent, lang: string): string {
    if (!event.startsAt) return this.t('noDate', lang);
    const key = `${event.startsAt.getTime()}|${event.timeZone}|${lang}`;
    let text = this.starts.get(key);
    if (text === undefined) {
      let at = DateTime.fromJSDate(event.startsAt, { zone: event.timeZone });
      if (!at.isValid) at = DateTime.fromJSDate(event.startsAt, { zone: 'UTC' });
      text = `${at.setLocale(lang).toLocaleString(DateTime.DATETIME_MED)} (${at.zoneName})`;
      // a profile of an on-sale showed luxon's zone arithmetic here at 1.5 % of the CPU
      if (this.starts.size >= STARTS_KEPT) this.starts.clear();
      this.starts.set(key, text);
    }
    return text;
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

  /**
   * A waiting-list offer: `quantity` seats held for the entry until `until`, booked through
   * `link` (the portal's page of the entry).
   */
  waitingListOffer(
    entry: {
      tenantId: string;
      language: string;
      email: string;
      name: string;
      quantity: number;
      typeName: string;
    },
    event: MailEvent,
    until: Date,
    link: string,
  ): MailDraft {
    const lang = entry.language;
    return {
      tenantId: entry.tenantId,
      kind: 'waiting-list-offer',
      toAddress: entry.email,
      toName: entry.name,
      language: lang,
      subject: this.t('waitingListOfferSubject', lang, { title: event.title }).slice(0, 500),
      text: this.t('waitingListOfferText', lang, {
        count: entry.quantity,
        name: entry.name,
        type: entry.typeName,
        title: event.title,
        start: this.start(event, lang),
        until: this.at(until, event, lang),
        link,
      }),
      eventId: event.eventId,
    };
  }

  /** A date-time in the event's zone and the booker's language. */
  private at(d: Date, event: MailEvent, lang: string): string {
    return this.start({ ...event, startsAt: d }, lang);
  }

  /** Before the payment deadline of an open booking (the event's paymentReminderHours). */
  paymentReminder(b: MailBooking, event: MailEvent, dueAt: Date, total: string): MailDraft {
    const lang = b.language;
    return {
      tenantId: b.tenantId,
      kind: 'payment-reminder',
      toAddress: b.bookerEmail,
      toName: b.bookerName,
      language: lang,
      subject: this.t('reminderSubject', lang, { title: event.title }).slice(0, 500),
      text: this.t('reminderText', lang, {
        name: b.bookerName,
        title: event.title,
        start: this.start(event, lang),
        bookingId: b.bookingId,
        total,
        currency: b.currency,
        due: this.at(dueAt, event, lang),
      }),
      bookingId: b.bookingId,
      eventId: event.eventId,
    };
  }

  /** An open booking cancelled because its payment deadline passed (no fee: nothing is owed). */
  paymentOverdue(b: MailBooking, event: MailEvent, dueAt: Date): MailDraft {
    const lang = b.language;
    return {
      tenantId: b.tenantId,
      kind: 'payment-overdue',
      toAddress: b.bookerEmail,
      toName: b.bookerName,
      language: lang,
      subject: this.t('overdueSubject', lang, { title: event.title }).slice(0, 500),
      text: this.t('overdueText', lang, {
        name: b.bookerName,
        title: event.title,
        start: this.start(event, lang),
        bookingId: b.bookingId,
        due: this.at(dueAt, event, lang),
      }),
      bookingId: b.bookingId,
      eventId: event.eventId,
    };
  }

  /**
   * What a cancellation mail says about money: money received -> the fee kept and the refund;
   * nothing paid -> no refund ever, the fee owed (or that nothing is owed) and, while tickets
   * are left, the amount still due.
   */
  private amounts(a: CancellationAmounts, currency: string, lang: string): string {
    const args = { fee: a.fee, refund: a.refund, due: a.amountDue, currency };
    if (a.paid) return [this.t('feeLine', lang, args), this.t('refundLine', lang, args)].join('\n');
    if (!a.allCancelled) {
      return [this.t('feeLine', lang, args), this.t('amountDueLine', lang, args)].join('\n');
    }
    return new Money(a.amountDue).gt(0)
      ? this.t('feeDueLine', lang, { ...args, fee: a.amountDue })
      : this.t('nothingOwedLine', lang, args);
  }

  /** The whole booking cancelled (BK8, the last ticket, an invitation rejected, ...). */
  cancellation(b: MailBooking, event: MailEvent, amounts: CancellationAmounts): MailDraft {
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
        amounts: this.amounts(amounts, b.currency, lang),
      }),
      bookingId: b.bookingId,
      eventId: event.eventId,
    };
  }

  /** Some tickets of a booking cancelled, the booking stays (BK22, BK23). */
  ticketsCancelled(
    b: MailBooking,
    event: MailEvent,
    tickets: MailTicket[],
    amounts: CancellationAmounts,
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
    return {
      tenantId: b.tenantId,
      kind: 'tickets-cancellation',
      toAddress: b.bookerEmail,
      toName: b.bookerName,
      language: lang,
      subject: this.t('ticketsCancelledSubject', lang, { title: event.title }).slice(0, 500),
      text: this.t('ticketsCancelledText', lang, {
        count: tickets.length,
        name: b.bookerName,
        title: event.title,
        start: this.start(event, lang),
        bookingId: b.bookingId,
        tickets: lines.join('\n'),
        amounts: this.amounts(amounts, b.currency, lang),
      }),
      bookingId: b.bookingId,
      eventId: event.eventId,
    };
  }
}
