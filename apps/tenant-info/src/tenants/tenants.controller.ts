import { Controller, Get } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { Tariff } from '../tariffs/dto/tariff.dto';
import { Tenant } from './dto/tenant.dto';
import { TenantSubscription } from './dto/tenant-subscription.dto';
import { TenantsService } from './tenants.service';

const UNKNOWN_TENANT = 'The tenant of X-Service-TenantId does not exist';

@ApiTags('Tenant information')
@Controller('tenant-info')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Get()
  @ApiOperation({ summary: 'TI1 General information: tenant id, name and contact details' })
  @ApiEnvelope(Tenant)
  @ApiNotFoundResponse({ description: UNKNOWN_TENANT })
  get(@Ctx() ctx: RequestContext): Promise<Tenant> {
    return this.tenants.get(ctx);
  }

  @Get('tariff')
  @ApiOperation({
    summary: 'TI2 The current tariff with all modules and their functions',
    description: 'Names follow Accept-Language; module and function keys are stable.',
  })
  @ApiEnvelope(Tariff)
  @ApiNotFoundResponse({ description: `${UNKNOWN_TENANT}, or it has no tariff` })
  tariff(@Ctx() ctx: RequestContext): Promise<Tariff> {
    return this.tenants.tariff(ctx);
  }

  @Get('subscription')
  @ApiOperation({
    summary: 'TI3 Subscription: status, billing period, start and end, next renewal, seats',
  })
  @ApiEnvelope(TenantSubscription)
  @ApiNotFoundResponse({ description: UNKNOWN_TENANT })
  subscription(@Ctx() ctx: RequestContext): Promise<TenantSubscription> {
    return this.tenants.subscription(ctx);
  }
}
