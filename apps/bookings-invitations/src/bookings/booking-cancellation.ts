import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import { addOutboxEvent, BookingCancelledEvent, Subjects } from '@crm/messaging';
import { TicketCancellation } from '../capacity/ticket-cancellation';
import { attachCreditNote, CreditNotes } from '../credit-notes/credit-notes';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { Actor } from './booking-history';
import { BookingMails } from './booking-mails';
import { conflict, problem } from './booking-problems';
import { cancellationQuote, CancellationQuote } from './cancellation-rules';
import { BookingsRepository, Tx } from './bookings.repository';
import { paymentStatusAfterCancel } from './payment-status';
import { BookingHistoryRepository } from './booking-history.repository';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { MailsRepository } from '../mails/mails.repository';

export interface CancelOptions {
  /**
   * booker | organiser | invitation-rejected | event-deleted | payment-overdue
   * (BookingCancelledEvent.reason)
   */
  reason: string;
  /** Who cancels (history). */
  actor: Actor;
  /**
   * tiers: the fee of BK7 (the tiers frozen onto the booking); none: no fee, all refunded;
   * unpaid: no fee and no refund (an open booking past its payment deadline: nothing was paid)
   */
  fee: 'tiers' | 'none' | 'unpaid';
  /** A note for the history (BK8's reason text). */
  note?: string | null;
  /** Language of the error messages (not of the mail: that is the booker's). */
  language?: string;
  now?: Date;
}

export interface CancelledBooking {
  bookingId: string;
  eventId: string;
  fee: string;
  refund: string;
  currency: string;
  /** The tickets this cancellation cancelled (their seats are free). */
  ticketIds: string[];
  quote: CancellationQuote;
}

/**
 * BK8: cancels a booking in the caller's transaction: the fee (BK7 or none), every valid ticket
 * cancelled and its seat freed at once (TicketCancellation), status `cancelled`, history, the
 * outbox event bookings.cancelled and a cancellation mail to the booker. A booking cancelled
 * already is a 409. Used by BK8, by a rejected invitation (IN2) and by a deleted event (fee none).
 */
@Injectable()
export class BookingCancellation {
  constructor(
    private readonly repo: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly tickets: TicketCancellation,
    private readonly mails: BookingMails,
    private readonly i18n: I18nService,
    private readonly history: BookingHistoryRepository,
    private readonly invitations: InvitationsRepository,
    private readonly mailbox: MailsRepository,
    private readonly creditNotes: CreditNotes,
  ) {}

  async cancel(
    tx: Tx,
    tenantId: string,
    bookingId: string,
    opts: CancelOptions,
  ): Promise<CancelledBooking> {
    const now = opts.now ?? new Date();
    const booking = await this.repo.lock(tx, tenantId, bookingId);
    if (!booking) {
      const resource = this.i18n.t('bookings.resource.booking', { lang: opts.language ?? 'en' });
      throw AppException.notFound(resource as string, bookingId);
    }
    if (booking.status === 'cancelled') {
      throw conflict('alreadyCancelled', { id: booking.id }, [
        problem('status', 'alreadyCancelled'),
      ]);
    }
    if (booking.invitationId && opts.reason !== 'invitation-rejected') {
      // The invitee may book again with the same token (BK1 refuses a token whose booking is
      // live); the invitation stays accepted. Locked before the counters, in BK1's order.
      await this.invitations.detachBooking(tx, tenantId, booking.invitationId, booking.id);
    }
    const event = await this.copies.find(tenantId, booking.eventId, tx);
    const total = booking.totalGross.toFixed(2);
    const quote =
      opts.fee !== 'tiers'
        ? cancellationQuote([], null, 'UTC', opts.fee === 'unpaid' ? '0.00' : total, now)
        : cancellationQuote(
            booking.cancellationTiers,
            event?.startsAt ?? null,
            event?.timeZone ?? 'UTC',
            total,
            now,
          );
    const validIds = booking.tickets.filter((t) => t.status === 'valid').map((t) => t.id);
    const cancelled = await this.tickets.cancel(tx, tenantId, validIds);
    await this.repo.update(tx, booking.id, {
      status: 'cancelled',
      cancelledAt: now,
      cancellationFee: quote.fee,
      refundAmount: quote.refund,
      paymentStatus: paymentStatusAfterCancel(booking.paymentStatus),
      modifiedBy: opts.actor.actor,
      modifiedByUserId: opts.actor.actorUserId ?? null,
    });
    await this.history.add(tx, opts.actor, {
      tenantId,
      eventId: booking.eventId,
      bookingId: booking.id,
      action: 'cancelled',
      data: {
        reason: opts.reason,
        note: opts.note ?? null,
        fee: quote.fee,
        refund: quote.refund,
        rule: opts.fee === 'tiers' ? quote.rule : opts.fee,
        tickets: cancelled.ticketIds.length,
        paymentStatus: {
          from: booking.paymentStatus,
          to: paymentStatusAfterCancel(booking.paymentStatus),
        },
      },
    });
    const payload: BookingCancelledEvent = {
      tenantId,
      eventId: booking.eventId,
      eventTitle: event?.title ?? '',
      personId: booking.bookerPersonId,
      language: booking.language,
      at: now.toISOString(),
      bookingId: booking.id,
      cancellationFee: quote.fee,
      refundAmount: quote.refund,
      reason: opts.reason,
    };
    await addOutboxEvent(tx, {
      tenantId,
      subject: Subjects.bookingsInvitations.bookingCancelled,
      payload,
    });
    const mailBooking = {
      tenantId,
      bookingId: booking.id,
      language: booking.language,
      bookerName: `${booking.bookerFirstname} ${booking.bookerLastname}`,
      bookerEmail: booking.bookerEmail,
      currency: booking.currency,
    };
    const mailEvent = {
      eventId: booking.eventId,
      title: event?.title ?? '',
      startsAt: event?.startsAt ?? null,
      timeZone: event?.timeZone ?? 'UTC',
    };
    // an invoiced booking's cancellation gets a credit note (its counter is locked last)
    const creditNote = await this.creditNotes.issue(tx, tenantId, {
      booking,
      cancelledTicketIds: cancelled.ticketIds,
      fee: quote.fee,
      reason: opts.reason,
      at: now,
    });
    await this.mailbox.enqueue(
      tx,
      attachCreditNote(
        opts.reason === 'payment-overdue' && booking.paymentDueAt
          ? this.mails.paymentOverdue(mailBooking, mailEvent, booking.paymentDueAt)
          : this.mails.cancellation(mailBooking, mailEvent, quote),
        creditNote,
      ),
    );
    return {
      bookingId: booking.id,
      eventId: booking.eventId,
      fee: quote.fee,
      refund: quote.refund,
      currency: booking.currency,
      ticketIds: cancelled.ticketIds,
      quote,
    };
  }
}
