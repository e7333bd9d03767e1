import {
  IssuedApiKey,
  ModuleName,
  MODULES,
  RevokedApiKey,
  VerifyApiKeyReply,
} from '@crm/messaging';
import type { ApiKeyRecord, KeyVerificationRow } from './api-keys.repository';

const INVALID: VerifyApiKeyReply = { valid: false };

/** Module names the gateway knows, in MODULES order; anything else in the data is left out. */
export function knownModules(names: readonly string[]): ModuleName[] {
  return MODULES.filter((m) => names.includes(m));
}

/** Unknown and revoked keys answer the same: the gateway needs no more than "not valid". */
export function toVerifyReply(row: KeyVerificationRow | null): VerifyApiKeyReply {
  if (!row || row.revokedAt) return INVALID;
  return { valid: true, keyId: row.id, tenantId: row.tenantId, modules: knownModules(row.modules) };
}

export function toIssuedApiKey(r: ApiKeyRecord, key: string): IssuedApiKey {
  return {
    id: r.id,
    tenantId: r.tenantId,
    name: r.name,
    prefix: r.prefix,
    key,
    dateCreated: r.dateCreated.toISOString(),
  };
}

export function toRevokedApiKey(r: ApiKeyRecord & { revokedAt: Date }): RevokedApiKey {
  return { id: r.id, tenantId: r.tenantId, revokedAt: r.revokedAt.toISOString() };
}
