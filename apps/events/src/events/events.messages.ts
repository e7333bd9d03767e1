import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EventsExistReply, EventsExistRequest, Subjects } from '@crm/messaging';
import { EventsRepository } from './events.repository';

/**
 * NATS queries about events (the tenant comes from the validated payload): bookings-invitations
 * asks whether an event is the tenant's before its own copy of the event has arrived.
 */
@Controller()
export class EventsMessages {
  constructor(private readonly events: EventsRepository) {}

  @MessagePattern(Subjects.events.eventsExist)
  async eventsExist(@Payload() req: EventsExistRequest): Promise<EventsExistReply> {
    const asked = [...new Set(req.eventIds.map((id) => id.toLowerCase()))];
    const known = new Set(await this.events.existing(req.tenantId, asked));
    return { missingEventIds: asked.filter((id) => !known.has(id)) };
  }
}
