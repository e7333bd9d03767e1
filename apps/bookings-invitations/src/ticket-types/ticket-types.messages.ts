import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, TicketTypesSummaryReply, TicketTypesSummaryRequest } from '@crm/messaging';
import { TicketTypesRepository } from './ticket-types.repository';

/**
 * NATS questions about ticket types (the tenant comes from the validated payload): the events
 * service asks before publishing an event (E11, E12) whether it has a ticket type on sale.
 */
@Controller()
export class TicketTypesMessages {
  constructor(private readonly ticketTypes: TicketTypesRepository) {}

  @MessagePattern(Subjects.bookingsInvitations.ticketTypesSummary)
  summary(@Payload() req: TicketTypesSummaryRequest): Promise<TicketTypesSummaryReply> {
    return this.ticketTypes.summary(req.tenantId, req.eventId.toLowerCase());
  }
}
