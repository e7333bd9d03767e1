import { Global, Module } from '@nestjs/common';
import { MailAttachments } from './mail-attachments';
import { MailMetrics } from './mail-metrics';
import { MailSenders } from './mail-sender';
import { MailWorker } from './mail-worker';
import { MailsRepository } from './mails.repository';

/**
 * The mail outbox (MailsRepository: enqueued in a change's transaction), what renders attachments, and the
 * worker that sends them (nodemailer, retries; see README.md).
 */
@Global()
@Module({
  providers: [MailsRepository, MailAttachments, MailSenders, MailWorker, MailMetrics],
  exports: [MailsRepository, MailAttachments, MailWorker],
})
export class MailsModule {}
