import { randomUUID } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/** PostgreSQL channel enqueueMail notifies; delivered on commit, it wakes the mail workers. */
export const MAIL_CHANNEL = 'crm_mails';

const notifyWorkers = (tx: Tx) => tx.$executeRawUnsafe(`SELECT pg_notify('${MAIL_CHANNEL}', '')`);

export type MailKind =
  | 'invitation'
  | 'invitation-free-text'
  | 'booking-confirmation'
  | 'booking-cancellation'
  | 'payment-reminder'
  | 'payment-overdue'
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
  await notifyWorkers(tx);
  return id;
}

/**
 * Many mails in one statement (a batch of bookings, IN9-IN11, ET6-ET8 to a list), in plain SQL:
 * Prisma's createMany compiled each row of a 100-mail batch.
 */
export async function enqueueMails(tx: Tx, drafts: MailDraft[]): Promise<string[]> {
  if (!drafts.length) return [];
  const ids = drafts.map(() => randomUUID());
  const col = <K extends keyof MailDraft>(k: K) => drafts.map((d) => d[k] ?? null);
  await tx.$executeRaw`
    INSERT INTO "Mail" (id, "tenantId", kind, "toAddress", "toName", language, subject, text,
      attachments, "bookingId", "invitationId", "ticketId", "eventId", status)
    SELECT x.id, x.tenant, x.kind, x.address, x.name, x.language, x.subject, x.text,
           x.attachments, x.booking, x.invitation, x.ticket, x.event, 'queued'
      FROM unnest(${ids}::uuid[], ${col('tenantId')}::text[], ${col('kind')}::text[],
             ${col('toAddress')}::text[], ${col('toName')}::text[], ${col('language')}::text[],
             ${col('subject')}::text[], ${col('text')}::text[],
             ${drafts.map((d) => (d.attachments?.length ? JSON.stringify(d.attachments) : null))}::jsonb[],
             ${col('bookingId')}::uuid[], ${col('invitationId')}::uuid[], ${col('ticketId')}::uuid[],
             ${col('eventId')}::uuid[])
        AS x(id, tenant, kind, address, name, language, subject, text, attachments, booking,
             invitation, ticket, event)`;
  await notifyWorkers(tx);
  return ids;
}
