import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { annotateSpan } from '@crm/telemetry';
import type { AppLogging } from './app-logger';
import { fieldsFromHeaders, type RequestFields, runInRequest } from './request-context';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The request's fields from its headers; `fallbackId` when it brought no usable X-Request-Id. */
export function requestFields(headers: IncomingHttpHeaders, fallbackId: string): RequestFields {
  const fields = fieldsFromHeaders(
    {
      requestId: first(headers['x-request-id']),
      tenant: first(headers['x-service-tenantid']),
      traceparent: first(headers.traceparent),
    },
    fallbackId,
  );
  // With tracing on, the request's span gets them as attributes (the trace id it has)
  annotateSpan(() => ({
    'crm.request_id': fields.requestId,
    ...(fields.tenant ? { 'crm.tenant': fields.tenant } : {}),
  }));
  return fields;
}

export interface RequestOutcome {
  method: string;
  /** The route's template (`/v1/crm/people/:id`), never the raw path with its ids. */
  route: string;
  status: number;
  durationMs: number;
}

/** Probes and scrapes come every few seconds: they are logged at debug, not info. */
const QUIET_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);

/**
 * A dependency that is down or slow (502, 503, 504: the service, NATS or the database) is a
 * warning: OutageLog reports the outage itself once, and an operator's error alerts are kept for
 * what the app got wrong (a 500).
 */
const REFUSED = new Set([502, 503, 504]);

/** The level of a finished request's line: error for a 500, warn for a refusal, debug for probes. */
function requestLevel(outcome: RequestOutcome): 'error' | 'warn' | 'info' | 'debug' {
  if (outcome.status >= 500) return REFUSED.has(outcome.status) ? 'warn' : 'error';
  return QUIET_ROUTES.has(outcome.route) ? 'debug' : 'info';
}

/**
 * The one line a finished request writes, with the request's fields (nothing is built when its
 * level is off).
 */
export function logRequest(log: Logger, outcome: RequestOutcome, fields?: RequestFields): void {
  const level = requestLevel(outcome);
  if (!log.isLevelEnabled(level)) return;
  const durationMs = Math.round(outcome.durationMs * 10) / 10;
  const message = outcome.status >= 500 ? 'request failed' : 'request';
  if (!fields) {
    log[level]({ ...outcome, durationMs }, message);
    return;
  }
  // The fields here, not by the logger's mixin (which leaves a line with both keys alone), in
  // one literal of one shape: the mixin's copy merged with a spread line was a third of a line's
  // cost. (pino leaves out what is undefined.)
  const line: RequestFields & RequestOutcome = {
    requestId: fields.requestId,
    tenant: fields.tenant,
    traceId: fields.traceId,
    method: outcome.method,
    route: outcome.route,
    status: outcome.status,
    durationMs,
  };
  log[level](line, message);
}

/**
 * Where a request keeps its fields from onRequest to onResponse: a property Fastify declares on
 * every request (decorateRequest), not a WeakMap, whose entry per request the garbage collector
 * has to trace apart (measured on the health route).
 */
const FIELDS = 'crmRequestFields';
type WithFields = FastifyRequest & { [FIELDS]: RequestFields | null };

/**
 * Every request through Fastify: its fields on each line logged while it is handled (Nest's
 * loggers included: the app logger's mixin reads them), and one line when it is answered.
 */
export function requestLogging(
  fastify: FastifyInstance,
  logging: AppLogging,
  /** Also told of each answered request (the app's metrics). */
  observe?: (outcome: RequestOutcome) => void,
): void {
  fastify.decorateRequest(FIELDS, null);
  fastify.addHook('onRequest', (req, _reply, done) => {
    const fields = requestFields(req.headers, req.id);
    (req as WithFields)[FIELDS] = fields;
    runInRequest(fields, done);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const outcome = {
      method: req.method,
      route: req.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
    };
    logRequest(logging.log, outcome, (req as WithFields)[FIELDS] ?? undefined);
    observe?.(outcome);
    done();
  });
}
