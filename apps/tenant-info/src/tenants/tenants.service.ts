import { Inject, Injectable } from '@nestjs/common';
import { AppException, ErrorCode } from '@crm/errors';
import {
  AccessChangedEvent,
  CreateTenantRequest,
  MessageBus,
  SetTenantTariffRequest,
  Subjects,
  TenantSummary,
} from '@crm/messaging';
import { mapPrismaError } from '@crm/persistence';
import { asTenant, type RequestContext } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { TenantInfoConfig } from '../config';
import type { Tariff } from '../tariffs/dto/tariff.dto';
import { TariffsRepository } from '../tariffs/tariffs.repository';
import { TariffsService } from '../tariffs/tariffs.service';
import type { Tenant } from './dto/tenant.dto';
import type { TenantSubscription } from './dto/tenant-subscription.dto';
import { compactContact, toSubscription, toTenant, toTenantSummary } from './tenant.mapper';
import { TenantsRepository } from './tenants.repository';

/** Tenant use cases: TI1-TI3 for the tenant itself, creation and tariff changes for operators. */
@Injectable()
export class TenantsService {
  constructor(
    private readonly repo: TenantsRepository,
    private readonly tariffRepo: TariffsRepository,
    private readonly tariffs: TariffsService,
    private readonly bus: MessageBus,
    @Inject(SERVICE_CONFIG) private readonly config: TenantInfoConfig,
  ) {}

  async get(ctx: RequestContext): Promise<Tenant> {
    const record = await this.repo.findById(ctx.tenantId);
    if (!record) throw AppException.notFound('Tenant', ctx.tenantId);
    return toTenant(record);
  }

  /** Federation reference: only the caller's own tenant resolves; any other id is null. */
  async findForReference(ctx: RequestContext, id: string): Promise<Tenant | null> {
    if (id !== ctx.tenantId) return null;
    const record = await this.repo.findById(id);
    return record ? toTenant(record) : null;
  }

  async tariff(ctx: RequestContext): Promise<Tariff> {
    const record = await this.repo.findById(ctx.tenantId);
    if (!record) throw AppException.notFound('Tenant', ctx.tenantId);
    if (!record.tariffId) {
      throw new AppException(ErrorCode.NOT_FOUND, 'tenantInfo.errors.noTariff', {
        tenantId: ctx.tenantId,
      });
    }
    return this.tariffs.get(record.tariffId, ctx.language);
  }

  async subscription(ctx: RequestContext): Promise<TenantSubscription> {
    const found = await this.repo.findSubscription(ctx.tenantId);
    if (!found) throw AppException.notFound('Tenant', ctx.tenantId);
    if (!found.subscription) {
      throw new AppException(ErrorCode.NOT_FOUND, 'tenantInfo.errors.noSubscription', {
        tenantId: ctx.tenantId,
      });
    }
    return toSubscription(found.subscription);
  }

  /**
   * A new tenant on the requested tariff (or the configured default) with an ACTIVE monthly
   * subscription for one seat starting now: tenants are created by an operator for a client with
   * a contract, so there is no trial to expire.
   */
  async create(req: CreateTenantRequest): Promise<TenantSummary> {
    const tariffId = req.tariffId ?? this.config.DEFAULT_TARIFF_ID;
    try {
      // The new tenant's rows are its own: written as that tenant (the request names no tenant yet).
      const record = await asTenant(req.id, () =>
        this.repo.transaction(async (tx) => {
          if (!(await this.tariffRepo.exists(tariffId, tx)))
            throw AppException.notFound('Tariff', tariffId);
          return this.repo.create(
            tx,
            {
              id: req.id,
              name: req.name.trim(),
              contact: { ...compactContact(req.contact) },
              tariffId,
            },
            { status: 'ACTIVE', billingPeriod: 'monthly', startDate: new Date(), seats: 1 },
          );
        }),
      );
      return toTenantSummary(record);
    } catch (err) {
      return mapPrismaError(err, 'Tenant', req.id);
    }
  }

  /** Moves a tenant to another tariff; gateways are told to forget what they cached about it. */
  async setTariff(req: SetTenantTariffRequest): Promise<TenantSummary> {
    // as the tenant it names, whoever sends the command (an operator acts for no tenant)
    const record = await asTenant(req.tenantId, () =>
      this.repo.transaction(async (tx) => {
        if (!(await this.repo.findById(req.tenantId, tx)))
          throw AppException.notFound('Tenant', req.tenantId);
        if (!(await this.tariffRepo.exists(req.tariffId, tx)))
          throw AppException.notFound('Tariff', req.tariffId);
        return this.repo.setTariff(tx, req.tenantId, req.tariffId);
      }),
    );
    const event: AccessChangedEvent = { tenantId: record.id };
    await this.bus.emit(Subjects.tenantInfo.accessChanged, event);
    return toTenantSummary(record);
  }

  /** Throws 404 unless the tenant exists. */
  async requireExists(id: string): Promise<void> {
    if (!(await this.repo.exists(id))) throw AppException.notFound('Tenant', id);
  }
}
