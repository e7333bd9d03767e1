import { randomUUID } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

export type MailKind =
  | 'invitation'
  | 'invitation-free-text'
  | 'booking-confirmation'
  | 'booking-cancellation'
  | 'invoice'
  | 'tickets'
  | 'ticket-free-text';

/** A file rendered when the mail is sent (so a booking's transaction renders no PDF). */
export type MailAttachment =
  { kind: 'invoice'; bookingId: string } | { kind: 'ticket'; ticketId: string };

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

/**
 * Queues a mail in the transaction of the change it belongs to: it is sent by the mail worker
 * after the commit, retried while SMTP is down, and never sent for a change that rolled back.
 */
export async function enqueueMail(tx: Tx, draft: MailDraft): Promise<string> {
  const id = randomUUID();
  await tx.mail.create({
    data: {
      id,
      tenantId: draft.tenantId,
      kind: draft.kind,
      toAddress: draft.toAddress,
      toName: draft.toName ?? null,
      language: draft.language,
      subject: draft.subject,
      text: draft.text,
      attachments: draft.attachments?.length
        ? (draft.attachments as Prisma.InputJsonValue)
        : undefined,
      bookingId: draft.bookingId ?? null,
      invitationId: draft.invitationId ?? null,
      ticketId: draft.ticketId ?? null,
      eventId: draft.eventId ?? null,
      status: 'queued',
    },
  });
  return id;
}

/** Many mails in one statement (IN9-IN11, ET6-ET8 to a list). */
export async function enqueueMails(tx: Tx, drafts: MailDraft[]): Promise<string[]> {
  if (!drafts.length) return [];
  const rows = drafts.map((d) => ({
    id: randomUUID(),
    tenantId: d.tenantId,
    kind: d.kind,
    toAddress: d.toAddress,
    toName: d.toName ?? null,
    language: d.language,
    subject: d.subject,
    text: d.text,
    attachments: d.attachments?.length ? (d.attachments as Prisma.InputJsonValue) : undefined,
    bookingId: d.bookingId ?? null,
    invitationId: d.invitationId ?? null,
    ticketId: d.ticketId ?? null,
    eventId: d.eventId ?? null,
    status: 'queued',
  }));
  await tx.mail.createMany({ data: rows });
  return rows.map((r) => r.id);
}
