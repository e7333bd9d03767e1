import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Caller, GatewayAuthService } from '../auth/gateway-auth.service';
import { SupergraphService } from './supergraph.service';

/** Largest GraphQL request body accepted. */
const BODY_LIMIT = 1024 * 1024;

const callers = new WeakMap<FastifyRequest, Caller>();

/**
 * POST /graphql: the same header and key checks as REST, then the supergraph. Registered in a
 * scope of its own: the caller is authenticated before the body is read (an unknown caller's
 * body is never parsed), and the scope's error handler answers every early error (headers, key,
 * bad JSON, too large) GraphQL-shaped rather than with the REST envelope.
 */
export function registerGraphqlRoute(
  scope: FastifyInstance,
  deps: { auth: GatewayAuthService; supergraph: SupergraphService },
): void {
  scope.setErrorHandler((err, req, reply) => deps.supergraph.reject(req, reply, err));
  // The tariff is checked per subgraph when the query plan reaches it.
  scope.addHook('onRequest', async (req) => {
    callers.set(req, await deps.auth.authenticate(req.headers));
  });
  scope.post('/graphql', { bodyLimit: BODY_LIMIT }, (req: FastifyRequest, reply: FastifyReply) =>
    deps.supergraph.execute(req, reply, { caller: callers.get(req)!, headers: req.headers }),
  );
}
