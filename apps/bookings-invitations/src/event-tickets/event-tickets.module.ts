import { Module, OnModuleInit } from '@nestjs/common';
import { BookingsModule } from '../bookings/bookings.module';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { MailAttachments } from '../mails/mail-attachments';
import { TicketCodesModule } from '../ticket-codes/ticket-codes.module';
import { EventTicketsController } from './event-tickets.controller';
import { EventTicketsResolver } from './event-tickets.resolver';
import { EventTicketsService } from './event-tickets.service';
import { TicketCodes } from './ticket-codes.service';
import { TicketSigningKeysService } from './ticket-signing-keys.service';
import { pdfOfTicket } from './ticket-pdf.renderer';

/** Event tickets ET1-ET14: signed codes and their keys, check-in, mails, export and the ticket PDF. */
@Module({
  imports: [EventCopiesModule, BookingsModule, TicketCodesModule],
  controllers: [EventTicketsController],
  providers: [EventTicketsService, EventTicketsResolver, TicketCodes, TicketSigningKeysService],
  exports: [TicketCodes],
})
export class EventTicketsModule implements OnModuleInit {
  constructor(
    private readonly attachments: MailAttachments,
    private readonly tickets: EventTicketsService,
  ) {}

  /** The mail worker renders a `ticket` attachment (ET6) when it sends, through this. */
  onModuleInit() {
    this.attachments.register('ticket', async (tenantId, attachment, language) => {
      const found = await this.tickets.forPdf(tenantId, attachment.ticketId);
      if (!found) throw new Error(`ticket ${attachment.ticketId} of the mail is gone`);
      return pdfOfTicket(found, language);
    });
  }
}
