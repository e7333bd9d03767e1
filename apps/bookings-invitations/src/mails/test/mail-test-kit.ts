import { randomUUID } from 'node:crypto';
import { runSql, startSmtpServer, type TestSmtpServer } from '@crm/testing';
import { asTenant } from '@crm/request-context';
import { PrismaService } from '../../database/prisma.service';
import { RunningService, startBookingsInvitations } from '../../test/service-harness';
import { type MailDraft } from '../mail-outbox';
import { MailsRepository } from '../mails.repository';
import { MailWorker } from '../mail-worker';

/** Settings that make the worker quick in tests: short polls and retries. */
export const FAST_MAIL_ENV = {
  MAIL_POLL_INTERVAL_MS: '200',
  MAIL_RETRY_FIRST_MS: '100',
  MAIL_BATCH_SIZE: '20',
};

/** Recipients the test SMTP server refuses with 550 (a permanent rejection). */
export const REFUSED = (address: string) => address.startsWith('refused@');

/** Polls `check` until it stops throwing (or `ms` pass, then throws its last error). */
export async function eventually<T>(check: () => Promise<T>, ms = 45_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export interface MailRow {
  id: string;
  status: string;
  attempts: number;
  lastError: string | null;
  messageId: string | null;
  sentAt: Date | null;
}

/** A running service with its own test SMTP server, and mails queued straight into the outbox. */
export class MailTestKit {
  constructor(
    readonly svc: RunningService,
    readonly smtp: TestSmtpServer,
  ) {}

  static async start(
    dbName: string,
    env: Record<string, string> = {},
    smtpOptions: { acceptDelayMs?: number } = {},
  ): Promise<MailTestKit> {
    const smtp = await startSmtpServer({ refuseRecipient: REFUSED, ...smtpOptions });
    try {
      const svc = await startBookingsInvitations(dbName, {
        SMTP_URL: smtp.url,
        ...FAST_MAIL_ENV,
        ...env,
      });
      return new MailTestKit(svc, smtp);
    } catch (err) {
      await smtp.stop();
      throw err;
    }
  }

  /** Another instance of the service on the same database (a second replica). */
  async replica(env: Record<string, string> = {}): Promise<RunningService> {
    return startBookingsInvitations(`mails_replica_${randomUUID().slice(0, 8)}`, {
      SMTP_URL: this.smtp.url,
      ...FAST_MAIL_ENV,
      ...env,
      DATABASE_URL: this.svc.databaseUrl,
    });
  }

  get worker(): MailWorker {
    return this.svc.app.get(MailWorker);
  }

  /** Queues mails in one transaction, as a domain does (enqueueMany notifies the workers). */
  async queue(drafts: Partial<MailDraft>[], tenantId = 'tenant-mails'): Promise<string[]> {
    const prisma = this.svc.app.get(PrismaService);
    return asTenant(tenantId, async () =>
      prisma.$transaction((tx) =>
        this.svc.app.get(MailsRepository).enqueueMany(
          tx,
          drafts.map((d, i) => ({
            tenantId,
            kind: 'invitation',
            toAddress: `guest${i}@example.test`,
            language: 'en',
            subject: `Hello ${i}`,
            text: `Text ${i}`,
            ...d,
          })),
        ),
      ),
    );
  }

  async mail(id: string): Promise<MailRow> {
    const [row] = await runSql<MailRow>(
      this.svc.databaseUrl,
      `SELECT id::text, status, attempts, "lastError", "messageId", "sentAt" FROM "Mail" WHERE id = $1`,
      [id],
    );
    return row;
  }

  async close(): Promise<void> {
    await this.svc?.app.close();
    await this.smtp.stop();
  }
}
