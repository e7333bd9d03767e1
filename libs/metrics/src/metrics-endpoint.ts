import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { INTERNAL_TOKEN_HEADER, internalTokenMatches } from '@crm/request-context';
import type { AppMetrics } from './app-metrics';

export const METRICS_PATH = '/metrics';

/**
 * GET /metrics on the app's own port. Who may read it is the port's business: a service's port
 * answers only calls with the internal token (requireInternalToken), the gateway's checks it here
 * (`allow`), and a refused scrape is a 404 so the public port does not advertise it.
 */
export function serveMetrics(
  fastify: FastifyInstance,
  metrics: AppMetrics,
  allow: (headers: http.IncomingHttpHeaders) => boolean = () => true,
): void {
  fastify.get(METRICS_PATH, async (req, reply) => {
    if (!allow(req.headers)) return reply.code(404).send({ statusCode: 404, message: 'Not Found' });
    const text = await metrics.text(scrapeTimeoutSeconds(req.headers));
    return reply.type(metrics.contentType).send(text);
  });
}

/**
 * METRICS_PORT: /metrics on a port of its own, without any token (for a Prometheus that reaches
 * pods directly; the port is not in any Service or published by compose). Closed with the app.
 */
export async function startMetricsServer(
  metrics: AppMetrics,
  port: number,
  host: string,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.text(scrapeTimeoutSeconds(req.headers)).then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/**
 * Whether a scrape carries the internal token: in X-Internal-Token, or as `Authorization: Bearer`
 * (what Prometheus sends from a credentials file; it cannot send other headers). Without a
 * configured token (development) every scrape is allowed, as every other call is.
 */
export function scrapeAllowed(headers: http.IncomingHttpHeaders, token: string | undefined) {
  if (!token) return true;
  if (internalTokenMatches(headers[INTERNAL_TOKEN_HEADER.toLowerCase()], token)) return true;
  const auth = headers.authorization;
  return typeof auth === 'string' && /^Bearer /i.test(auth)
    ? internalTokenMatches(auth.slice(7).trim(), token)
    : false;
}

/** How long the scraper waits for this answer, when it says so (Prometheus does), in seconds. */
export function scrapeTimeoutSeconds(headers: http.IncomingHttpHeaders): number | undefined {
  const value = Number(headers['x-prometheus-scrape-timeout-seconds']);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
