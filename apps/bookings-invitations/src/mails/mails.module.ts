import { Global, Module } from '@nestjs/common';
import { MailAttachments } from './mail-attachments';
import { MailWorker } from './mail-worker';

/**
 * The mail outbox (enqueueMail in a change's transaction), what renders attachments, and the
 * worker that sends them (nodemailer, retries; see README.md).
 */
@Global()
@Module({
  providers: [MailAttachments, MailWorker],
  exports: [MailAttachments, MailWorker],
})
export class MailsModule {}
