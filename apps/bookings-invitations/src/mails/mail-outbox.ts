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
}
