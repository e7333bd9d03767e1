import { Injectable, Logger } from '@nestjs/common';
import { AppException, throwIfProblems } from '@crm/errors';
import {
  AccessChangedEvent,
  API_KEY_SCOPES,
  issueApiKeyProblems,
  IssueApiKeyRequest,
  IssuedApiKey,
  MessageBus,
  RevokeApiKeyRequest,
  RevokedApiKey,
  Subjects,
  VerifyApiKeyReply,
  VerifyApiKeyRequest,
} from '@crm/messaging';
import { mapPrismaError } from '@crm/persistence';
import { acrossTenants, asTenant } from '@crm/request-context';
import { TenantsService } from '../tenants/tenants.service';
import { generateApiKey, hashApiKey, keyPrefix } from './api-key.crypto';
import { toIssuedApiKey, toRevokedApiKey, toVerifyReply } from './api-key.mapper';
import { ApiKeysRepository, KeyVerificationRow } from './api-keys.repository';
import { LastUsedThrottle } from './last-used.throttle';

/** API keys: verified for the gateway on every request, issued and revoked by operators. */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly throttle = new LastUsedThrottle();

  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly tenants: TenantsService,
    private readonly bus: MessageBus,
  ) {}

  async verify(req: VerifyApiKeyRequest): Promise<VerifyApiKeyReply> {
    // The gateway presents a key before it knows any tenant: the key's (unique) hash finds it.
    const row = await acrossTenants('api key verification: the key names its tenant', () =>
      this.repo.findForVerification(req.keyHash),
    );
    const reply = toVerifyReply(row, new Date());
    if (reply.valid && row) asTenant(row.tenantId, () => this.noteUse(row));
    return reply;
  }

  /** Records the use without delaying the answer; a failed write only costs bookkeeping. */
  private noteUse(row: KeyVerificationRow) {
    const now = Date.now();
    if (!this.throttle.shouldWrite(row.id, row.lastUsed, now)) return;
    this.repo
      .touch(row.id, new Date(now), new Date(now - this.throttle.intervalMs))
      .catch((err: unknown) =>
        this.logger.warn(`lastUsed of key ${row.id} not written: ${(err as Error)?.message}`),
      );
  }

  /** A key issued without scopes may do everything, as every key could before scopes existed. */
  async issue(req: IssueApiKeyRequest): Promise<IssuedApiKey> {
    throwIfProblems(issueApiKeyProblems(req, new Date()));
    // as the tenant it names, whoever sends the command (an operator acts for no tenant)
    return asTenant(req.tenantId, () => this.issueFor(req));
  }

  private async issueFor(req: IssueApiKeyRequest): Promise<IssuedApiKey> {
    await this.tenants.requireExists(req.tenantId);
    const key = req.key ?? generateApiKey();
    try {
      const record = await this.repo.create({
        tenantId: req.tenantId,
        name: req.name.trim(),
        prefix: keyPrefix(key),
        hash: hashApiKey(key),
        scopes: req.scopes ?? [...API_KEY_SCOPES],
        expiresAt: req.expiresAt ? new Date(req.expiresAt) : null,
      });
      return toIssuedApiKey(record, key);
    } catch (err) {
      // Only a given key can collide (generated ones have 256 random bits).
      return mapPrismaError(err, 'ApiKey', keyPrefix(key));
    }
  }

  /** Revokes a key (again: keeps the first date) and tells gateways to drop what they cached. */
  async revoke(req: RevokeApiKeyRequest): Promise<RevokedApiKey> {
    // An operator names the key only: whose it is is looked up over every tenant, then revoked as it.
    const tenantId = await acrossTenants('api key revocation: the key id names its tenant', () =>
      this.repo.findTenantOf(req.keyId),
    );
    if (!tenantId) throw AppException.notFound('ApiKey', req.keyId);
    const record = await asTenant(tenantId, () => this.repo.revoke(req.keyId, new Date()));
    if (!record?.revokedAt) throw AppException.notFound('ApiKey', req.keyId);
    const event: AccessChangedEvent = { tenantId: record.tenantId, keyId: record.id };
    await this.bus.emit(Subjects.tenantInfo.accessChanged, event);
    return toRevokedApiKey({ ...record, revokedAt: record.revokedAt });
  }
}
