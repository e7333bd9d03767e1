import type { FastifyInstance } from 'fastify';
import type { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, sendErrorEnvelope } from '@crm/errors';
import { INTERNAL_TOKEN_HEADER, internalTokenMatches } from '@crm/request-context';
import { METRICS_PATH, scrapeAllowed } from '@crm/metrics';

/** The probes Kubernetes and the launcher call without any header. */
const HEALTH_PATH = /^\/health\/(live|ready)\/?$/i;

const HEADER = INTERNAL_TOKEN_HEADER.toLowerCase();

/**
 * Serves only calls carrying `token` in X-Internal-Token (the gateway adds it): REST, GraphQL
 * (`_entities` too, which runs no Nest guard), the OpenAPI document, uploads before their body is
 * read; /metrics also with the token as a bearer credential. /health/live and /health/ready stay open. Anything else answers 401 in the envelope.
 */
export function requireInternalToken(fastify: FastifyInstance, token: string, i18n: I18nService) {
  fastify.addHook('onRequest', (req, reply, done) => {
    const path = req.url.split('?', 1)[0];
    if (HEALTH_PATH.test(path) || internalTokenMatches(req.headers[HEADER], token)) return done();
    // Prometheus sends the token as a bearer credential (scrapeAllowed)
    if (path === METRICS_PATH && scrapeAllowed(req.headers, token)) return done();
    sendErrorEnvelope(
      i18n,
      req,
      reply,
      new AppException(ErrorCode.UNAUTHENTICATED, 'errors.auth.internalTokenInvalid'),
    );
  });
}
