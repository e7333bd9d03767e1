import { Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { AppException, ErrorCode } from '@crm/errors';
import {
  AccessKind,
  allowsScope,
  API_KEY_SCOPES,
  ModuleName,
  scopeOf,
  VerifyApiKeyReply,
} from '@crm/messaging';
import { readRequestContext, RequestContext } from '@crm/request-context';
import { KEY_VERIFIER, KeyVerifier } from './api-key.verifier';

/** Who called, as the gateway established it. */
export interface Caller {
  context: RequestContext;
  /** Id of the verified API key (sent on as X-Caller-Id); null for public operations. */
  keyId: string | null;
  /** The tariff modules of the tenant (empty for public operations). */
  modules: ModuleName[];
  /** What the key may do (`crm:read`, `crm:write`, ...; empty for public operations). */
  scopes: readonly string[];
}

export interface AccessRequirement {
  /** Public operations need the tenant headers but no key. */
  isPublic?: boolean;
  /** The tariff module the operation belongs to; absent when checked later (GraphQL). */
  module?: ModuleName;
  /**
   * Whether the operation reads or writes the module (accessOf); with a module but without it,
   * the key needs write, the safe side.
   */
  access?: AccessKind;
}

/** Longer than any key tenant-info issues: not worth a NATS round trip. */
const MAX_KEY_LENGTH = 512;

export function bearerToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value ?? '');
  return match ? match[1] : null;
}

/** 403 naming the scope when the key's scopes do not allow `kind` on `module`. */
export function assertScope(scopes: readonly string[], module: ModuleName, kind: AccessKind): void {
  if (!allowsScope(scopes, module, kind)) {
    throw new AppException(ErrorCode.FORBIDDEN, 'errors.auth.scopeMissing', {
      scope: scopeOf(module, kind),
    });
  }
}

/** 401 saying when, for a key past its expiry: checked on every request, cached answer or not. */
function assertNotExpired(reply: VerifyApiKeyReply, now: number): void {
  if (reply.expiresAt && Date.parse(reply.expiresAt) <= now) {
    throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.expiredKey', {
      expiresAt: reply.expiresAt,
    });
  }
}

export function assertModule(modules: readonly ModuleName[], module: ModuleName): void {
  if (!modules.includes(module)) {
    throw new AppException(ErrorCode.FORBIDDEN, 'errors.auth.moduleNotInTariff', { module });
  }
}

/**
 * The checks every /v1/crm/** and /graphql call passes, in this order: required headers (400),
 * API key present (401), not expired (401), known and not revoked (401), of the tenant named in
 * the headers (403), tariff holds the module (403), the key's scopes allow the access (403).
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
      return { context: { ...context, callerId: null }, keyId: null, modules: [], scopes: [] };
    const key = bearerToken(headers.authorization);
    if (!key) throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.missingKey');
    if (key.length > MAX_KEY_LENGTH)
      throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.unknownKey');
    const reply = await this.verifier.verify(key);
    assertNotExpired(reply, Date.now());
    if (!reply.valid || !reply.keyId || !reply.tenantId) {
      throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.unknownKey');
    }
    if (reply.tenantId !== context.tenantId) {
      throw new AppException(ErrorCode.FORBIDDEN, 'errors.auth.foreignKey', {
        tenantId: context.tenantId,
      });
    }
    const modules = reply.modules ?? [];
    // No scopes: the answer of a tenant-info that predates them, whose keys could do everything.
    const scopes = reply.scopes ?? API_KEY_SCOPES;
    if (requirement.module) {
      assertModule(modules, requirement.module);
      assertScope(scopes, requirement.module, requirement.access ?? 'write');
    }
    return { context: { ...context, callerId: reply.keyId }, keyId: reply.keyId, modules, scopes };
  }
}
