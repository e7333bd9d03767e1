import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { requestHeaders } from '@crm/messaging';
import { PrismaService } from '../database/prisma.service';
import type { Mail as MailRow, Prisma } from '../generated/prisma/client';
import { MAIL_CHANNEL, type MailAttachment, type MailDraft } from './mail-outbox';
import type { Tx } from '../database/tx';

/** A mail the worker claimed (leased) to send. */
export interface ClaimedMail {
  id: string;
  tenantId: string;
  kind: string;
  toAddress: string;
  toName: string | null;
  language: string;
  subject: string;
  text: string;
  attachments: MailAttachment[] | null;
  attempts: number;
  /** The request that queued it (MailDraft.headers); null when queued outside of one. */
  headers: Record<string, string> | null;
}

/** Headers worth storing: none is NULL. */
const headersOf = (draft: MailDraft, current: Record<string, string>) => {
  const h = draft.headers ?? current;
  return Object.keys(h).length ? h : null;
};

const notifyWorkers = (tx: Tx) => tx.$executeRawUnsafe(`SELECT pg_notify('${MAIL_CHANNEL}', '')`);

/** Mail rows: the mail outbox (see README.md), filled in changes' transactions, sent by MailWorker. */
@Injectable()
export class MailsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Mails of every tenant waiting to be sent and given up (the operator's metrics). */
  async countOpen(): Promise<{ queued: number; failed: number }> {
    const rows = await this.prisma.$queryRaw<{ status: string; n: bigint }[]>`
      SELECT status, count(*) AS n FROM "Mail" WHERE status IN ('queued', 'failed') GROUP BY status`;
    const n = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return { queued: n('queued'), failed: n('failed') };
  }

  /**
   * Queues a mail in the transaction of the change it belongs to: it is sent by the mail worker
   * after the commit, retried while SMTP is down, and never sent for a change that rolled back.
   */
  async enqueue(tx: Tx, draft: MailDraft): Promise<string> {
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
        headers: headersOf(draft, requestHeaders()) ?? undefined,
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
  async enqueueMany(tx: Tx, drafts: MailDraft[]): Promise<string[]> {
    if (!drafts.length) return [];
    const ids = drafts.map(() => randomUUID());
    const col = <K extends keyof MailDraft>(k: K) => drafts.map((d) => d[k] ?? null);
    const current = requestHeaders();
    const headers = drafts.map((d) => headersOf(d, current)).map((h) => h && JSON.stringify(h));
    // the workers' wake-up in the same statement: an on-sale's batch waits for each round trip
    await tx.$executeRaw`
      WITH queued AS (
        INSERT INTO "Mail" (id, "tenantId", kind, "toAddress", "toName", language, subject, text,
          attachments, "bookingId", "invitationId", "ticketId", "eventId", headers, status)
        SELECT x.id, x.tenant, x.kind, x.address, x.name, x.language, x.subject, x.text,
               x.attachments, x.booking, x.invitation, x.ticket, x.event, x.headers, 'queued'
          FROM unnest(${ids}::uuid[], ${col('tenantId')}::text[], ${col('kind')}::text[],
                 ${col('toAddress')}::text[], ${col('toName')}::text[], ${col('language')}::text[],
                 ${col('subject')}::text[], ${col('text')}::text[],
                 ${drafts.map((d) => (d.attachments?.length ? JSON.stringify(d.attachments) : null))}::jsonb[],
                 ${col('bookingId')}::uuid[], ${col('invitationId')}::uuid[], ${col('ticketId')}::uuid[],
                 ${col('eventId')}::uuid[], ${headers}::jsonb[])
            AS x(id, tenant, kind, address, name, language, subject, text, attachments, booking,
                 invitation, ticket, event, headers)
        RETURNING 1)
      SELECT pg_notify(${MAIL_CHANNEL}, '') WHERE EXISTS (SELECT FROM queued)`;
    return ids;
  }

  /** A page of the booking's mails (BK17) and their total. */
  pageOfBooking(
    tenantId: string,
    bookingId: string,
    opts: { skip: number; take: number; orderBy: Prisma.MailOrderByWithRelationInput[] },
  ): Promise<[MailRow[], number]> {
    const where: Prisma.MailWhereInput = { tenantId, bookingId };
    return this.prisma.$transaction([
      this.prisma.mail.findMany({ where, orderBy: opts.orderBy, skip: opts.skip, take: opts.take }),
      this.prisma.mail.count({ where }),
    ]);
  }

  /** The invitation's mails, newest first (IN17). */
  ofInvitation(tenantId: string, invitationId: string) {
    return this.prisma.mail.findMany({
      where: { tenantId, invitationId },
      orderBy: [{ dateCreated: 'desc' }, { id: 'asc' }],
    });
  }

  find(tenantId: string, id: string, db: Tx = this.prisma): Promise<MailRow | null> {
    return db.mail.findFirst({ where: { tenantId, id } });
  }

  /**
   * The queued mails of withdrawn invitations (the invitation, free texts to the invitee) are
   * not sent: `failed` with the reason, as BK17/IN17 show it. Mails of bookings still go.
   */
  dropInvitationMails(
    tx: Tx,
    tenantId: string,
    invitationIds: string[],
    reason: string,
  ): Promise<number> {
    if (!invitationIds.length) return Promise.resolve(0);
    return tx.$executeRaw`
      UPDATE "Mail" SET status = 'failed', "lastError" = ${reason}
       WHERE "tenantId" = ${tenantId} AND "invitationId" = ANY(${invitationIds}::uuid[])
         AND "bookingId" IS NULL AND status = 'queued'`;
  }

  /**
   * One statement: up to `limit` due mails no other worker holds, leased for `leaseMs` at once. A
   * concurrent claim skips the locked rows, and after the commit sees them not due.
   */
  claim(limit: number, leaseMs: number): Promise<ClaimedMail[]> {
    return this.prisma.$queryRawUnsafe<ClaimedMail[]>(
      // picked once (a materialised CTE): a subquery may be rescanned, each rescan skipping
      // the rows locked so far and claiming more than `limit`
      `WITH due AS MATERIALIZED (
          SELECT "id" FROM "Mail"
           WHERE "status" = 'queued' AND "nextAttemptAt" <= now()
           ORDER BY "nextAttemptAt"
           LIMIT $1
           FOR UPDATE SKIP LOCKED)
       UPDATE "Mail" m SET "nextAttemptAt" = now() + ($2::int * interval '1 millisecond')
        WHERE m."id" IN (SELECT "id" FROM due)
        RETURNING m."id"::text AS "id", m."tenantId", m."kind", m."toAddress", m."toName",
                  m."language", m."subject", m."text", m."attachments", m."attempts", m."headers"`,
      limit,
      leaseMs,
    );
  }

  /** Hands back the lease of claimed mails not sent: due again at once. */
  async releaseLeases(ids: string[]): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE "Mail" SET "nextAttemptAt" = now() WHERE "id" = ANY($1::uuid[]) AND "status" = 'queued'`,
      ids,
    );
  }

  /** The mail went out (still queued: a mail marked failed meanwhile stays failed). */
  async markSent(id: string, messageId: string): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE "Mail" SET "status" = 'sent', "sentAt" = now(), "messageId" = $2,
                "attempts" = "attempts" + 1, "lastError" = NULL
          WHERE "id" = $1::uuid AND "status" = 'queued'`,
      id,
      messageId,
    );
  }

  /** A failed attempt: retried after `retryInMs`, or given up (`failed`) when null. */
  async markAttemptFailed(id: string, error: string, retryInMs: number | null): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE "Mail" SET "attempts" = "attempts" + 1, "lastError" = $2,
              "status" = CASE WHEN $3::int IS NULL THEN 'failed' ELSE "status" END,
              "nextAttemptAt" = CASE WHEN $3::int IS NULL THEN "nextAttemptAt"
                                     ELSE now() + ($3::int * interval '1 millisecond') END
        WHERE "id" = $1::uuid AND "status" = 'queued'`,
      id,
      error,
      retryInMs,
    );
  }
}
