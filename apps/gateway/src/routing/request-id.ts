import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { acceptableRequestId, REQUEST_ID_HEADER } from '@crm/logging';

/**
 * The call's X-Request-Id: the client's when it sent a sane one, a new UUID otherwise. Written
 * into the request's headers, so it is passed to the services; the caller returns it with the
 * answer, so logs on both sides match.
 */
export function takeRequestId(headers: IncomingHttpHeaders): string {
  const sent = headers['x-request-id'];
  const id = acceptableRequestId(sent) ? sent : randomUUID();
  headers['x-request-id'] = id;
  return id;
}

/**
 * Every call gets an X-Request-Id (takeRequestId). A Fastify onRequest hook for the gateway's own
 * routes; the REST proxy (rest-proxy.ts) answers before Fastify and calls takeRequestId itself.
 */
export function assignRequestId(
  req: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  reply.header(REQUEST_ID_HEADER, takeRequestId(req.headers));
  done();
}
