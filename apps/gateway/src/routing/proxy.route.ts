import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, sendErrorEnvelope } from '@crm/errors';
import { readRequestContext } from '@crm/request-context';
import { GatewayAuthService } from '../auth/gateway-auth.service';
import { GatewayConfig, serviceUrl } from '../config';
import { ProxyService, proxyTarget } from './proxy.service';
import { PublicRateLimiter } from './public-rate-limit';
import { resolveRestRoute, SERVICE_NAMES, ServiceName } from './services';
import { downstreamResponseHeaders } from './upstream-headers';

export interface ProxyRouteDeps {
  auth: GatewayAuthService;
  proxy: ProxyService;
  i18n: I18nService;
  config: GatewayConfig;
}

/**
 * Every /v1/crm/** call: checked here, then streamed to the service owning the first segment,
 * and the service's answer (status, headers, body) streamed back. A plain Fastify route rather
 * than a Nest controller: it is the gateway's hottest path and needs none of Nest's per-request
 * machinery, and its scope parses no body, so uploads and JSON reach the service untouched.
 */
export function registerProxyRoute(scope: FastifyInstance, deps: ProxyRouteDeps): void {
  const targets = new Map(
    SERVICE_NAMES.map((s: ServiceName) => [s, proxyTarget(s, serviceUrl(deps.config, s))]),
  );
  const publicLimiter = new PublicRateLimiter({
    perMinute: deps.config.PUBLIC_RATE_LIMIT_PER_MINUTE,
    burst: deps.config.PUBLIC_RATE_LIMIT_BURST,
    maxClients: 100_000,
  });
  scope.all('/v1/crm/*', async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      // Headers first (400), then the route (404), then the key and the tariff (401/403).
      const context = readRequestContext(req.headers);
      const route = resolveRestRoute(req.url);
      if (!route) {
        throw new AppException(ErrorCode.NOT_FOUND, 'errors.notFound.route', {
          method: req.method,
          path: req.url.split('?')[0],
        });
      }
      if (route.isPublic) {
        // No key to count by: the client address (req.ip honours TRUST_PROXY_HOPS).
        const decision = publicLimiter.take(req.ip);
        if (!decision.allowed) {
          void reply.header('Retry-After', String(decision.retryAfterSeconds));
          throw new AppException(ErrorCode.TOO_MANY_REQUESTS, 'errors.tooManyRequests');
        }
      }
      const caller = await deps.auth.authenticate(req.headers, route, context);
      const answer = await deps.proxy.forward(req.raw, reply.raw, targets.get(route.service)!, {
        callerId: caller.keyId,
        internalToken: deps.config.INTERNAL_TOKEN,
        clientAddress: req.socket.remoteAddress,
      });
      return reply
        .status(answer.statusCode)
        .headers(downstreamResponseHeaders(answer.headers))
        .send(answer.body);
    } catch (err) {
      // Unread body: let the client finish sending so it receives the answer.
      req.raw.resume();
      sendErrorEnvelope(deps.i18n, req, reply, err);
      return reply;
    }
  });
}
