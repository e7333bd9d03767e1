import {
  IssuedApiKey,
  knownScopes,
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

/**
 * Unknown and revoked keys answer the same: the gateway needs no more than "not valid". An
 * expired key is not valid either, but says since when, so the caller is told it expired. A valid
 * answer carries the expiry too: the gateway caches answers and checks it on every request.
 */
export function toVerifyReply(row: KeyVerificationRow | null, now: Date): VerifyApiKeyReply {
  if (!row || row.revokedAt) return INVALID;
  const expiresAt = row.expiresAt?.toISOString() ?? null;
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return { valid: false, expiresAt };
  return {
    valid: true,
    keyId: row.id,
    tenantId: row.tenantId,
    modules: knownModules(row.modules),
    scopes: knownScopes(row.scopes),
    expiresAt,
  };
}

export function toIssuedApiKey(r: ApiKeyRecord, key: string): IssuedApiKey {
  return {
    id: r.id,
    tenantId: r.tenantId,
    name: r.name,
    prefix: r.prefix,
    key,
    scopes: knownScopes(r.scopes),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    dateCreated: r.dateCreated.toISOString(),
  };
}

export function toRevokedApiKey(r: ApiKeyRecord & { revokedAt: Date }): RevokedApiKey {
  return { id: r.id, tenantId: r.tenantId, revokedAt: r.revokedAt.toISOString() };
}
