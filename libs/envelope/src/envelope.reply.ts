import { StreamableFile } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { Readable } from 'node:stream';
import { envelope } from './envelope';

/** Route config key of handlers whose answer is not the JSON envelope. */
const RAW_RESPONSE = 'crmRawResponse';

/** Marks a handler whose answer is not JSON (files, vCards, the OpenAPI document). */
export const RawResponse = () => RouteConfig({ [RAW_RESPONSE]: true });

/** The part of a Fastify reply the envelope needs (kept structural: no Fastify types here). */
export interface ReplyLike {
  statusCode: number;
  request?: { routeOptions?: { config?: unknown } };
}

function isRawRoute(reply: ReplyLike): boolean {
  const config = reply.request?.routeOptions?.config as Record<string, unknown> | undefined;
  return config?.[RAW_RESPONSE] === true;
}

/**
 * What a handler's result is sent as: the envelope around it, unless the route is raw or the
 * result is bytes or a stream. Called by the service's HTTP adapter for every handler result, so
 * no global interceptor is needed (Nest wraps interceptors in rxjs and async-hooks resources,
 * which cost every request more than the handler of a health probe does).
 */
export function replyBody(reply: ReplyLike, body: unknown, statusCode: number): unknown {
  if (isRawRoute(reply)) return body;
  if (body instanceof StreamableFile || Buffer.isBuffer(body) || body instanceof Readable)
    return body;
  return envelope(body ?? null, statusCode);
}
