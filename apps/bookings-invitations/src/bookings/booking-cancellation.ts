import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, FieldProblem } from '@crm/errors';
import { InTurn } from '@crm/persistence';
import {
  addOutboxEvent,
  BookingCancelledEvent,
  BookingTicketsCancelledEvent,
  Subjects,
} from '@crm/messaging';
import { TicketCancellation } from '../capacity/ticket-cancellation';
import { Money, sumMoney } from '../common/money';
import { attachCreditNote, CreditNotes } from '../credit-notes/credit-notes';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { EventTicketsRepository } from '../event-tickets/event-tickets.repository';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { MailsRepository } from '../mails/mails.repository';
import type { EventTicket } from '../generated/prisma/client';
import { TicketTypesRepository } from '../ticket-types/ticket-types.repository';
import { Actor } from './booking-history';
import { BookingHistoryRepository } from './booking-history.repository';
import { BookingMails, CancellationAmounts } from './booking-mails';
import { conflict, problem } from './booking-problems';
import type { BookingWithTickets } from './booking.mapper';
import { BookingsRepository } from './bookings.repository';
import { cancellationQuote, CancellationQuote } from './cancellation-rules';
import { amountDue, hasPaid, paymentStatusAfterCancel } from './payment-status';
import type { Tx } from '../database/tx';

export interface CancelOptions {
  /**
   * booker | organiser | invitation-rejected | event-deleted | payment-overdue
   * (BookingCancelledEvent.reason)
   */
  reason: string;
  /** Who cancels (history). */
  actor: Actor;
  /**
   * tiers: the fee of BK7 (the tiers frozen onto the booking) of the cancelled tickets' gross;
   * none: no fee; unpaid: no fee (an open booking past its payment deadline). A refund is paid
   * only for money received: an unpaid booking gets none and owes the fee instead.
   */
  fee: 'tiers' | 'none' | 'unpaid';
  /** A note for the history (BK8's reason text). */
  note?: string | null;
  /** Language of the error messages (not of the mail: that is the booker's). */
  language?: string;
  now?: Date;
  /**
   * Chosen tickets only: false takes the valid ones among them as they are (ET5, an organiser's
   * status change: no checks of check-ins or minimums). Default true: a ticket already cancelled
   * or checked in, or a remainder below a ticket type's minimum per booking, is a 409.
   */
  strict?: boolean;
}

export interface CancelledBooking {
  bookingId: string;
  eventId: string;
  /** This cancellation's fee, refund ("0.00" when nothing was paid) and fee owed. */
  fee: string;
  refund: string;
  feeDue: string;
  /** What the booker owes after it (open: the tickets left and the fees; fee_due: the fees). */
  amountDue: string;
  currency: string;
  /** The tickets this cancellation cancelled (their seats are free). */
  ticketIds: string[];
  /** No valid ticket is left: the booking is cancelled. */
  bookingCancelled: boolean;
  paymentStatus: string;
  quote: CancellationQuote;
}

/** The tickets a cancellation takes, what it costs and the booking's state after it. */
export interface Settlement {
  chosen: EventTicket[];
  allCancelled: boolean;
  quote: CancellationQuote;
  fee: string;
  refund: string;
  feeDue: string;
  /** The booking's sums over all its cancellations, this one included. */
  cancellationFee: string;
  refundAmount: string;
  paymentStatus: string;
  amountDue: string;
}

/**
 * BK8 (the whole booking) and BK22/BK23 (chosen tickets) in the caller's transaction: one
 * implementation, a whole booking is all its valid tickets. The fee is BK7's rule applied to the
 * cancelled tickets' frozen gross; each ticket cancelled and its seat freed at once
 * (TicketCancellation); the booking's fee and refund summed over its cancellations and its
 * payment status moved (payment-status.ts); history, an outbox event and a mail to the booker.
 * The last valid ticket cancels the booking (status `cancelled`, bookings.cancelled); fewer are
 * tickets.cancelled. A booking cancelled already is a 409. Used by BK8, BK22, BK23, ET5, a
 * rejected invitation (IN2), a deleted event (fee none) and the payment-deadline sweeper.
 */
@Injectable()
export class BookingCancellation {
  private readonly turns = new InTurn();

  constructor(
    private readonly repo: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly tickets: TicketCancellation,
    private readonly ticketRows: EventTicketsRepository,
    private readonly ticketTypes: TicketTypesRepository,
    private readonly mails: BookingMails,
    private readonly i18n: I18nService,
    private readonly history: BookingHistoryRepository,
    private readonly invitations: InvitationsRepository,
    private readonly mailbox: MailsRepository,
    private readonly creditNotes: CreditNotes,
  ) {}

