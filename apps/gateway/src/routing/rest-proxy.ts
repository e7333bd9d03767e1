import proxyAddr from '@fastify/proxy-addr';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { FastifyServerFactory, FastifyServerOptions } from 'fastify';
import type { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, sendRawErrorEnvelope } from '@crm/errors';
import {
  type AppLogging,
  logRequest,
  REQUEST_ID_HEADER,
  type RequestOutcome,
  requestFields,
  runInRequest,
} from '@crm/logging';
import { readRequestContext } from '@crm/request-context';
import { accessOf } from '../auth/access-kind';
import type { GatewayAuthService } from '../auth/gateway-auth.service';
import { type GatewayConfig, serviceUrl } from '../config';
import { idempotencyKeyOf, type IdempotentCalls, KEPT_ANSWER_BYTES } from './idempotent-calls';
import { rateLimited, rateLimitHeaders } from './rate-limit/rate-limit-headers';
import type { RateDecision } from './rate-limit/rate-limiter';
import type { RateLimits } from './rate-limit/rate-limits.service';
import { takeRequestId } from './request-id';
import type { ServiceAnswer } from './service-call';
import { type ServiceForwarder, type ServiceTarget, serviceTarget } from './service-forwarder';
import { resolveRestRoute, type RestRoute, SERVICE_NAMES, type ServiceName } from './services';
import { downstreamResponseHeaders } from './upstream-headers';

/** Answers a request itself (true) or leaves it to Fastify (false). */
export type RequestTaker = (req: IncomingMessage, res: ServerResponse) => boolean;

const REST_PREFIX = '/v1/crm/';
/** The gateway's own path under the prefix (the merged OpenAPI document): a Nest route. */
const OWN_PATHS = new Set(['/v1/crm/openapi.json']);
/** What the services serve (TRACE and QUERY go to Fastify, which answers 404). */
const PROXIED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Whether a call is the REST proxy's: under /v1/crm/ (spelled as the services spell it), not the
 * gateway's own document. Percent-escapes, long URLs and bodies pass through as they came: the
 * services' routers refuse what they cannot decode, with the same envelope.
 */
export function isProxied(req: IncomingMessage): boolean {
  const url = req.url;
  if (!url?.startsWith(REST_PREFIX) || !PROXIED_METHODS.has(req.method ?? '')) return false;
  const query = url.indexOf('?');
  return !OWN_PATHS.has(query < 0 ? url : url.slice(0, query));
}

/**
 * The client's address: the socket's peer, or the address `hops` trusted proxies back in
 * X-Forwarded-For (TRUST_PROXY_HOPS, as Fastify's trustProxy reads it). The public rate limit
 * counts by it.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  if (hops <= 0) return req.socket.remoteAddress ?? '';
  const addresses = proxyAddr.all(req, (_address, i) => i < hops);
  return addresses[addresses.length - 1] ?? '';
}

/** The service's answer: its status and headers (less hop-by-hop ones), the body framed anew. */
function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: ServiceAnswer): void {
  const headers = downstreamResponseHeaders(answer.headers);
  for (const name in headers) res.setHeader(name, headers[name]!);
  const status = answer.statusCode;
  res.statusCode = status;
  const body = answer.body;
  if ((status >= 100 && status < 200) || status === 204) {
    // no body: no content type or length either (RFC 9110 8.6)
    res.removeHeader('content-type');
    res.removeHeader('content-length');
  }
  if ((status >= 100 && status < 200) || status === 204 || req.method === 'HEAD') {
    // a HEAD answer keeps the length the service gave for its GET
    res.end();
    if (!Buffer.isBuffer(body)) body.resume();
    return;
  }
  if (Buffer.isBuffer(body)) {
    if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/octet-stream');
    res.setHeader('content-length', body.length);
    res.end(body);
    return;
  }
  // A service breaking off mid-stream, or the client leaving, ends both sides.
  pipeline(body, res, () => undefined);
}

export interface RestProxyDeps {
  auth: GatewayAuthService;
  forwarder: ServiceForwarder;
  /** POSTs with an Idempotency-Key. */
  idempotency: IdempotentCalls;
  /** Requests per API key and per public client, shared by the replicas. */
  rateLimits: RateLimits;
  i18n: I18nService;
  config: GatewayConfig;
  logging: AppLogging;
  /** Told of each answered call (the app's metrics). */
  observe: (outcome: RequestOutcome) => void;
  /** True once the app closes: then every call is Fastify's, which answers 503. */
  closing: () => boolean;
}

/**
 * Every /v1/crm/** call, whatever its method: checked, sent to the service owning the first
 * segment, and the service's answer (status, headers, body) streamed back. It runs on node:http
 * before Fastify (serverWithRestProxy): Fastify's routing, hooks and reply were about a fifth of
 * the gateway's CPU per proxied call in its profile, and a second route for the calls it did not
 * take had to be kept answering alike. Fastify serves the gateway's own routes (GraphQL, admin,
 * health, docs, metrics).
 */
