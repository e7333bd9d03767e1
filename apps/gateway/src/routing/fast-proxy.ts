import proxyAddr from '@fastify/proxy-addr';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { FastifyServerFactory, FastifyServerOptions } from 'fastify';
import { I18nService } from 'nestjs-i18n';
import { sendRawErrorEnvelope } from '@crm/errors';
import {
  type AppLogging,
  logRequest,
  type RequestOutcome,
  requestFields,
  runInRequest,
} from '@crm/logging';
import type { RestProxy } from './proxy.route';
import type { ServiceAnswer } from './service-call';
import { REQUEST_ID_HEADER, takeRequestId } from './request-id';
import { resolveRestRoute, RestRoute } from './services';
import { downstreamResponseHeaders } from './upstream-headers';

/** Answers a request itself (true) or leaves it to Fastify (false). */
export type FastHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Longer URLs go to Fastify, whose router limits path parameters (maxParamLength). */
const MAX_FAST_URL = 1000;

/**
 * The route of a call that can skip Fastify, else null: a GET without a body under /v1/crm/ with
 * nothing in the URL Fastify would look at twice. Percent-encoding (a NUL as %00, malformed
 * escapes), HEAD, bodies, other spellings of the prefix, unknown segments and long URLs all take
 * the Fastify route, which answers them as before.
 */
export function fastRoute(req: IncomingMessage): RestRoute | null {
  const url = req.url;
  if (req.method !== 'GET' || !url || url.length > MAX_FAST_URL) return null;
  if (!url.startsWith('/v1/crm/') || url.includes('%')) return null;
  const length = req.headers['content-length'];
  if ((length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined)
    return null;
  return resolveRestRoute(url);
}

/**
 * The client's address as Fastify's req.ip gives it with `trustProxy: hops`: the socket's peer,
 * or the address `hops` proxies back in X-Forwarded-For (the public rate limit counts by it).
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  if (hops <= 0) return req.socket.remoteAddress ?? '';
  const addresses = proxyAddr.all(req, (_address, i) => i < hops);
  return addresses[addresses.length - 1] ?? '';
}

/** The service's answer written as Fastify's reply.send writes it (headers, length, body). */
function sendAnswer(res: ServerResponse, answer: ServiceAnswer): void {
  const headers = downstreamResponseHeaders(answer.headers);
  for (const name in headers) res.setHeader(name, headers[name]!);
  const status = answer.statusCode;
  res.statusCode = status;
  const body = answer.body;
  if ((status >= 100 && status < 200) || status === 204) {
    // no body: no content type or length either (RFC 9110 8.6)
    res.removeHeader('content-type');
    res.removeHeader('content-length');
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

/**
 * The gateway's hottest path without Fastify: a GET under /v1/crm/ (reads are most of an
 * integration's calls, and all of a visitor's). Fastify's routing, hooks and reply were about a
 * fifth of the gateway's CPU per proxied read in its profile. This path runs the same RestProxy
 * checks and sends the same answer; it hands everything it does not take (fastRoute), and any
 * call once the app is closing (so Fastify answers 503), to Fastify.
 */
export function fastProxyHandler(
  proxy: RestProxy,
  i18n: I18nService,
  closing: () => boolean,
  trustProxyHops: number,
  logging: AppLogging,
  observe: (outcome: RequestOutcome) => void,
): FastHandler {
  return (req, res) => {
    const route = closing() ? null : fastRoute(req);
    if (!route) return false;
    const started = performance.now();
    const requestId = takeRequestId(req.headers);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    // the request's fields on every line logged meanwhile, and its one line at the end, as
    // requestLogging does for the calls Fastify routes
    const fields = requestFields(req.headers, requestId);
    runInRequest(fields, () => {
      res.once('close', () => {
        const outcome = {
          method: 'GET',
          route: `/v1/crm/${route.segment}/*`,
          status: res.statusCode,
          durationMs: performance.now() - started,
        };
        logRequest(logging.log, outcome, fields);
        observe(outcome);
      });
      proxy
        .call(
          req,
          res,
          () => clientAddress(req, trustProxyHops),
          (seconds) => res.setHeader('Retry-After', String(seconds)),
          route,
        )
        .then((answer) => sendAnswer(res, answer))
        // a refused call, or an answer that could not be written (a 500 then, never a
        // rejection left unhandled, which would end the process)
        .catch((err: unknown) => sendRawErrorEnvelope(i18n, req, res, err));
    });
    return true;
  };
}

/**
 * A server factory for Fastify that offers every request to `fast.handler` first (set once the
 * app exists) and gives it to Fastify otherwise; the server gets the timeouts Fastify gives its
 * own (keep-alive, request and connection timeouts, requests per socket).
 */
export function serverWithFastPath(fast: { handler?: FastHandler }): FastifyServerFactory {
  return (fastifyHandler, opts) => {
    const options = opts as FastifyServerOptions & { http?: http.ServerOptions };
    const server = http.createServer(options.http ?? {}, (req, res) => {
      if (!fast.handler?.(req, res)) fastifyHandler(req, res);
    });
    if (options.keepAliveTimeout) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
