import { Module } from '@nestjs/common';
import { CreditNotesDataModule } from '../credit-notes/credit-notes-data.module';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { HoldsDataModule } from '../holds/holds-data.module';
import { WaitingListDataModule } from '../waiting-list/waiting-list-data.module';
import { OutboxModule } from '../outbox/outbox.module';
import { BookingCancellation } from './booking-cancellation';
import { BookingCreation } from './booking-creation.service';
import { BookingMails } from './booking-mails';
import { BookingReports } from './booking-reports.service';
import { BookingsPublicController } from './bookings-public.controller';
import { BookingsController } from './bookings.controller';
import { BookingsRepository } from './bookings.repository';
import { BookingsResolver } from './bookings.resolver';
import { BookingsService } from './bookings.service';
import { SaleMetrics } from './sale-metrics';
import { SalesLeasesRepository } from './sales-leases.repository';
import { SalesRouting } from './sales-routing';
import { SaleWriterThread } from './sale-writer-thread';
import { TenantSales } from './tenant-sales';
import { PaymentDeadlines } from './payment-deadlines';
import { IdempotencyKeyPurge } from './idempotency-keys';

/**
 * Bookings BK1-BK9, BK12-BK15. Exports BookingCancellation (a rejected invitation and a
 * deleted event cancel bookings with it) and BookingsRepository.
 */
@Module({
  imports: [
    EventCopiesModule,
    HoldsDataModule,
    WaitingListDataModule,
    OutboxModule,
    CreditNotesDataModule,
  ],
  controllers: [BookingsPublicController, BookingsController],
  providers: [
    BookingsRepository,
    BookingMails,
    SaleWriterThread,
    SalesLeasesRepository,
    SalesRouting,
    TenantSales,
    SaleMetrics,
    BookingCreation,
    BookingCancellation,
    BookingsService,
    BookingReports,
    BookingsResolver,
    IdempotencyKeyPurge,
    PaymentDeadlines,
  ],
  exports: [
    BookingCancellation,
    BookingsRepository,
    BookingMails,
    TenantSales,
    HoldsDataModule,
    WaitingListDataModule,
  ],
})
export class BookingsModule {}
