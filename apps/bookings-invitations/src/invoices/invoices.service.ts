import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import { parseSort, skipTake, toOrderBy } from '@crm/paging';
import { isUniqueViolation, modifiedStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { actorOf } from '../bookings/booking-history';
import { sumMoney } from '../common/money';
import type { Mail as MailRow } from '../generated/prisma/client';
import { AttachmentGoneError, type RenderedAttachment } from '../mails/mail-attachments';
import type { BookingMailListQuery, SetInvoiceNumberInput } from './dto/invoice.input';
import type { BookingInvoiceNumber, BookingMail } from './dto/invoice.output';
import { documentLanguage, invoiceFileName, type InvoiceFacts } from './invoice-document';
import { InvoiceSenders } from './invoice-sender';
import { type InvoiceLabels, renderInvoicePdf } from './invoice-pdf';
import {
  type BookingWithOrderedTickets as BookingWithTickets,
  BookingsRepository,
} from '../bookings/bookings.repository';
import { Transactions } from '../database/transactions';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { BookingHistoryRepository } from '../bookings/booking-history.repository';
import { MailsRepository } from '../mails/mails.repository';

export const BOOKING_MAIL_SORT_FIELDS = ['dateCreated', 'sentAt', 'status', 'kind', 'id'] as const;

/** BK11: letters, digits and - / . _ inside, 1 to 50 characters. */
export const INVOICE_NUMBER_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9/._-]{0,48}[A-Za-z0-9])?$/;

/**
 * The forms of the numbers this service assigns: invoices `<year>-<6+ digits>` (booking
 * creation), credit notes `<year>-C<6+ digits>`. An external number of either form would take
 * one a counter hands out later, so BK11 refuses it.
 */
export const ASSIGNED_NUMBER_FORM = /^\d{4}-C?\d{6,}$/;

const LABEL_KEYS: (keyof InvoiceLabels)[] = [
  'title',
  'noSender',
  'invoiceNumber',
  'invoiceDate',
  'booking',
  'billTo',
  'event',
  'eventDate',
  'ticket',
  'participant',
  'net',
  'taxRate',
  'tax',
  'gross',
  'taxLine',
  'totalNet',
  'totalTax',
  'totalGross',
  'vatId',
  'taxNumber',
  'iban',
  'bic',
];

export function toBookingMail(row: MailRow): BookingMail {
  return {
    id: row.id,
    bookingId: row.bookingId!,
    eventId: row.eventId,
    kind: row.kind,
    to: row.toAddress,
    toName: row.toName,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    sentAt: row.sentAt?.toISOString() ?? null,
    dateCreated: row.dateCreated.toISOString(),
  };
}

