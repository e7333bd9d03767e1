import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Agent, Dispatcher } from 'undici';
import { AppException, ErrorCode } from '@crm/errors';
import type { ServiceName } from './services';
import { upstreamRequestHeaders, UpstreamIdentity } from './upstream-headers';

/** A service that does not accept the connection within this time counts as down (503). */
const CONNECT_TIMEOUT_MS = 5000;
/** Bodies and answers up to this size are read whole and sent in one write; larger ones stream. */
const BUFFERED_BODY_BYTES = 64 * 1024;

export interface ProxyTarget {
  service: ServiceName;
  /** Scheme, host and port of the service, e.g. http://127.0.0.1:3001 */
  origin: string;
  /** Path the service is mounted under ('' when at the root). */
  basePath: string;
  /** host:port, sent as Host. */
  host: string;
}

/** A service's base URL taken apart once, not on every call. */
export function proxyTarget(service: ServiceName, baseUrl: string): ProxyTarget {
  const url = new URL(baseUrl);
  return { service, origin: url.origin, basePath: url.pathname.replace(/\/$/, ''), host: url.host };
}

/** The service's answer: status, headers and the body (bytes when small, else a stream). */
export interface ServiceAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer | Readable;
}

/**
 * undici takes any EventEmitter with an 'abort' event as a signal: one of these per call costs
 * less than an AbortController (an EventTarget), which showed up in the gateway's profile.
 */
class ClientGone extends EventEmitter {
  aborted = false;

  abort(): void {
    this.aborted = true;
    this.emit('abort');
  }
}

/**
 * The body to send on: none, the bytes when the client declared a small one (read first: a
 * Buffer costs undici one write, a stream several), or else the stream itself, so uploads of any
 * size pass without being buffered.
 */
async function requestBody(req: IncomingMessage): Promise<Buffer | IncomingMessage | null> {
  const declared = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined) {
    if (declared === undefined || declared === '0') return null;
    if (Number(declared) <= BUFFERED_BODY_BYTES) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }
  }
  return req;
}

/**
 * Sends a request on to a service with undici (kept-alive connections per service), the body
 * streamed untouched (uploads of any size pass without being buffered), and hands back the
 * service's answer. undici, not node:http's client: the gateway's cost per call is most of what
 * a call through it costs more than one made to the service directly.
 */
@Injectable()
export class ProxyService implements OnApplicationShutdown {
  private readonly logger = new Logger(ProxyService.name);
  // Only the connection is timed: answers (downloads, slow reports) may take as long as they
  // take. Idle sockets are dropped after 4 s, before Node servers' 5 s keep-alive timeout closes
  // them under us.
  private readonly agent = new Agent({
    connect: { timeout: CONNECT_TIMEOUT_MS },
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: 4000,
  });

  /**
   * Resolves with the service's answer; rejects with a 503 naming the service when it cannot be
   * reached before it answered. `res` is the client's response: when the client goes away first,
   * the service's work is stopped too.
   */
  async forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: ProxyTarget,
    identity: Omit<UpstreamIdentity, 'host'>,
  ): Promise<ServiceAnswer> {
    const abort = new ClientGone();
    const onClose = () => {
      if (!res.writableFinished) abort.abort();
    };
    res.once('close', onClose);
    const body = await requestBody(req);
    let answer: Dispatcher.ResponseData<null>;
    try {
      answer = await this.agent.request({
        origin: target.origin,
        // The path as the client sent it: the services serve the same paths under /v1/crm.
        path: `${target.basePath}${req.url}`,
        method: req.method as Dispatcher.HttpMethod,
        headers: upstreamRequestHeaders(req.headers, { ...identity, host: target.host }) as Record<
          string,
          string | string[]
        >,
        body,
        signal: abort,
      });
    } catch (err) {
      res.off('close', onClose);
      // Read and discard the rest of the body, so the client finishes sending and gets the 503.
      req.resume();
      throw this.unreachable(target, req, err, abort.aborted);
    }
    const headers = answer.headers as IncomingHttpHeaders;
    const length = Number(headers['content-length'] ?? NaN);
    if (length <= BUFFERED_BODY_BYTES) {
      // Nothing has gone to the client yet: a service breaking off here is still a clean 503.
      let bytes: Buffer;
      try {
        bytes = Buffer.from(await answer.body.arrayBuffer());
      } catch (err) {
        throw this.unreachable(target, req, err, abort.aborted);
      } finally {
        res.off('close', onClose);
      }
      return { statusCode: answer.statusCode, headers, body: bytes };
    }
    answer.body.once('end', () => res.off('close', onClose));
    return { statusCode: answer.statusCode, headers, body: answer.body };
  }

  /** The 503 naming the service; logged unless the client went away first (nobody to answer). */
  private unreachable(
    target: ProxyTarget,
    req: IncomingMessage,
    err: unknown,
    clientLeft: boolean,
  ): AppException {
    if (!clientLeft) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      this.logger.warn(`${target.service} unreachable for ${req.method} ${req.url}: ${code}`);
    }
    return new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'gateway.serviceUnreachable', {
      service: target.service,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy();
  }
}
