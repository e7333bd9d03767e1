import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppException, ErrorCode } from '@crm/errors';
import { bearerToken } from '../auth/gateway-auth.service';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Constant-time comparison that does not reveal the token's length either (both sides are
 * hashed to 32 bytes first).
 */
export function sameToken(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The admin API takes the operator's ADMIN_TOKEN only; a tenant's API key is never accepted. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerToken(req.headers.authorization);
    if (!token || !sameToken(token, this.config.ADMIN_TOKEN)) {
      throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.adminTokenInvalid');
    }
    return true;
  }
}
