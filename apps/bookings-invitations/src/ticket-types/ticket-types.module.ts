import { Module } from '@nestjs/common';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { TicketTypesController } from './ticket-types.controller';
import { TicketTypesEvents } from './ticket-types.events';
import { TicketTypesRepository } from './ticket-types.repository';
import { TicketTypesResolver } from './ticket-types.resolver';
import { TicketTypesService } from './ticket-types.service';

/** Ticket types of an event (K1, K2) and their copies for duplicated events. */
@Module({
  imports: [EventCopiesModule],
  controllers: [TicketTypesController],
  providers: [TicketTypesRepository, TicketTypesService, TicketTypesResolver, TicketTypesEvents],
})
export class TicketTypesModule {}