/**
 * Invoices of bookings (BK10, BK11, BK16, BK17): the PDF rendered from the booking's frozen prices
 * and the tenant's invoice sender (asked of the events service), mailed through the outbox.
 */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly bookings: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly transactions: Transactions,
    private readonly senders: InvoiceSenders,
    private readonly i18n: I18nService,
    private readonly history: BookingHistoryRepository,
    private readonly mailbox: MailsRepository,
  ) {}

  private notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('invoices.resource.booking', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }

  private async requireBooking(ctx: RequestContext, id: string): Promise<BookingWithTickets> {
    const booking = isUuid(id)
      ? await this.bookings.findWithOrderedTickets(ctx.tenantId, id.toLowerCase())
      : null;
    if (!booking) throw this.notFound(ctx, id);
    return booking;
  }

  private labels(lang: 'en' | 'de'): InvoiceLabels {
    return Object.fromEntries(
      LABEL_KEYS.map((k) => [k, this.i18n.t(`invoices.pdf.${k}`, { lang }) as string]),
    ) as unknown as InvoiceLabels;
  }

  /** The PDF of a booking that has an invoice number. */
  private async render(booking: BookingWithTickets): Promise<RenderedAttachment> {
    const language = documentLanguage(booking.language);
    const [sender, event] = await Promise.all([
      this.senders.of(booking.tenantId),
      this.copies.invoiceFacts(booking.tenantId, booking.eventId),
    ]);
    const facts: InvoiceFacts = {
      language,
      invoiceNumber: booking.invoiceNumber!,
      invoiceDate: booking.invoiceDate ?? booking.dateCreated,
      bookingId: booking.id,
      currency: booking.currency,
      booker: {
        firstname: booking.bookerFirstname,
        lastname: booking.bookerLastname,
        email: booking.bookerEmail,
      },
      event: event ?? { title: booking.eventId, startsAt: null, timeZone: 'UTC' },
      sender,
      // every ticket with its frozen prices, the totals their sums: what was invoiced, whatever
      // was cancelled since (a cancellation gets a credit note of its own)
      tickets: booking.tickets,
      totals: {
        net: sumMoney(booking.tickets, (t) => t.priceNet),
        tax: sumMoney(booking.tickets, (t) => t.priceTax),
        gross: sumMoney(booking.tickets, (t) => t.priceGross),
      },
    };
    return {
      filename: invoiceFileName(booking.invoiceNumber!, language),
      contentType: 'application/pdf',
      content: await renderInvoicePdf(facts, this.labels(language)),
    };
  }

  /**
   * The `invoice` attachment of a queued mail: null (nothing attached) when the booking has no
   * invoice number; a deleted booking gives the mail up.
   */
  async attachment(tenantId: string, bookingId: string): Promise<RenderedAttachment | null> {
    const booking = await this.bookings.findWithOrderedTickets(tenantId, bookingId);
    if (!booking) throw new AttachmentGoneError(`booking ${bookingId} no longer exists`);
    return booking.invoiceNumber ? this.render(booking) : null;
  }

  /** BK16: the invoice PDF; 404 for an unknown booking and for one without an invoice number. */
  async invoicePdf(ctx: RequestContext, id: string): Promise<RenderedAttachment> {
    const booking = await this.requireBooking(ctx, id);
    if (!booking.invoiceNumber) {
      throw new AppException(ErrorCode.NOT_FOUND, 'invoices.noInvoice', { id });
    }
    return this.render(booking);
  }

  /** BK10: queues the invoice mail to the booker (409 without an invoice number); history. */
  async sendInvoiceMail(ctx: RequestContext, id: string): Promise<BookingMail> {
    await this.requireBooking(ctx, id);
    const bookingId = id.toLowerCase();
    return this.transactions.run(async (tx) => {
      const b = await this.bookings.findWithOrderedTickets(ctx.tenantId, bookingId, tx);
      if (!b) throw this.notFound(ctx, id);
      if (!b.invoiceNumber) {
        throw new AppException(ErrorCode.CONFLICT, 'invoices.conflict.noNumber', { id }, [
          { field: 'invoiceNumber', rule: 'noNumber', messageKey: 'invoices.problems.noNumber' },
        ]);
      }
      const lang = documentLanguage(b.language);
      const event = await this.copies.invoiceFacts(ctx.tenantId, b.eventId);
      const args = {
        number: b.invoiceNumber,
        name: `${b.bookerFirstname} ${b.bookerLastname}`.trim(),
        event: event?.title ?? '',
      };
      const mailId = await this.mailbox.enqueue(tx, {
        tenantId: ctx.tenantId,
        kind: 'invoice',
        toAddress: b.bookerEmail,
        toName: args.name || null,
        language: lang,
        subject: this.i18n.t('invoices.mail.subject', { lang, args }) as string,
        text: this.i18n.t('invoices.mail.text', { lang, args }) as string,
        attachments: [{ kind: 'invoice', bookingId }],
        bookingId,
        eventId: b.eventId,
      });
      await this.history.add(tx, actorOf(ctx), {
        tenantId: ctx.tenantId,
        eventId: b.eventId,
        bookingId,
        action: 'invoice-mailed',
        data: { mailId, to: b.bookerEmail, invoiceNumber: b.invoiceNumber },
      });
      return toBookingMail((await this.mailbox.find(ctx.tenantId, mailId, tx))!);
    });
  }

  /**
   * BK11: the invoice number of a booking invoiced elsewhere. Only a booking without one gets it
   * (the same number again answers as set); a number of another booking of the tenant is a 409,
   * decided by the unique index when two requests race.
   */
  async setInvoiceNumber(
    ctx: RequestContext,
    id: string,
    input: SetInvoiceNumberInput,
  ): Promise<BookingInvoiceNumber> {
    const number = typeof input.invoiceNumber === 'string' ? input.invoiceNumber.trim() : '';
    if (!INVOICE_NUMBER_PATTERN.test(number)) {
      throw AppException.validation([
        {
          field: 'invoiceNumber',
          rule: 'invoiceNumber',
          messageKey: 'invoices.problems.invoiceNumber',
        },
      ]);
    }
    if (ASSIGNED_NUMBER_FORM.test(number)) {
      throw AppException.validation([
        {
          field: 'invoiceNumber',
          rule: 'assignedForm',
          args: { value: number },
          messageKey: 'invoices.problems.assignedForm',
        },
      ]);
    }
    await this.requireBooking(ctx, id);
    const bookingId = id.toLowerCase();
    const taken = () =>
      new AppException(ErrorCode.CONFLICT, 'invoices.conflict.numberTaken', { number }, [
        {
          field: 'invoiceNumber',
          rule: 'unique',
          args: { value: number },
          messageKey: 'invoices.problems.unique',
        },
      ]);
    return this.transactions
      .run(async (tx) => {
        const date = await this.bookings.setInvoiceNumber(
          tx,
          ctx.tenantId,
          bookingId,
          number,
          modifiedStamps(ctx),
        );
        const b = await this.bookings.findWithOrderedTickets(ctx.tenantId, bookingId, tx);
        if (!b) throw this.notFound(ctx, id);
        if (!date) {
          if (b.invoiceNumber === number) {
            return { bookingId, invoiceNumber: number, invoiceDate: b.invoiceDate!.toISOString() };
          }
          const args = { id, number: b.invoiceNumber };
          throw new AppException(ErrorCode.CONFLICT, 'invoices.conflict.hasNumber', args, [
            {
              field: 'invoiceNumber',
              rule: 'hasNumber',
              args,
              messageKey: 'invoices.problems.hasNumber',
            },
          ]);
        }
        await this.history.add(tx, actorOf(ctx), {
          tenantId: ctx.tenantId,
          eventId: b.eventId,
          bookingId,
          action: 'invoice-number-set',
          data: { invoiceNumber: number },
        });
        return { bookingId, invoiceNumber: number, invoiceDate: date.toISOString() };
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw taken();
        throw err;
      });
  }

  /** BK17: the booking's mails, newest first unless sorted otherwise. */
  async mails(
    ctx: RequestContext,
    bookingId: string,
    query: BookingMailListQuery,
  ): Promise<Paged<BookingMail>> {
    const sort = parseSort(
      query.sort,
      BOOKING_MAIL_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'desc' }],
      'id',
    );
    const id = isUuid(bookingId) ? bookingId.toLowerCase() : null;
    if (!id || !(await this.bookings.exists(ctx.tenantId, id))) {
      throw this.notFound(ctx, bookingId);
    }
    const [rows, total] = await this.mailbox.pageOfBooking(ctx.tenantId, id, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
    });
    return paged(rows.map(toBookingMail), total);
  }
}
