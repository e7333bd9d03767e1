import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Min,
} from 'class-validator';
import { TenantScoped } from './crm';

// Outbox events of bookings-invitations (JetStream). Each is one fact about an event's visitor:
// webhooks deliver it (booking.created, booking.cancelled, invitation.rejected,
// ticket.checked_in), and crm-people records it as a touchpoint of `personId` when it is set.
// Ids and the event's title only: a receiver reads more with its own key.

/** What every bookings-invitations activity carries. */
export class VisitorActivity extends TenantScoped {
  @IsUUID() eventId!: string;
  @IsString() eventTitle!: string;
  /** The known person (crm-people) this happened to, if any. */
  @IsOptional() @IsUUID() personId!: string | null;
  @IsISO8601() at!: string;
  /**
   * The visitor's language (of the booking or invitation, e.g. `de`): texts written from the
   * activity (crm-people's touchpoint subject) use it; absent or unknown: English.
   */
  @IsOptional() @IsString() language?: string | null;
}

/** bookings-invitations.bookings.created (BK1) */
export class BookingCreatedEvent extends VisitorActivity {
  @IsUUID() bookingId!: string;
  @IsInt() @Min(1) tickets!: number;
  @IsString() totalGross!: string;
  @IsString() currency!: string;
  @IsOptional() @IsUUID() invitationId!: string | null;
}

/**
 * bookings-invitations.bookings.linked (BK9): the organiser named the person a booking's booker
 * is; `at` is when it was booked, so the person's timeline shows the booking where it belongs.
 * No webhook: the booking itself was announced by bookings.created.
 */
export class BookingLinkedEvent extends BookingCreatedEvent {}

/**
 * bookings-invitations.bookings.cancelled (BK8, IN2, event deleted, the last ticket cancelled):
 * the booking's fee and refund over all its cancellations; `amountDue` what the booker still
 * owes (a fee of an unpaid booking, payment status fee_due), absent from older producers.
 */
export class BookingCancelledEvent extends VisitorActivity {
  @IsUUID() bookingId!: string;
  @IsString() cancellationFee!: string;
  @IsString() refundAmount!: string;
  @IsOptional() @IsString() amountDue?: string;
  /** booker | organiser | invitation-rejected | event-deleted | payment-overdue */
  @IsString() @IsNotEmpty() reason!: string;
}

/**
 * bookings-invitations.tickets.cancelled (BK22, BK23, ET5): some tickets of a booking cancelled,
 * the booking stays confirmed (the last ticket cancels the booking: bookings.cancelled instead).
 * Fee and refund of this cancellation; `amountDue` what the booker owes after it. No consumer
 * yet: webhooks and touchpoints keep announcing whole cancellations only.
 */
export class BookingTicketsCancelledEvent extends VisitorActivity {
  @IsUUID() bookingId!: string;
  @IsArray() @IsUUID('all', { each: true }) ticketIds!: string[];
  @IsString() cancellationFee!: string;
  @IsString() refundAmount!: string;
  @IsString() amountDue!: string;
  @IsString() paymentStatus!: string;
  /** booker | organiser */
  @IsString() @IsNotEmpty() reason!: string;
}

/** bookings-invitations.invitations.accepted / .rejected (BK1 with a token, IN2) */
export class InvitationRespondedEvent extends VisitorActivity {
  @IsUUID() invitationId!: string;
}

/** bookings-invitations.tickets.checked-in (ET9) */
export class TicketCheckedInEvent extends VisitorActivity {
  @IsUUID() ticketId!: string;
  @IsUUID() bookingId!: string;
  @IsOptional() @IsString() location!: string | null;
}

/** events asks, before publishing an event (E11/E12), which ticket types it has on sale. */
export class TicketTypesSummaryRequest extends TenantScoped {
  @IsUUID() eventId!: string;
}

export interface TicketTypesSummaryReply {
  /** ticket types of the event */
  total: number;
  /** of them, active ones */
  active: number;
}

/** crm-people: name, e-mail of the favorite card and language of people (invitations). */
export class PeopleContactsRequest extends TenantScoped {
  @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true }) personIds!: string[];
}

export interface PersonContact {
  id: string;
  firstname: string | null;
  lastname: string | null;
  /** The first e-mail of the person's favorite card (else of any card), null when none. */
  email: string | null;
  /** The person's language (e.g. `de`), null when unknown. */
  language: string | null;
}

export interface PeopleContactsReply {
  people: PersonContact[];
  missingPersonIds: string[];
}

/** events: the tenant's invoice sender and settings, for an invoice PDF. */
export class InvoiceSenderRequest extends TenantScoped {}

export interface InvoiceSenderReply {
  /** The invoice sender of the event settings (name, address, tax id, IBAN, ...), null when not set. */
  sender: Record<string, unknown> | null;
  currency: string;
  timeZone: string;
}
