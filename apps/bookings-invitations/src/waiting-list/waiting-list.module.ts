import { WaitingListMetrics } from './waiting-list-metrics';
import { Module } from '@nestjs/common';
import { BookingsModule } from '../bookings/bookings.module';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { WaitingListPublicController } from './waiting-list-public.controller';
import { WaitingListController } from './waiting-list.controller';
import { WaitingListOffers } from './waiting-list-offers';
import { WaitingListResolver } from './waiting-list.resolver';
import { WaitingListService } from './waiting-list.service';

/**
 * WL1-WL6: the waiting lists and the sweeper that offers them free seats as holds. The table
 * and the split of free seats live in WaitingListDataModule (the bookings' writer needs them).
 */
@Module({
  imports: [BookingsModule, EventCopiesModule],
  controllers: [WaitingListPublicController, WaitingListController],
  providers: [WaitingListMetrics, WaitingListService, WaitingListResolver, WaitingListOffers],
})
export class WaitingListModule {}
