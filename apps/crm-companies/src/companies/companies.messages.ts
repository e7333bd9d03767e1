import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CompanyExistsReply, CompanyExistsRequest, Subjects } from '@crm/messaging';
import { asTenant } from '@crm/request-context';
import { CompaniesService } from './companies.service';

/** NATS requests about companies; the tenant comes from the payload (validated by the pipe). */
@Controller()
export class CompaniesMessages {
  constructor(private readonly companies: CompaniesService) {}

  /** crm-people's B8 asks before connecting a business card to a company. */
  @MessagePattern(Subjects.crmCompanies.companyExists)
  exists(@Payload() req: CompanyExistsRequest): Promise<CompanyExistsReply> {
    // as the payload's tenant, whether or not the sender put it in the header too
    return asTenant(req.tenantId, () => this.companies.exists(req.tenantId, req.companyId));
  }
}
