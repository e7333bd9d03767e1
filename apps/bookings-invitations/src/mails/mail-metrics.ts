import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
import { acrossTenants } from '@crm/request-context';
import { MailsRepository } from './mails.repository';

/** The mail outbox as an operator watches it: mails waiting to be sent and mails given up. */
@Injectable()
export class MailMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly mails: MailsRepository,
  ) {}

  onModuleInit(): void {
    const open = this.metrics.shared(() =>
      acrossTenants('gauges of the mail outbox over all tenants', async () =>
        this.mails.countOpen(),
      ),
    );
    this.metrics.gauge(
      'mails_pending',
      'Mails queued and not yet sent (all tenants)',
      async () => (await open()).queued,
    );
    this.metrics.gauge(
      'mails_failed',
      'Mails given up after their attempts (all tenants; they stay listed per booking)',
      async () => (await open()).failed,
    );
  }
}
