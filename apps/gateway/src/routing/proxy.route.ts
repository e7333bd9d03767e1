import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, sendErrorEnvelope } from '@crm/errors';
import { readRequestContext } from '@crm/request-context';
import { GatewayAuthService } from '../auth/gateway-auth.service';
import { GatewayConfig, serviceUrl } from '../config';
import { ProxyService, ProxyTarget, proxyTarget } from './proxy.service';
import type { ServiceAnswer } from './service-call';
import { PublicRateLimiter } from './public-rate-limit';
import { resolveRestRoute, RestRoute, SERVICE_NAMES, ServiceName } from './services';
import { downstreamResponseHeaders } from './upstream-headers';

export interface ProxyRouteDeps {
  auth: GatewayAuthService;
  proxy: ProxyService;
  i18n: I18nService;
  config: GatewayConfig;
}

/**
 * One /v1/crm/** call: checked, then sent to the service owning the first segment. Shared by the
 * Fastify route below and the fast path (fast-proxy.ts), so both check in the same order.
 */
export class RestProxy {
  private readonly targets: Map<ServiceName, ProxyTarget>;
  private readonly publicLimiter: PublicRateLimiter;

  constructor(private readonly deps: ProxyRouteDeps) {
    this.targets = new Map(
      SERVICE_NAMES.map((s: ServiceName) => [s, proxyTarget(s, serviceUrl(deps.config, s))]),
    );
    this.publicLimiter = new PublicRateLimiter({
      perMinute: deps.config.PUBLIC_RATE_LIMIT_PER_MINUTE,
      burst: deps.config.PUBLIC_RATE_LIMIT_BURST,
      maxClients: 100_000,
    });
  }

  /**
   * Headers first (400), then the route (404), then, for public operations, the client's rate
   * (429, `clientIp` honours TRUST_PROXY_HOPS), then the key and the tariff (401/403); the
   * service's answer. `res` is the client's response (a client gone stops the service's work).
   * `resolved`: the route when the caller has resolved it already (the fast path).
   */
  async call(
    req: IncomingMessage,
    res: ServerResponse,
    clientIp: () => string,
    retryAfter: (seconds: number) => void,
    resolved?: RestRoute,
  ): Promise<ServiceAnswer> {
    const context = readRequestContext(req.headers);
    const url = req.url ?? '/';
    const route = resolved ?? resolveRestRoute(url);
    if (!route) {
      throw new AppException(ErrorCode.NOT_FOUND, 'errors.notFound.route', {
        method: req.method,
        path: url.split('?')[0],
      });
    }
    if (route.isPublic) {
      // No key to count by: the client address.
      const decision = this.publicLimiter.take(clientIp());
      if (!decision.allowed) {
        retryAfter(decision.retryAfterSeconds);
        throw new AppException(ErrorCode.TOO_MANY_REQUESTS, 'errors.tooManyRequests');
      }
    }
    const caller = await this.deps.auth.authenticate(req.headers, route, context);
    return this.deps.proxy.forward(req, res, this.targets.get(route.service)!, {
      callerId: caller.keyId,
      internalToken: this.deps.config.INTERNAL_TOKEN,
      clientAddress: req.socket.remoteAddress,
    });
  }
}

/**
 * Every /v1/crm/** call the fast path leaves to Fastify: checked, then streamed to the service,
 * and the service's answer (status, headers, body) streamed back. A plain Fastify route rather
 * than a Nest controller: it needs none of Nest's per-request machinery, and its scope parses no
 * body, so uploads and JSON reach the service untouched.
 */
export function registerProxyRoute(scope: FastifyInstance, proxy: RestProxy, i18n: I18nService) {
  scope.all('/v1/crm/*', async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      const answer = await proxy.call(
        req.raw,
        reply.raw,
        () => req.ip,
        (seconds) => void reply.header('Retry-After', String(seconds)),
      );
      return reply
        .status(answer.statusCode)
        .headers(downstreamResponseHeaders(answer.headers))
        .send(answer.body);
    } catch (err) {
      // Unread body: let the client finish sending so it receives the answer.
      req.raw.resume();
      sendErrorEnvelope(i18n, req, reply, err);
      return reply;
    }
  });
}
