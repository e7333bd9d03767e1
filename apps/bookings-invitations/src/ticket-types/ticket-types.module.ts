import { Module } from '@nestjs/common';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { TicketCodesModule } from '../ticket-codes/ticket-codes.module';
import { TicketTypesController } from './ticket-types.controller';
import { TicketTypesEvents } from './ticket-types.events';
import { TicketTypesMessages } from './ticket-types.messages';
import { TicketTypesResolver } from './ticket-types.resolver';
import { TicketTypesService } from './ticket-types.service';

/**
 * Ticket types of an event (K1, K2), their copies for duplicated events, and the summary the
 * events service asks for before publishing.
 */
@Module({
  imports: [EventCopiesModule, TicketCodesModule],
  controllers: [TicketTypesController, TicketTypesMessages],
  providers: [TicketTypesService, TicketTypesResolver, TicketTypesEvents],
})
export class TicketTypesModule {}
