import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { AppException, ErrorCode } from '@crm/errors';
import { OutageLog } from '@crm/logging';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { CONNECT_TIMEOUT_MS, ReplicaAgent, UPSTREAM_LOOKUP, UpstreamLookup } from './replicas';
import type { ServiceName } from './services';
import { BUFFERED_BODY_BYTES, ServiceAnswer, ServiceCall } from './service-call';
import { upstreamRequestHeaders, UpstreamIdentity } from './upstream-headers';

export interface ServiceTarget {
  service: ServiceName;
  /** Scheme, host and port of the service, e.g. http://127.0.0.1:3001 */
  origin: string;
  /** Path the service is mounted under ('' when at the root). */
  basePath: string;
  /** host:port, sent as Host. */
  host: string;
}

/** A service's base URL taken apart once, not on every call. */
export function serviceTarget(service: ServiceName, baseUrl: string): ServiceTarget {
  const url = new URL(baseUrl);
  return { service, origin: url.origin, basePath: url.pathname.replace(/\/$/, ''), host: url.host };
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
 * Sends a request on to a service with undici (kept-alive connections per replica of a service,
 * calls spread over the ready replicas and retried once where safe: replicas.ts), the body
 * streamed untouched (uploads of any size pass without being buffered), and hands back the
 * service's answer. undici, not node:http's client: the gateway's cost per call is most of what
 * a call through it costs more than one made to the service directly.
 */
@Injectable()
export class ServiceForwarder implements OnApplicationShutdown {
  private readonly logger = new Logger(ServiceForwarder.name);
  /** A service that is down is logged when it goes and comes back, not once per call. */
  private readonly outages = new OutageLog(this.logger);
  private readonly agent: ReplicaAgent;

  private readonly answerTimeoutMs: number;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Optional() @Inject(UPSTREAM_LOOKUP) lookup?: UpstreamLookup,
  ) {
    // The connection and the start of the answer are timed (UPSTREAM_ANSWER_TIMEOUT_MS), not the
    // body: downloads and exports stream as long as they take. Idle sockets are dropped after
    // 4 s, before Node servers' 5 s keep-alive timeout closes them under us.
    this.answerTimeoutMs = config.UPSTREAM_ANSWER_TIMEOUT_MS;
    this.agent = new ReplicaAgent({
      lookup,
      pool: {
        connect: { timeout: CONNECT_TIMEOUT_MS },
        headersTimeout: this.answerTimeoutMs,
        bodyTimeout: 0,
        keepAliveTimeout: 4000,
      },
    });
  }

  /** The replicas known for a service's origin (tests look at them). */
  replicasOf(origin: string) {
    return this.agent.replicasOf(origin);
  }

  /**
   * Resolves with the service's answer; rejects with a 503 naming the service when it cannot be
   * reached before it answered, a 504 when it did not begin answering in time. `res` is the
   * client's response: when the client goes away first, the service's work is stopped too.
   * `read`: the body when the caller has read it already (idempotent calls hash it first), and
   * answers up to `bufferUpTo` bytes arrive whole.
   */
  async forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: ServiceTarget,
    identity: Omit<UpstreamIdentity, 'host'>,
    read?: { body: Buffer | null; bufferUpTo: number },
  ): Promise<ServiceAnswer> {
    const call = new ServiceCall(read?.bufferUpTo);
    const onClose = () => {
      if (!res.writableFinished) call.cancel();
    };
    res.once('close', onClose);
    const body = read ? read.body : await requestBody(req);
    let answer: ServiceAnswer;
    try {
      this.agent.dispatch(
        {
          origin: target.origin,
          // The path as the client sent it: the services serve the same paths under /v1/crm.
          path: `${target.basePath}${req.url}`,
          method: req.method as Dispatcher.HttpMethod,
          headers: upstreamRequestHeaders(req.headers, {
            ...identity,
            host: target.host,
          }) as Record<string, string | string[]>,
          body,
        },
        call,
      );
      // Small answers arrive whole: a service breaking off before the end is still a clean 503.
      answer = await call.answer;
      this.outages.succeeded(target.service);
    } catch (err) {
      res.off('close', onClose);
      // Read and discard the rest of the body, so the client finishes sending and gets the 503.
      req.resume();
      throw this.unreachable(target, req, err, call.clientLeft);
    }
    if (Buffer.isBuffer(answer.body)) res.off('close', onClose);
    else answer.body.once('end', () => res.off('close', onClose));
    return answer;
  }

  /**
   * The 503 naming the service, or the 504 when it did not begin answering in time; logged as
   * an outage (once when it starts, with a count when it ends) unless the client went away first.
   */
  private unreachable(
    target: ServiceTarget,
    req: IncomingMessage,
    err: unknown,
    clientLeft: boolean,
  ): AppException {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    if (!clientLeft)
      this.outages.failed(target.service, `${code} (${req.method} ${req.url?.split('?')[0]})`);
    if (code === 'UND_ERR_HEADERS_TIMEOUT') {
      return new AppException(ErrorCode.GATEWAY_TIMEOUT, 'gateway.serviceTimedOut', {
        service: target.service,
        seconds: this.answerTimeoutMs / 1000,
      });
    }
    return new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'gateway.serviceUnreachable', {
      service: target.service,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy();
  }
}