export class RestProxy {
  private readonly targets: Map<ServiceName, ServiceTarget>;

  constructor(private readonly deps: RestProxyDeps) {
    this.targets = new Map(
      SERVICE_NAMES.map((s: ServiceName) => [s, serviceTarget(s, serviceUrl(deps.config, s))]),
    );
  }

  /**
   * Takes a proxied call (isProxied) and answers it: the request id, the request's fields on
   * every line logged meanwhile, one line and one metrics observation when it is answered, and
   * an error (a refused call, or an answer that could not be written) as the translated
   * envelope, never a rejection left unhandled.
   */
  readonly take: RequestTaker = (req, res) => {
    if (this.deps.closing() || !isProxied(req)) return false;
    const started = performance.now();
    const requestId = takeRequestId(req.headers);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const route = resolveRestRoute(req.url!);
    const answer = () =>
      this.checkAndForward(req, res, route)
        .then((reply) => writeAnswer(req, res, reply))
        .catch((err: unknown) => {
          // Unread body: let the client finish sending so it receives the answer.
          req.resume();
          sendRawErrorEnvelope(this.deps.i18n, req, res, err);
        });
    if (this.deps.config.REQUEST_OBSERVATION === 'off') {
      void answer();
      return true;
    }
    const fields = requestFields(req.headers, requestId);
    runInRequest(fields, () => {
      res.once('close', () => {
        const outcome = {
          method: req.method!,
          route: route ? `/v1/crm/${route.segment}/*` : '/v1/crm/*',
          status: res.statusCode,
          durationMs: performance.now() - started,
        };
        logRequest(this.deps.logging.log, outcome, fields);
        this.deps.observe(outcome);
      });
      void answer();
    });
    return true;
  };

  /**
   * Headers first (400), then the route (404), then, for public operations, the client's rate
   * (429 with Retry-After), then the key and the tariff (401/403), then the key's rate (429); the
   * service's answer, or a POST's with the same Idempotency-Key kept earlier. A call counted by a
   * rate limit carries its RateLimit headers, whatever the answer. `res` is the client's response (a client
   * gone stops the service's work).
   */
  private async checkAndForward(
    req: IncomingMessage,
    res: ServerResponse,
    route: RestRoute | null,
  ): Promise<ServiceAnswer> {
    const context = readRequestContext(req.headers);
    if (!route) {
      throw new AppException(ErrorCode.NOT_FOUND, 'errors.notFound.route', {
        method: req.method,
        path: req.url!.split('?')[0],
      });
    }
    if (route.isPublic) {
      // No key to count by: the client address.
      limit(
        res,
        this.deps.rateLimits.takePublic(clientAddress(req, this.deps.config.TRUST_PROXY_HOPS)),
      );
    }
    const caller = await this.deps.auth.authenticate(
      req.headers,
      { ...route, access: accessOf(req.method, req.url!) },
      context,
    );
    if (caller.keyId !== null) limit(res, this.deps.rateLimits.takeKey(caller.keyId));
    const target = this.targets.get(route.service)!;
    const identity = {
      callerId: caller.keyId,
      internalToken: this.deps.config.INTERNAL_TOKEN,
      clientAddress: req.socket.remoteAddress,
    };
    const key = idempotencyKeyOf(req, route);
    if (key === null) return this.deps.forwarder.forward(req, res, target, identity);
    return this.deps.idempotency.run(req, res, caller.context.tenantId, key, (body, fingerprint) =>
      this.deps.forwarder.forward(
        req,
        res,
        target,
        { ...identity, idempotencyFingerprint: fingerprint },
        {
          body,
          bufferUpTo: KEPT_ANSWER_BYTES,
        },
      ),
    );
  }
}

/** The decision's RateLimit headers on the answer; a refusal is the 429. */
function limit(res: ServerResponse, decision: RateDecision): void {
  const headers = rateLimitHeaders(decision);
  for (const name in headers) res.setHeader(name, headers[name]);
  if (!decision.allowed) throw rateLimited(decision);
}

/**
 * A server factory for Fastify that offers every request to `proxy.take` first (set once the app
 * exists) and gives it to Fastify otherwise; the server gets the timeouts Fastify gives its own
 * (keep-alive, request and connection timeouts, requests per socket).
 */
export function serverWithRestProxy(proxy: { take?: RequestTaker }): FastifyServerFactory {
  return (fastifyHandler, opts) => {
    const options = opts as FastifyServerOptions & { http?: http.ServerOptions };
    const server = http.createServer(options.http ?? {}, (req, res) => {
      if (!proxy.take?.(req, res)) fastifyHandler(req, res);
    });
    if (options.keepAliveTimeout) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
