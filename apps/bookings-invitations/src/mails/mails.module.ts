import { Global, Module } from '@nestjs/common';
import { MailAttachments } from './mail-attachments';

/**
 * The mail outbox (enqueueMail in a change's transaction) and what renders attachments. The
 * sending worker (nodemailer, retries) lives here too.
 */
@Global()
@Module({
  providers: [MailAttachments],
  exports: [MailAttachments],
})
export class MailsModule {}
