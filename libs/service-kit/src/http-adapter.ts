import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ServerResponse } from 'node:http';
import { replyBody } from '@crm/envelope';
import { AppException } from '@crm/errors';

/** Answers an error with the app's envelope (sendErrorEnvelope of @crm/errors with its i18n). */
export type ErrorReplier = (err: Error, req: FastifyRequest, reply: FastifyReply) => void;

/**
 * Fastify for every service and the gateway: Nest on Express answered a health probe at about a
 * tenth of a bare node:http server on the same machine, Nest on Fastify at most of it. Handler
 * results are put into the envelope here, where Nest sends them, instead of in a global
 * interceptor (see replyBody).
 */
export class CrmHttpAdapter extends FastifyAdapter {
  private parsersRegistered = false;
  private readonly frameworkErrors: { replier?: ErrorReplier };

  constructor(options?: FastifyServerOptions) {
    // Fastify's router answers a malformed percent-encoding or an over-long path parameter itself,
    // before any route or error handler, with a body of its own (not the envelope, English only).
    // frameworkErrors hands those to the app's replier (useErrorReplier) once the app exists.
    const frameworkErrors: { replier?: ErrorReplier } = {};
    super({
      ...options,
      frameworkErrors: (err: Error, req: FastifyRequest, reply: FastifyReply) => {
        if (frameworkErrors.replier) return frameworkErrors.replier(err, req, reply);
        void reply.status(400).send({ statusCode: 400, message: err.message });
      },
    });
    this.frameworkErrors = frameworkErrors;
    refuseNulCharacters(this.getInstance() as unknown as FastifyInstance);
  }

  /** How errors raised before routing are answered (the app's translated error envelope). */
  useErrorReplier(replier: ErrorReplier): void {
    this.frameworkErrors.replier = replier;
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
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') return done(null, undefined);
    parse(req, body as string, (err, value) => {
      if (err) return done(err);
      // Refused before any transformation: class-transformer recurses once per level and a
      // body of 2,000 nested arrays (8 KB) overflowed its stack (a 500).
      if (deeperThan(value, MAX_JSON_DEPTH)) {
        return done(AppException.invalidField('body', 'maxDepth', { max: MAX_JSON_DEPTH }));
      }
      // class-transformer and class-validator handle every element before a DTO's ArrayMaxSize
      // refuses the list: 100,000 tags in a person cost crm-people 2.4 s of CPU for one 400.
      const long = longListAt(value, MAX_JSON_ITEMS);
      if (long !== undefined) {
        return done(
          AppException.invalidField(long, 'arrayMaxSize', { constraint1: MAX_JSON_ITEMS }),
        );
      }
      const nul = nulCharacterAt(value);
      if (nul !== undefined) return done(AppException.invalidField(nul, 'noNulCharacter'));
      // JSON may escape half a surrogate pair ("\ud800"); a jsonb column refuses it (a 500 at
      // ET3), a text column silently stores U+FFFD: refused like NUL, naming the field
      const lone = loneSurrogateAt(value);
      if (lone !== undefined) return done(AppException.invalidField(lone, 'wellFormedText'));
      done(null, value);
    });
  });
}

/** Deeper than any body of this API needs (a batch item's nested lists are about 5 levels). */
export const MAX_JSON_DEPTH = 32;

/** Longer than any list this API takes (batches and the longest DTO lists hold 1,000). */
export const MAX_JSON_ITEMS = 1000;

/**
 * Where the first list longer than `max` is in `value`, as a field path (`body` for a whole body
 * that is one, `orgaTags`, `items[3].emails`), or undefined. Iterative, like deeperThan.
 */
export function longListAt(value: unknown, max: number): string | undefined {
  const join = (at: string, key: string) => (at ? `${at}.${key}` : key);
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (Array.isArray(v)) {
      if (v.length > max) return at || 'body';
      v.forEach((item, i) => {
        if (item !== null && typeof item === 'object') stack.push([item, `${at}[${i}]`]);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (item !== null && typeof item === 'object') stack.push([item, join(at, key)]);
      }
    }
  }
  return undefined;
}

/** Whether `value` nests arrays or objects more than `max` levels deep (iterative: no recursion). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * PostgreSQL cannot store U+0000 in text: a NUL in any text sent (`q=%00`, a note, a key) reached
 * the database and answered 500. Refused at the edge with 400 naming the field: JSON bodies in
 * the parser above, query and path parameters here, before validation and any handler.
 */
function refuseNulCharacters(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', (req, _reply, done) => {
    for (const source of [req.params, req.query]) {
      if (!source || typeof source !== 'object') continue;
      for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
        const at = name.includes('\u0000') ? 'query' : nulCharacterAt(value, name);
        if (at !== undefined) return done(AppException.invalidField(at, 'noNulCharacter'));
      }
    }
    done();
  });
}

/**
 * Where the first text holding U+0000 is in `value` (a string, or a key or string inside
 * arrays and objects), as a field path (`notes`, `tags[2].text`), or undefined. `root` names
 * `value` itself (`body` for a whole body). Iterative, like deeperThan.
 */
export function nulCharacterAt(value: unknown, root = ''): string | undefined {
  return textAt(value, root, (t) => t.includes('\u0000'));
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Where the first text holding half a UTF-16 surrogate pair is (as nulCharacterAt). */
export function loneSurrogateAt(value: unknown, root = ''): string | undefined {
  return textAt(value, root, (t) => LONE_SURROGATE.test(t));
}

function textAt(value: unknown, root: string, bad: (text: string) => boolean): string | undefined {
  const join = (at: string, key: string) => (at ? `${at}.${key}` : key);
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (bad(v)) return at || 'body';
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, `${at}[${i}]`]));
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (bad(key)) return at || 'body';
        stack.push([item, join(at, key)]);
      }
    }
  }
  return undefined;
}
