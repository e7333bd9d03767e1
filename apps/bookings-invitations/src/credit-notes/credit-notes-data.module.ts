import { Module } from '@nestjs/common';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { CreditNotes } from './credit-notes';
import { CreditNotesRepository } from './credit-notes.repository';

/**
 * The CreditNote table and the issuing of credit notes, for the cancellation of a booking
 * (BookingsModule) and the read side (CreditNotesModule).
 */
@Module({
  imports: [EventCopiesModule],
  providers: [CreditNotesRepository, CreditNotes],
  exports: [CreditNotesRepository, CreditNotes],
})
export class CreditNotesDataModule {}
