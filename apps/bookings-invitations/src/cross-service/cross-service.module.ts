import { Module } from '@nestjs/common';
import { BookingsModule } from '../bookings/bookings.module';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { CrossServiceEvents } from './cross-service.events';

/**
 * What other services' events change here: a deleted event (bookings, tickets, invitations,
 * ticket types), a migrated website, merged and deleted people.
 */
@Module({
  imports: [EventCopiesModule, BookingsModule],
  providers: [CrossServiceEvents],
})
export class CrossServiceModule {}
