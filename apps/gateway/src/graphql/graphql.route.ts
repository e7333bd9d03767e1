import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Caller, GatewayAuthService } from '../auth/gateway-auth.service';
import { rateLimited, rateLimitHeaders } from '../routing/rate-limit/rate-limit-headers';
import type { RateLimits } from '../routing/rate-limit/rate-limits.service';
import { SupergraphService } from './supergraph.service';

/** Largest GraphQL request body accepted. */
const BODY_LIMIT = 1024 * 1024;

const callers = new WeakMap<FastifyRequest, Caller>();

/**
 * POST /graphql: the same header and key checks and the same rate limit per key as REST, then
 * the supergraph. Registered in a
 * scope of its own: the caller is authenticated before the body is read (an unknown caller's
 * body is never parsed), and the scope's error handler answers every early error (headers, key,
 * bad JSON, too large) GraphQL-shaped rather than with the REST envelope.
 */
export function registerGraphqlRoute(
  scope: FastifyInstance,
  deps: { auth: GatewayAuthService; supergraph: SupergraphService; rateLimits: RateLimits },
): void {
  scope.setErrorHandler((err, req, reply) => deps.supergraph.reject(req, reply, err));
  // The tariff is checked per subgraph when the query plan reaches it. The key's rate limit is
  // the one of its REST calls (one count for both).
  scope.addHook('onRequest', async (req, reply) => {
    const caller = await deps.auth.authenticate(req.headers);
    if (caller.keyId !== null) {
      const decision = deps.rateLimits.takeKey(caller.keyId);
      void reply.headers(rateLimitHeaders(decision));
      if (!decision.allowed) throw rateLimited(decision);
    }
    callers.set(req, caller);
  });
  scope.post('/graphql', { bodyLimit: BODY_LIMIT }, (req: FastifyRequest, reply: FastifyReply) =>
    deps.supergraph.execute(req, reply, { caller: callers.get(req)!, headers: req.headers }),
  );
}
