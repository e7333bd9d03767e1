import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PeopleContactsReply,
  PeopleContactsRequest,
  PeopleExistReply,
  PeopleExistRequest,
  Subjects,
} from '@crm/messaging';
import { CompanyLinksService } from './company-links.service';

/** NATS queries of crm-companies and bookings-invitations; the tenant comes from the payload (validated by the pipe). */
@Controller()
export class CompanyLinksMessages {
  constructor(private readonly links: CompanyLinksService) {}

  @MessagePattern(Subjects.crmPeople.peopleExist)
  peopleExist(@Payload() req: PeopleExistRequest): Promise<PeopleExistReply> {
    return this.links.peopleExist(req);
  }

  /** bookings-invitations (IN7, IN14): names, e-mail and language of people to invite. */
  @MessagePattern(Subjects.crmPeople.peopleContacts)
  peopleContacts(@Payload() req: PeopleContactsRequest): Promise<PeopleContactsReply> {
    return this.links.peopleContacts(req);
  }
}
