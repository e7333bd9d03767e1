import { Inject, Injectable } from '@nestjs/common';
import {
  CreateTenantRequest,
  IssueApiKeyRequest,
  IssuedApiKey,
  MessageBus,
  RevokeApiKeyRequest,
  RevokedApiKey,
  SetTenantTariffRequest,
  Subjects,
  TariffSummary,
  TenantSummary,
} from '@crm/messaging';
import { ApiKeyCache } from '../auth/api-key.cache';
import { API_KEY_CACHE } from '../auth/api-key.verifier';

/**
 * The operator's commands, answered by tenant-info over NATS. Changes of access also drop this
 * replica's cache right away (other replicas hear tenant-info's accessChanged event).
 */
@Injectable()
export class AdminService {
  constructor(
    private readonly bus: MessageBus,
    @Inject(API_KEY_CACHE) private readonly cache: ApiKeyCache,
  ) {}

  createTenant(body: CreateTenantRequest): Promise<TenantSummary> {
    return this.bus.request<TenantSummary>(Subjects.tenantInfo.createTenant, body);
  }

  async issueApiKey(tenantId: string, name: string, key?: string): Promise<IssuedApiKey> {
    const issued = await this.bus.request<IssuedApiKey>(Subjects.tenantInfo.issueApiKey, {
      tenantId,
      name,
      ...(key !== undefined ? { key } : {}),
    } satisfies IssueApiKeyRequest);
    // A fixed key tried before it existed is cached as invalid: forget that.
    this.cache.dropInvalid();
    return issued;
  }

  async revokeApiKey(keyId: string): Promise<RevokedApiKey> {
    const revoked = await this.bus.request<RevokedApiKey>(Subjects.tenantInfo.revokeApiKey, {
      keyId,
    } satisfies RevokeApiKeyRequest);
    this.cache.dropTenant(revoked.tenantId);
    return revoked;
  }

  listTariffs(): Promise<TariffSummary[]> {
    return this.bus.request<TariffSummary[]>(Subjects.tenantInfo.listTariffs, {});
  }

  async setTenantTariff(tenantId: string, tariffId: string): Promise<TenantSummary> {
    const tenant = await this.bus.request<TenantSummary>(Subjects.tenantInfo.setTenantTariff, {
      tenantId,
      tariffId,
    } satisfies SetTenantTariffRequest);
    this.cache.dropTenant(tenantId);
    return tenant;
  }
}
