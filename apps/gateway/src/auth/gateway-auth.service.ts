import { Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { AppException, ErrorCode } from '@crm/errors';
import type { ModuleName } from '@crm/messaging';
import { readRequestContext, RequestContext } from '@crm/request-context';
import { KEY_VERIFIER, KeyVerifier } from './api-key.verifier';

/** Who called, as the gateway established it. */
export interface Caller {
  context: RequestContext;
  /** Id of the verified API key (sent on as X-Caller-Id); null for public operations. */
  keyId: string | null;
  /** The tariff modules of the tenant (empty for public operations). */
  modules: ModuleName[];
}

export interface AccessRequirement {
  /** Public operations need the tenant headers but no key. */
  isPublic?: boolean;
  /** The tariff module the operation belongs to; absent when checked later (GraphQL). */
  module?: ModuleName;
}

/** Longer than any key tenant-info issues: not worth a NATS round trip. */
const MAX_KEY_LENGTH = 512;

export function bearerToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value ?? '');
  return match ? match[1] : null;
}

export function assertModule(modules: readonly ModuleName[], module: ModuleName): void {
  if (!modules.includes(module)) {
    throw new AppException(ErrorCode.FORBIDDEN, 'errors.auth.moduleNotInTariff', { module });
  }
}

/**
 * The checks every /v1/crm/** and /graphql call passes, in this order: required headers (400),
 * API key present (401), known and not revoked (401), of the tenant named in the headers (403),
 * tariff holds the module (403).
 */
@Injectable()
export class GatewayAuthService {
  constructor(@Inject(KEY_VERIFIER) private readonly verifier: KeyVerifier) {}

  /** `context`: the headers' context when the caller has read it already (the REST proxy). */
  async authenticate(
    headers: IncomingHttpHeaders,
    requirement: AccessRequirement = {},
    context: RequestContext = readRequestContext(headers),
  ): Promise<Caller> {
    if (requirement.isPublic)
      return { context: { ...context, callerId: null }, keyId: null, modules: [] };
    const key = bearerToken(headers.authorization);
    if (!key) throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.missingKey');
    if (key.length > MAX_KEY_LENGTH)
      throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.unknownKey');
    const reply = await this.verifier.verify(key);
    if (!reply.valid || !reply.keyId || !reply.tenantId) {
      throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.unknownKey');
    }
    if (reply.tenantId !== context.tenantId) {
      throw new AppException(ErrorCode.FORBIDDEN, 'errors.auth.foreignKey', {
        tenantId: context.tenantId,
      });
    }
    const modules = reply.modules ?? [];
    if (requirement.module) assertModule(modules, requirement.module);
    return { context: { ...context, callerId: reply.keyId }, keyId: reply.keyId, modules };
  }
}
