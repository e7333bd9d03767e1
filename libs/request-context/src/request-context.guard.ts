import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { FastifyRequest } from 'fastify';
import { readRequestContext, RequestContext } from './request-context';

const NO_CONTEXT = 'crm:no-request-context';
/** Health, docs and OpenAPI routes: served without the tenant headers. */
export const WithoutRequestContext = () => SetMetadata(NO_CONTEXT, true);

type RequestWithContext = FastifyRequest & { crmContext?: RequestContext };

function requestOf(ctx: ExecutionContext): RequestWithContext | undefined {
  if (ctx.getType<string>() === 'graphql') {
    return GqlExecutionContext.create(ctx).getContext<{ req?: RequestWithContext }>().req;
  }
  if (ctx.getType() === 'http') return ctx.switchToHttp().getRequest<RequestWithContext>();
  return undefined;
}

/**
 * Global guard: checks the required headers on REST and GraphQL calls and keeps the context. The
 * internal token is checked before routing, for every route but /health, by the service's HTTP
 * server (@crm/service-kit requireInternalToken): GraphQL's `_entities` runs no guard.
 */
@Injectable()
export class RequestContextGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(NO_CONTEXT, [ctx.getHandler(), ctx.getClass()]))
      return true;
    const req = requestOf(ctx);
    if (!req) return true; // NATS messages carry their tenant in the payload
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
