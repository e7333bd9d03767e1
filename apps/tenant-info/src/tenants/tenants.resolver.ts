import { Query, Resolver, ResolveReference } from '@nestjs/graphql';
import { Ctx, readRequestContext, RequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import { Tariff } from '../tariffs/dto/tariff.dto';
import { Tenant } from './dto/tenant.dto';
import { TenantSubscription } from './dto/tenant-subscription.dto';
import { TenantsService } from './tenants.service';

type WithTenant = GraphQLRequestContext & { tenantRef?: Promise<Tenant | null> };

@Resolver(() => Tenant)
export class TenantsResolver {
  constructor(private readonly tenants: TenantsService) {}

  @Query(() => Tenant, { description: 'TI1 General information on the current tenant' })
  tenantInfo(@Ctx() ctx: RequestContext) {
    return this.tenants.get(ctx);
  }

  @Query(() => Tariff, { description: 'TI2 The current tariff with its modules and functions' })
  tenantTariff(@Ctx() ctx: RequestContext) {
    return this.tenants.tariff(ctx);
  }

  @Query(() => TenantSubscription, { description: 'TI3 Subscription of the current tenant' })
  tenantSubscription(@Ctx() ctx: RequestContext) {
    return this.tenants.subscription(ctx);
  }

  /**
   * Federation: only the caller's own tenant can be referenced, so every reference of a request
   * names the same row; it is loaded once per request, whatever the number of references.
   */
  @ResolveReference()
  resolveReference(ref: { __typename: string; id: string }, context: WithTenant) {
    const ctx = readRequestContext(context.req.headers);
    if (ref.id !== ctx.tenantId) return null;
    context.tenantRef ??= this.tenants.findForReference(ctx, ctx.tenantId);
    return context.tenantRef;
  }
}
