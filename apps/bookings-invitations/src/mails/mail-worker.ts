import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { CommitWakeup, inMessageContext } from '@crm/messaging';
import { acrossTenants, asTenant } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from '../config';
import { AttachmentGoneError, MailAttachments, type RenderedAttachment } from './mail-attachments';
import { MAIL_CHANNEL } from './mail-outbox';
import { MailSenders } from './mail-sender';
import { isPermanentSmtpError, mailRetryDelayMs } from './mail-retry';
import { type ClaimedMail, MailsRepository } from './mails.repository';

/** `Name <a@b.c>` or `a@b.c` -> `b.c` (the right side of Message-IDs). */
export function mailDomainOf(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim() || 'localhost';
}

/**
 * Whether this process sends the mail outbox: the worker is on (MAIL_WORKER_ENABLED) and the
 * process is not an `api` one (PROCESS_ROLE; a `mail-worker` process sends for it).
 */
export const sendsMails = (
  config: Pick<BookingsInvitationsConfig, 'MAIL_WORKER_ENABLED' | 'PROCESS_ROLE'>,
): boolean => config.MAIL_WORKER_ENABLED && config.PROCESS_ROLE !== 'api';

/** Deterministic from the mail's id: a receiver can drop a repeat sent after a crash. */
export const messageIdOf = (mailId: string, domain: string) => `<${mailId}@${domain}>`;

/**
 * Sends the mail outbox (see README.md): claims due mails with FOR UPDATE SKIP LOCKED and leases
 * them by moving nextAttemptAt in the same statement, renders their attachments, sends them over
 * a pooled SMTP connection and marks them sent, or schedules a retry, or gives up (`failed`).
 * Wakes on the commit notification of MailsRepository's enqueue, else polls.
 */
