import { Injectable, Logger } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { resolveLanguage } from '@crm/i18n';
import {
  BookingCancelledEvent,
  BookingCreatedEvent,
  BookingLinkedEvent,
  ConsumeEvent,
  ConsumeEventOptions,
  EventContext,
  InvitationRespondedEvent,
  Subjects,
  TicketCheckedInEvent,
  VisitorActivity,
} from '@crm/messaging';
import { SUBJECT_MAX } from './dto/touchpoint.input';
import type { Tx } from '../database/tx';

/** The touchpoint type of each kind of visitor activity (TOUCHPOINT_TYPES). */
export const VISITOR_TOUCHPOINT_TYPES = {
  booked: 'event-booking',
  bookingCancelled: 'event-booking-cancelled',
  invitationAccepted: 'event-invitation-accepted',
  invitationRejected: 'event-invitation-rejected',
  checkedIn: 'event-check-in',
} as const;
type Kind = keyof typeof VISITOR_TOUCHPOINT_TYPES;

/** Who the touchpoints are recorded as made by. */
const AUTHOR = 'bookings-invitations';

/**
 * An activity without a person (a public booking) is skipped before any transaction: nothing
 * written, not even the event as applied.
 */
const ofAPerson: ConsumeEventOptions<VisitorActivity> = { concerns: (e) => e.personId != null };

/**
 * One identity across CRM and events: bookings-invitations' visitor activities of a known person
 * become touchpoints on that person's timeline, at the time of the activity, with a subject in
 * the visitor's language ("Booked: <event title>"). Each runs in the transaction that records
 * the outbox event in ProcessedEvent, and the touchpoint's id is the event's id, so an activity
 * is written exactly once. An activity without a person (skipped before any transaction, see
 * ofAPerson), or of a person that is not the tenant's (any more), writes nothing.
 */
@Injectable()
export class VisitorActivitiesEvents {
  private readonly logger = new Logger(VisitorActivitiesEvents.name);

  constructor(private readonly i18n: I18nService) {}

  @ConsumeEvent(Subjects.bookingsInvitations.bookingCreated, BookingCreatedEvent, ofAPerson)
  onBooked(e: BookingCreatedEvent, ctx: EventContext<Tx>): Promise<void> {
    return this.record(ctx, e, 'booked', {
      tickets: e.tickets,
      total: e.totalGross,
      currency: e.currency,
    });
  }

  /** A booking whose booker the organiser named later (BK9): the same touchpoint, at booking time. */
  @ConsumeEvent(Subjects.bookingsInvitations.bookingLinked, BookingLinkedEvent, ofAPerson)
  onLinked(e: BookingLinkedEvent, ctx: EventContext<Tx>): Promise<void> {
    return this.onBooked(e, ctx);
  }

  @ConsumeEvent(Subjects.bookingsInvitations.bookingCancelled, BookingCancelledEvent, ofAPerson)
  onBookingCancelled(e: BookingCancelledEvent, ctx: EventContext<Tx>): Promise<void> {
    return this.record(ctx, e, 'bookingCancelled', {
      fee: e.cancellationFee,
      refund: e.refundAmount,
      reason: e.reason,
    });
  }

  @ConsumeEvent(
    Subjects.bookingsInvitations.invitationAccepted,
    InvitationRespondedEvent,
    ofAPerson,
  )
  onInvitationAccepted(e: InvitationRespondedEvent, ctx: EventContext<Tx>): Promise<void> {
    return this.record(ctx, e, 'invitationAccepted');
  }

  @ConsumeEvent(
    Subjects.bookingsInvitations.invitationRejected,
    InvitationRespondedEvent,
    ofAPerson,
  )
  onInvitationRejected(e: InvitationRespondedEvent, ctx: EventContext<Tx>): Promise<void> {
    return this.record(ctx, e, 'invitationRejected');
  }

  @ConsumeEvent(Subjects.bookingsInvitations.ticketCheckedIn, TicketCheckedInEvent, ofAPerson)
  onCheckedIn(e: TicketCheckedInEvent, ctx: EventContext<Tx>): Promise<void> {
    return this.record(ctx, e, 'checkedIn', e.location ? { location: e.location } : undefined);
  }

  private async record(
    { tx, eventId }: EventContext<Tx>,
    e: VisitorActivity,
    kind: Kind,
    details?: Record<string, string | number>,
  ): Promise<void> {
    if (!e.personId) return;
    // ProcessedEvent skips a redelivery; the id keeps an event applied again by hand from doubling
    if (await tx.touchpoint.findUnique({ where: { id: eventId }, select: { id: true } })) return;
    const personId = e.personId.toLowerCase();
    const person = await tx.person.findFirst({
      where: { tenantId: e.tenantId, id: personId },
      select: { id: true },
    });
    if (!person) {
      this.logger.debug(`${kind} of ${personId}: not a person of ${e.tenantId}, no touchpoint`);
      return;
    }
    const lang = resolveLanguage(e.language);
    const text = (key: string, args: Record<string, unknown>) =>
      this.i18n.t(`touchpoints.visitorActivities.${kind}.${key}`, { lang, args }) as string;
    const subject = text('subject', { title: e.eventTitle });
    if (details && typeof details.reason === 'string') {
      // a reason this version does not know keeps its code
      const key = `touchpoints.visitorActivities.reasons.${details.reason}`;
      const reason = this.i18n.t(key, { lang }) as string;
      details = { ...details, reason: reason === key ? details.reason : reason };
    }
    const at = new Date(e.at);
    await tx.touchpoint.create({
      data: {
        id: eventId,
        tenantId: e.tenantId,
        type: VISITOR_TOUCHPOINT_TYPES[kind],
        subject: subject.length > SUBJECT_MAX ? `${subject.slice(0, SUBJECT_MAX - 1)}…` : subject,
        description: details ? text('description', details) : null,
        start: at,
        createdBy: AUTHOR,
        modifiedBy: AUTHOR,
        people: { create: [{ tenantId: e.tenantId, personId }] },
      },
      select: { id: true },
    });
  }
}
