/** PostgreSQL channel MailsRepository notifies on enqueue; delivered on commit, it wakes the mail workers. */
export const MAIL_CHANNEL = 'crm_mails';

export type MailKind =
  | 'invitation'
  | 'invitation-free-text'
  | 'booking-confirmation'
  | 'booking-cancellation'
  | 'tickets-cancellation'
  | 'payment-reminder'
  | 'payment-overdue'
  | 'invoice'
  | 'tickets'
  | 'ticket-free-text'
  | 'waiting-list-offer';

/** A file rendered when the mail is sent (so a booking's transaction renders no PDF). */
export type MailAttachment =
  | { kind: 'invoice'; bookingId: string }
  | { kind: 'ticket'; ticketId: string }
  | { kind: 'credit-note'; bookingId: string; creditNoteId: string };

export interface MailDraft {
  tenantId: string;
  kind: MailKind;
  toAddress: string;
  toName?: string | null;
  /** The recipient's language (en, de); subject and text are already in it. */
  language: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
  bookingId?: string | null;
  invitationId?: string | null;
  ticketId?: string | null;
  eventId?: string | null;
  /**
   * The request the mail is sent for (X-Request-Id, tenant, traceparent), for the worker's lines
   * about it: by default the current request's; given by a writer that queues mails of several
   * requests at once (the bookings' batch writer).
   */
  headers?: Record<string, string>;
}
