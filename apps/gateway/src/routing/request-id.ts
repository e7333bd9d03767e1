import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const ACCEPTABLE = /^[\w.:@/+=-]{1,128}$/;

/**
 * Every call gets an X-Request-Id: the client's when it sent a sane one, a new UUID otherwise.
 * It is passed to the services and returned with the answer, so logs on both sides match.
 * (A Fastify onRequest hook: it runs before routing, for Nest's routes and the raw ones alike.)
 */
export function assignRequestId(
  req: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && ACCEPTABLE.test(sent) ? sent : randomUUID();
  req.headers['x-request-id'] = id;
  reply.header(REQUEST_ID_HEADER, id);
  done();
}