  /**
   * Runs `work`, a transaction that cancels bookings of `tenantId`, in the tenant's turn in this
   * process (InTurn). A cancellation holds the tenant's credit-note counter and its ticket
   * type's counters until it commits: 50 cancellations at once queued for those rows, each on a
   * pooled connection, and on a loaded machine the last ones gave up waiting for a connection
   * (503 in the waiting-list race test). Queued here they wait in memory; the row locks still
   * order the replicas.
   */
  inTenantTurn<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    return this.turns.run(tenantId, work);
  }

  /** The whole booking: every valid ticket. */
  cancel(tx: Tx, tenantId: string, bookingId: string, opts: CancelOptions) {
    return this.cancelTickets(tx, tenantId, bookingId, null, opts);
  }

  /** `ticketIds` of the booking (null: all its valid tickets). */
  async cancelTickets(
    tx: Tx,
    tenantId: string,
    bookingId: string,
    ticketIds: string[] | null,
    opts: CancelOptions,
  ): Promise<CancelledBooking> {
    const now = opts.now ?? new Date();
    const { booking, event, s } = await this.prepare(tx, tenantId, bookingId, ticketIds, opts, now);
    if (s.allCancelled && booking.invitationId && opts.reason !== 'invitation-rejected') {
      // The invitee may book again with the same token (BK1 refuses a token whose booking is
      // live); the invitation stays accepted. Locked before the counters, in BK1's order.
      await this.invitations.detachBooking(tx, tenantId, booking.invitationId, booking.id);
    }
    const cancelled = await this.tickets.cancel(
      tx,
      tenantId,
      s.chosen.map((t) => t.id),
    );
    await this.repo.update(tx, booking.id, {
      ...(s.allCancelled ? { status: 'cancelled', cancelledAt: now } : {}),
      cancellationFee: s.cancellationFee,
      refundAmount: s.refundAmount,
      paymentStatus: s.paymentStatus,
      modifiedBy: opts.actor.actor,
      modifiedByUserId: opts.actor.actorUserId ?? null,
    });
    // This is the one place, in the caller's one transaction, where the cancelled tickets
    // (cancelled.ticketIds) and the fee kept (s.fee) are both known: documents of a cancellation
    // (a credit note) are issued here.
    await this.record(tx, tenantId, booking, cancelled.ticketIds, s, event, opts, now);
    return {
      bookingId: booking.id,
      eventId: booking.eventId,
      fee: s.fee,
      refund: s.refund,
      feeDue: s.feeDue,
      amountDue: s.amountDue,
      currency: booking.currency,
      ticketIds: cancelled.ticketIds,
      bookingCancelled: s.allCancelled,
      paymentStatus: s.paymentStatus,
      quote: s.quote,
    };
  }

  /**
   * BK7: what cancelling `ticketIds` (null: every valid ticket) costs now, with the same checks
   * and rule as the cancellation itself; nothing is written (the caller's transaction holds the
   * booking's lock only while it reads).
   */
  async quote(
    tx: Tx,
    tenantId: string,
    bookingId: string,
    ticketIds: string[] | null,
    opts: Pick<CancelOptions, 'language' | 'now'>,
  ): Promise<{ booking: BookingWithTickets; settlement: Settlement }> {
    const now = opts.now ?? new Date();
    const cancel: CancelOptions = {
      ...opts,
      reason: 'quote',
      actor: { actor: 'quote' },
      fee: 'tiers',
    };
    const { booking, s } = await this.prepare(tx, tenantId, bookingId, ticketIds, cancel, now);
    return { booking, settlement: s };
  }

  /** The booking and chosen tickets locked and checked, and what cancelling them settles. */
  private async prepare(
    tx: Tx,
    tenantId: string,
    bookingId: string,
    ticketIds: string[] | null,
    opts: CancelOptions,
    now: Date,
  ) {
    const booking = await this.lockBooking(tx, tenantId, bookingId, opts);
    const chosen = ticketIds
      ? await this.chosenTickets(tx, tenantId, booking, ticketIds, opts)
      : booking.tickets.filter((t) => t.status === 'valid');
    const chosenIds = new Set(chosen.map((t) => t.id));
    const left = booking.tickets.filter((t) => t.status === 'valid' && !chosenIds.has(t.id));
    if (ticketIds && opts.strict !== false) await this.checkMinimum(tx, tenantId, left);
    const event = await this.copies.find(tenantId, booking.eventId, tx);
    const s = this.settle(booking, chosen, left, event, opts, now);
    return { booking, event, s };
  }

  /** The booking locked; unknown or another tenant's: 404; cancelled already: 409. */
  private async lockBooking(tx: Tx, tenantId: string, bookingId: string, opts: CancelOptions) {
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
    return booking;
  }

  /**
   * The chosen tickets, locked (after the booking, as ET5 locks): each a ticket of this booking
   * (else 404 naming ticketIds[i]: another booking's or tenant's ticket is not this booking's);
   * strict: valid and not checked in (else 409 naming ticketIds[i]). Duplicates count once.
   */
  private async chosenTickets(
    tx: Tx,
    tenantId: string,
    booking: BookingWithTickets,
    ticketIds: string[],
    opts: CancelOptions,
  ): Promise<EventTicket[]> {
    const ids = ticketIds.map((id) => id.toLowerCase());
    const own = new Map(booking.tickets.map((t) => [t.id, t]));
    const locked = new Map(
      (await this.ticketRows.lockForCancellation(tx, tenantId, [...new Set(ids)]))
        .filter((r) => r.bookingId === booking.id)
        .map((r) => [r.id, r]),
    );
    const unknown = ids.flatMap((id, i) =>
      locked.has(id) && own.has(id)
        ? []
        : [problem(`ticketIds[${i}]`, 'unknownTicket', { value: id })],
    );
    if (unknown.length) {
      const resource = this.i18n.t('bookings.resource.ticket', { lang: opts.language ?? 'en' });
      throw new AppException(
        ErrorCode.NOT_FOUND,
        'errors.notFound.resource',
        { resource: resource as string, id: unknown.map((u) => u.args?.value).join(', ') },
        unknown,
      );
    }
    if (opts.strict !== false) {
      const refused = ids.flatMap((id, i): FieldProblem[] => {
        const row = locked.get(id)!;
        if (row.status !== 'valid') return [problem(`ticketIds[${i}]`, 'ticketCancelled')];
        if (row.checkedIn) return [problem(`ticketIds[${i}]`, 'ticketCheckedIn')];
        return [];
      });
      const [first, ...more] = refused;
      if (first) {
        throw conflict('ticketsNotCancellable', { count: refused.length }, [first, ...more]);
      }
    }
    return [...new Set(ids)]
      .filter((id) => locked.get(id)!.status === 'valid')
      .map((id) => own.get(id)!);
  }

  /**
   * A ticket type with a minimum per booking keeps at least that many tickets in the booking,
   * or none (the minimum of the type now; cancelling all tickets of the type is always fine).
   */
  private async checkMinimum(tx: Tx, tenantId: string, left: EventTicket[]) {
    if (!left.length) return;
    const leftByType = new Map<string, number>();
    for (const t of left) leftByType.set(t.ticketTypeId, (leftByType.get(t.ticketTypeId) ?? 0) + 1);
    const types = await this.ticketTypes.findMany(
      tenantId,
      left[0].eventId,
      [...leftByType.keys()],
      tx,
    );
    for (const type of types) {
      const n = leftByType.get(type.id) ?? 0;
      if (n > 0 && n < type.minPerBooking) {
        const args = { name: type.name, min: type.minPerBooking, left: n };
        throw conflict('belowMinPerBooking', args, [
          problem('ticketIds', 'belowMinPerBooking', args),
        ]);
      }
    }
  }

  /**
   * What the cancellation costs and what the booking owes or gets back after it: the fee of the
   * chosen tickets' gross (BK7's rule, or none); paid -> refund = gross - fee; unpaid -> no
   * refund, the fee is owed.
   */
  private settle(
    booking: BookingWithTickets,
    chosen: EventTicket[],
    left: EventTicket[],
    event: { startsAt: Date | null; timeZone: string } | null,
    opts: CancelOptions,
    now: Date,
  ): Settlement {
    const gross = sumMoney(chosen, (t) => t.priceGross);
    const quote =
      opts.fee === 'tiers'
        ? cancellationQuote(
            booking.cancellationTiers,
            event?.startsAt ?? null,
            event?.timeZone ?? 'UTC',
            gross,
            now,
          )
        : cancellationQuote([], null, 'UTC', gross, now);
    const paid = hasPaid(booking.paymentStatus);
    const refund = paid ? quote.refund : '0.00';
    const feeDue = paid ? '0.00' : quote.fee;
    const cancellationFee = new Money(booking.cancellationFee ?? 0).plus(quote.fee).toFixed(2);
    const refundAmount = new Money(booking.refundAmount ?? 0).plus(refund).toFixed(2);
    const allCancelled = left.length === 0;
    const paymentStatus = paymentStatusAfterCancel(booking.paymentStatus, {
      allCancelled,
      refunded: refundAmount,
      feeOwed: paid ? '0.00' : cancellationFee,
    });
    return {
      chosen,
      allCancelled,
      quote,
      fee: quote.fee,
      refund,
      feeDue,
      cancellationFee,
      refundAmount,
      paymentStatus,
      amountDue: amountDue(
        paymentStatus,
        sumMoney(left, (t) => t.priceGross),
        cancellationFee,
      ),
    };
  }

  /** History, outbox event and the booker's mail of a cancellation. */
  private async record(
    tx: Tx,
    tenantId: string,
    booking: BookingWithTickets,
    ticketIds: string[],
    s: Settlement,
    event: { title: string; startsAt: Date | null; timeZone: string } | null,
    opts: CancelOptions,
    now: Date,
  ): Promise<void> {
    await this.history.add(tx, opts.actor, {
      tenantId,
      eventId: booking.eventId,
      bookingId: booking.id,
      action: s.allCancelled ? 'cancelled' : 'tickets-cancelled',
      data: {
        reason: opts.reason,
        note: opts.note ?? null,
        fee: s.fee,
        refund: s.refund,
        feeDue: s.feeDue,
        amountDue: s.amountDue,
        rule: opts.fee === 'tiers' ? s.quote.rule : opts.fee,
        tickets: ticketIds.length,
        ticketIds,
        paymentStatus: { from: booking.paymentStatus, to: s.paymentStatus },
      },
    });
    const activity = {
      tenantId,
      eventId: booking.eventId,
      eventTitle: event?.title ?? '',
      personId: booking.bookerPersonId,
      language: booking.language,
      at: now.toISOString(),
      bookingId: booking.id,
      reason: opts.reason,
    };
    if (s.allCancelled) {
      const payload: BookingCancelledEvent = {
        ...activity,
        cancellationFee: s.cancellationFee,
        refundAmount: s.refundAmount,
        amountDue: s.amountDue,
      };
      await addOutboxEvent(tx, {
        tenantId,
        subject: Subjects.bookingsInvitations.bookingCancelled,
        payload,
      });
    } else {
      const payload: BookingTicketsCancelledEvent = {
        ...activity,
        ticketIds,
        cancellationFee: s.fee,
        refundAmount: s.refund,
        amountDue: s.amountDue,
        paymentStatus: s.paymentStatus,
      };
      await addOutboxEvent(tx, {
        tenantId,
        subject: Subjects.bookingsInvitations.ticketsCancelled,
        payload,
      });
    }
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
    const amounts: CancellationAmounts = {
      fee: s.fee,
      refund: s.refund,
      paid: hasPaid(booking.paymentStatus),
      amountDue: s.amountDue,
      allCancelled: s.allCancelled,
    };
    // the overdue mail says nothing is owed: not so when earlier cancelled tickets left a fee
    const overdue =
      s.allCancelled &&
      opts.reason === 'payment-overdue' &&
      booking.paymentDueAt &&
      !new Money(s.amountDue).gt(0);
    const mail =
      overdue && booking.paymentDueAt
        ? this.mails.paymentOverdue(mailBooking, mailEvent, booking.paymentDueAt)
        : s.allCancelled
          ? this.mails.cancellation(mailBooking, mailEvent, amounts)
          : this.mails.ticketsCancelled(
              mailBooking,
              mailEvent,
              s.chosen.map((t) => ({
                id: t.id,
                ticketTypeName: t.ticketTypeName,
                participant: `${t.participantFirstname} ${t.participantLastname}`,
                priceGross: t.priceGross.toFixed(2),
              })),
              amounts,
            );
    // an invoiced booking's cancellation gets a credit note (its counter is locked last)
    const creditNote = await this.creditNotes.issue(tx, tenantId, {
      booking,
      cancelledTicketIds: ticketIds,
      fee: s.fee,
      reason: opts.reason,
      at: now,
    });
    await this.mailbox.enqueue(tx, attachCreditNote(mail, creditNote));
  }
}
