import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FALLBACK_LANGUAGE } from '@crm/i18n';
import { MoveTouchpointsReply, MoveTouchpointsRequest, Subjects } from '@crm/messaging';
import { TouchpointPeopleService } from './touchpoint-people.service';

/** NATS commands about touchpoints; the tenant comes from the payload. */
@Controller()
export class TouchpointsMessages {
  constructor(private readonly people: TouchpointPeopleService) {}

  @MessagePattern(Subjects.crmPeople.moveTouchpoints)
  move(@Payload() req: MoveTouchpointsRequest): Promise<MoveTouchpointsReply> {
    // No Accept-Language over NATS: problem texts are English; the caller translates codes.
    return this.people.move({ tenantId: req.tenantId, language: FALLBACK_LANGUAGE }, req);
  }
}
