import { Global, Module } from '@nestjs/common';
import { CapacityRepository } from './capacity.repository';
import { TicketCancellation } from './ticket-cancellation';

/** Capacity counters and ticket cancellation, shared by bookings, event tickets and invitations. */
@Global()
@Module({
  providers: [CapacityRepository, TicketCancellation],
  exports: [CapacityRepository, TicketCancellation],
})
export class CapacityModule {}
