import { Module, OnModuleInit } from '@nestjs/common';
import { BookingsModule } from '../bookings/bookings.module';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { MailAttachments } from '../mails/mail-attachments';
import { InvoiceSenders } from './invoice-sender';
import { InvoicesController } from './invoices.controller';
import { InvoicesResolver } from './invoices.resolver';
import { InvoicesService } from './invoices.service';

/**
 * Invoices of bookings (BK10, BK11, BK16, BK17). Renders the `invoice` attachment of queued
 * mails (the booking confirmation's and BK10's) when the mail worker sends them.
 */
@Module({
  imports: [BookingsModule, EventCopiesModule],
  controllers: [InvoicesController],
  providers: [InvoicesService, InvoicesResolver, InvoiceSenders],
  exports: [InvoicesService, InvoiceSenders],
})
export class InvoicesModule implements OnModuleInit {
  constructor(
    private readonly attachments: MailAttachments,
    private readonly invoices: InvoicesService,
  ) {}

  onModuleInit(): void {
    this.attachments.register('invoice', (tenantId, a) =>
      this.invoices.attachment(tenantId, a.bookingId),
    );
  }
}
