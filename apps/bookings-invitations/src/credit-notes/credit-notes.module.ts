import { Module, OnModuleInit } from '@nestjs/common';
import { BookingsModule } from '../bookings/bookings.module';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { MailAttachments } from '../mails/mail-attachments';
import { CreditNotesController } from './credit-notes.controller';
import { CreditNotesDataModule } from './credit-notes-data.module';
import { CreditNotesResolver } from './credit-notes.resolver';
import { CreditNotesService } from './credit-notes.service';

/**
 * Credit notes of cancelled invoiced bookings (CN1, CN2, Booking.creditNotes). Renders the
 * `credit-note` attachment of the cancellation mail when the mail worker sends it.
 */
@Module({
  imports: [BookingsModule, EventCopiesModule, InvoicesModule, CreditNotesDataModule],
  controllers: [CreditNotesController],
  providers: [CreditNotesService, CreditNotesResolver],
})
export class CreditNotesModule implements OnModuleInit {
  constructor(
    private readonly attachments: MailAttachments,
    private readonly creditNotes: CreditNotesService,
  ) {}

  onModuleInit(): void {
    this.attachments.register('credit-note', (tenantId, a) =>
      this.creditNotes.attachment(tenantId, a.bookingId, a.creditNoteId),
    );
  }
}
