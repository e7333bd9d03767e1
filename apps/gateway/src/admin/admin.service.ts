import { Inject, Injectable } from '@nestjs/common';
import { throwIfProblems } from '@crm/errors';
import {
  CreateTenantRequest,
  issueApiKeyProblems,
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

  /** Scopes and expiry are checked here too, so a bad one never reaches tenant-info. */
  async issueApiKey(
    tenantId: string,
    body: Omit<IssueApiKeyRequest, 'tenantId'>,
  ): Promise<IssuedApiKey> {
    throwIfProblems(issueApiKeyProblems(body, new Date()));
    const { name, key, scopes, expiresAt } = body;
    const issued = await this.bus.request<IssuedApiKey>(Subjects.tenantInfo.issueApiKey, {
      tenantId,
      name,
      ...(key !== undefined ? { key } : {}),
      ...(scopes !== undefined ? { scopes } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
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
