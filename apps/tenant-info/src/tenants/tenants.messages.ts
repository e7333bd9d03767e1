import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateTenantRequest,
  SetTenantTariffRequest,
  Subjects,
  TenantSummary,
} from '@crm/messaging';
import { TenantsService } from './tenants.service';

/** NATS commands about tenants (operators through the gateway's admin API, the dev launcher). */
@Controller()
export class TenantsMessages {
  constructor(private readonly tenants: TenantsService) {}

  @MessagePattern(Subjects.tenantInfo.createTenant)
  create(@Payload() req: CreateTenantRequest): Promise<TenantSummary> {
    return this.tenants.create(req);
  }

  @MessagePattern(Subjects.tenantInfo.setTenantTariff)
  setTariff(@Payload() req: SetTenantTariffRequest): Promise<TenantSummary> {
    return this.tenants.setTariff(req);
  }
}