@Injectable()
export class MailWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MailWorker.name);
  private transport: Transporter | null = null;
  private readonly domain: string;
  /** Since start: mails sent, attempts that failed, mails given up. For tests and logs. */
  readonly stats = { sent: 0, failedAttempts: 0, failed: 0 };
  private running = false;
  private readonly wakeup: CommitWakeup;
  private loopDone: Promise<void> | null = null;

  constructor(
    private readonly mails: MailsRepository,
    private readonly attachments: MailAttachments,
    private readonly senders: MailSenders,
    @Inject(SERVICE_CONFIG) private readonly config: BookingsInvitationsConfig,
  ) {
    this.domain = mailDomainOf(config.MAIL_FROM);
    this.wakeup = new CommitWakeup(MAIL_CHANNEL, config.DATABASE_URL);
  }

  onApplicationBootstrap(): void {
    if (sendsMails(this.config)) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.transport = nodemailer.createTransport({
      url: this.config.SMTP_URL,
      pool: true,
      maxConnections: this.config.MAIL_CONCURRENCY,
      // Bounded, so a hanging server cannot outlast the lease.
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    } as SMTPPool.Options);
    this.wakeup.start();
    this.loopDone = this.loop();
  }

  /** Finishes the mails being sent, then stops (no new claims). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loopDone;
    await this.wakeup.stop();
    this.transport?.close();
    this.transport = null;
  }

  /** Look for due mails now instead of at the next poll. */
  wake(): void {
    this.wakeup.wake();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let full = false;
      try {
        full = await this.sendDue();
      } catch (err) {
        this.logger.warn(`mail worker: ${(err as Error).message}`);
      }
      if (!full) await this.wakeup.sleep(this.config.MAIL_POLL_INTERVAL_MS);
    }
  }

  /** Claims one batch and sends it. Returns true when the batch was full (more may be due). */
  async sendDue(): Promise<boolean> {
    // the lease runs from the claim (a mail marked sent after it may be another worker's by then)
    const leaseEnds = Date.now() + this.config.MAIL_LEASE_MS;
    const mails = await this.claim();
    let next = 0;
    // Stopping: the mails being sent finish, the rest of the batch is not started.
    const lanes = Array.from(
      { length: Math.min(this.config.MAIL_CONCURRENCY, mails.length) },
      async () => {
        while (next < mails.length && this.running) await this.send(mails[next++], leaseEnds);
      },
    );
    await Promise.all(lanes);
    if (next < mails.length) await this.release(mails.slice(next).map((m) => m.id));
    return mails.length === this.config.MAIL_BATCH_SIZE;
  }

  /**
   * Hands back the lease of claimed mails not sent (the worker is stopping): due again at once for
   * another replica, not after the lease runs out.
   */
  private async release(ids: string[]): Promise<void> {
    // across tenants: the batch holds mails of several
    await acrossTenants('hand-back of claimed mails', async () => this.mails.releaseLeases(ids))
      // Not handed back: the lease expires and they are sent then; nothing is lost.
      .catch((e) => this.logger.warn(`mail leases not released: ${(e as Error).message}`));
  }

  /**
   * One statement: the due mails no other worker holds, leased at once. A concurrent claim skips
   * the locked rows, and after the commit sees them not due. Across tenants: the outbox is one
   * queue for all of them.
   */
  private claim(): Promise<ClaimedMail[]> {
    return acrossTenants('claim of due mails', async () =>
      this.mails.claim(this.config.MAIL_BATCH_SIZE, this.config.MAIL_LEASE_MS),
    );
  }

  /**
   * Sends one mail as part of the request that queued it: the lines about it carry that request's
   * id (the mail's id when it names none) and, with tracing on, it is a span of its trace. As
   * the mail's tenant: its attachments are rendered from that tenant's rows.
   */
  private send(mail: ClaimedMail, leaseEnds: number): Promise<void> {
    const span = { name: `send mail ${mail.kind}`, kind: 'client' as const };
    return asTenant(mail.tenantId, async () =>
      inMessageContext(span, mail.headers, () => this.sendNow(mail, leaseEnds), mail.id),
    );
  }

  private async sendNow(mail: ClaimedMail, leaseEnds: number): Promise<void> {
    const transport = this.transport;
    if (!transport) return;
    let accepted = false;
    try {
      const files: RenderedAttachment[] = [];
      for (const a of mail.attachments ?? []) {
        const file = await this.attachments.render(mail.tenantId, a, mail.language);
        if (file) files.push(file);
      }
      const info = await transport.sendMail({
        from: await this.senders.fromOf(mail.tenantId),
        to: mail.toName ? { name: mail.toName, address: mail.toAddress } : mail.toAddress,
        subject: mail.subject,
        text: mail.text,
        messageId: messageIdOf(mail.id, this.domain),
        headers: { 'X-Crm-Mail-Id': mail.id },
        attachments: files.map((f) => ({
          filename: f.filename,
          content: f.content,
          contentType: f.contentType,
        })),
      });
      accepted = true;
      await this.markSent(
        mail.id,
        (info as { messageId?: string }).messageId ?? messageIdOf(mail.id, this.domain),
        leaseEnds,
      );
      this.stats.sent++;
      this.logger.debug(`mail ${mail.id} (${mail.kind}) sent`);
    } catch (err) {
      // The server has it: recording a failed attempt would send it again (the drill of issue
      // 23 saw a confirmation twice after a PostgreSQL crash); the lease decides, as after a kill.
      if (accepted) {
        this.logger.warn(`mail ${mail.id}: sent, but not marked sent: ${(err as Error).message}`);
        return;
      }
      await this.recordFailure(mail, err).catch((e) =>
        // The lease expires and the mail is tried again: nothing is lost.
        this.logger.warn(`mail ${mail.id}: failure not recorded: ${(e as Error).message}`),
      );
    }
  }

  /**
   * Marks a mail the SMTP server accepted as sent, trying again while the database cannot be
   * used (a restart, a failover) as long as the lease keeps the mail from other workers, less a
   * margin (a minute, half of a shorter lease): a mark lost to a database outage would have it
   * sent again when the lease runs out.
   */
  private async markSent(id: string, messageId: string, leaseEnds: number): Promise<void> {
    for (let wait = 500; ; wait = Math.min(wait * 2, 5000)) {
      try {
        return await this.mails.markSent(id, messageId);
      } catch (err) {
        const margin = Math.min(60_000, this.config.MAIL_LEASE_MS / 2);
        if (Date.now() + wait > leaseEnds - margin) throw err;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private async recordFailure(mail: ClaimedMail, err: unknown): Promise<void> {
    const attempts = mail.attempts + 1;
    const message = ((err as Error)?.message ?? String(err)).slice(0, 2000);
    const delay =
      isPermanentSmtpError(err) || err instanceof AttachmentGoneError
        ? null
        : mailRetryDelayMs(attempts, this.config.MAIL_RETRY_FIRST_MS);
    this.stats.failedAttempts++;
    if (delay === null) this.stats.failed++;
    await this.mails.markAttemptFailed(mail.id, message, delay);
    const what = delay === null ? 'gave up' : `retry in ${delay} ms`;
    this.logger.warn(`mail ${mail.id} (attempt ${attempts}) not sent, ${what}: ${message}`);
  }
}
