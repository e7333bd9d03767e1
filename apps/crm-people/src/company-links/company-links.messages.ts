import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PeopleExistReply, PeopleExistRequest, Subjects } from '@crm/messaging';
import { CompanyLinksService } from './company-links.service';

/** NATS queries of crm-companies; the tenant comes from the payload (validated by the pipe). */
@Controller()
export class CompanyLinksMessages {
  constructor(private readonly links: CompanyLinksService) {}

  @MessagePattern(Subjects.crmPeople.peopleExist)
  peopleExist(@Payload() req: PeopleExistRequest): Promise<PeopleExistReply> {
    return this.links.peopleExist(req);
  }
}
