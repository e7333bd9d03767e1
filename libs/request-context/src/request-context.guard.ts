import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  Optional,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppException, ErrorCode } from '@crm/errors';
import { INTERNAL_TOKEN_HEADER } from './headers';
import { readRequestContext, RequestContext } from './request-context';

const NO_CONTEXT = 'crm:no-request-context';
/** Health, docs and OpenAPI routes: served without the tenant headers. */
export const WithoutRequestContext = () => SetMetadata(NO_CONTEXT, true);

export const REQUEST_CONTEXT_OPTIONS = Symbol('REQUEST_CONTEXT_OPTIONS');
export interface RequestContextOptions {
  /** When set, calls must carry it in X-Internal-Token (the gateway adds it). */
  internalToken?: string;
}

type RequestWithContext = FastifyRequest & { crmContext?: RequestContext };

function requestOf(ctx: ExecutionContext): RequestWithContext | undefined {
  if (ctx.getType<string>() === 'graphql') {
    return GqlExecutionContext.create(ctx).getContext<{ req?: RequestWithContext }>().req;
  }
  if (ctx.getType() === 'http') return ctx.switchToHttp().getRequest<RequestWithContext>();
  return undefined;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Global guard: checks the required headers on REST and GraphQL calls and keeps the context. */
@Injectable()
export class RequestContextGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Optional() @Inject(REQUEST_CONTEXT_OPTIONS) private readonly options?: RequestContextOptions,
  ) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(NO_CONTEXT, [ctx.getHandler(), ctx.getClass()]))
      return true;
    const req = requestOf(ctx);
    if (!req) return true; // NATS messages carry their tenant in the payload
    const expected = this.options?.internalToken;
    if (expected) {
      const got = req.headers[INTERNAL_TOKEN_HEADER.toLowerCase()];
      if (typeof got !== 'string' || !sameSecret(got, expected)) {
        throw new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.internalTokenInvalid');
      }
    }
    req.crmContext ??= readRequestContext(req.headers);
    return true;
  }
}

/** The caller's RequestContext, in a controller or resolver parameter. */
export const Ctx = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestContext => {
  const req = requestOf(ctx);
  if (!req) throw new Error('Ctx() is only available in HTTP and GraphQL handlers');
  return (req.crmContext ??= readRequestContext(req.headers));
});
