import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import type { ServerResponse } from 'node:http';
import { replyBody } from '@crm/envelope';

/**
 * Fastify for every service and the gateway: Nest on Express answered a health probe at about a
 * tenth of a bare node:http server on the same machine, Nest on Fastify at most of it. Handler
 * results are put into the envelope here, where Nest sends them, instead of in a global
 * interceptor (see replyBody).
 */
export class CrmHttpAdapter extends FastifyAdapter {
  private parsersRegistered = false;

  constructor(options?: FastifyServerOptions) {
    super(options);
  }

  /** Nest's hook for the body parsers, called at init: JSON only (no route here takes forms). */
  override registerParserMiddleware(): void {
    if (this.parsersRegistered) return;
    acceptEmptyJsonBodies(this.getInstance() as unknown as FastifyInstance);
    this.parsersRegistered = true;
  }

  override reply(response: FastifyReply | ServerResponse, body: unknown, statusCode?: number) {
    // Nest hands its handlers' results over with the Fastify reply, never the raw response.
    const reply = response as FastifyReply;
    // A handler that answered 304 itself (`@Res({ passthrough: true })`) sends no body.
    if (body === undefined && reply.statusCode === 304) return reply.send();
    const status = statusCode ?? reply.statusCode;
    return super.reply(response, replyBody(reply, body, status), status);
  }
}

/**
 * Clients send `Content-Type: application/json` on every call, DELETE and GET included, with no
 * body: that is no body, not bad JSON (Fastify's own parser refuses it). Everything else goes to
 * Fastify's parser, which also refuses `__proto__` and `constructor.prototype` keys.
 */
function acceptEmptyJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body === '' ? done(null, undefined) : parse(req, body as string, done),
  );
}
