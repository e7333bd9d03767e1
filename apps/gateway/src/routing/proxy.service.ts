import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import { AppException, ErrorCode } from '@crm/errors';
import type { ServiceName } from './services';
import { upstreamRequestHeaders, UpstreamIdentity } from './upstream-headers';

/** A service that does not accept the connection within this time counts as down (503). */
const CONNECT_TIMEOUT_MS = 5000;

export interface ProxyTarget {
  service: ServiceName;
  /** Base URL of the service, e.g. http://127.0.0.1:3001 */
  baseUrl: string;
}

/**
 * Sends a request on to a service, body streamed untouched (uploads of any size pass without
 * being buffered), and hands back the service's answer as a stream for the caller to send on.
 */
@Injectable()
export class ProxyService implements OnApplicationShutdown {
  private readonly logger = new Logger(ProxyService.name);
  // Idle sockets are dropped after 4 s, before Node servers' 5 s keep-alive timeout closes them
  // under us (a request sent on a socket the service is closing fails with ECONNRESET).
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: 4000 }),
    'https:': new https.Agent({ keepAlive: true, timeout: 4000 }),
  };

  /**
   * Resolves with the service's answer once its head has arrived; rejects with a 503 naming the
   * service when it cannot be reached before it answered. `res` is the client's response: when
   * the client goes away first, the service's work is stopped too.
   */
  forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: ProxyTarget,
    identity: Omit<UpstreamIdentity, 'host'>,
  ): Promise<IncomingMessage> {
    const base = new URL(target.baseUrl);
    const isHttps = base.protocol === 'https:';
    const transport = isHttps ? https : http;
    const headers = upstreamRequestHeaders(req.headers, { ...identity, host: base.host });
    return new Promise<IncomingMessage>((resolve, reject) => {
      const upstream = transport.request({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port || (isHttps ? 443 : 80),
        method: req.method,
        // The path as the client sent it: the services serve the same paths under /v1/crm.
        path: `${base.pathname.replace(/\/$/, '')}${req.url}`,
        headers,
        agent: this.agents[isHttps ? 'https:' : 'http:'],
      });

      // Only the connection is timed: answers (downloads, slow reports) may take as long as they take.
      upstream.on('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(() => {
          const err: NodeJS.ErrnoException = new Error('connect timeout');
          err.code = 'ETIMEDOUT';
          upstream.destroy(err);
        }, CONNECT_TIMEOUT_MS);
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });

      let answered = false;
      upstream.on('response', (answer) => {
        answered = true;
        resolve(answer);
      });

      upstream.on('error', (err: NodeJS.ErrnoException) => {
        // After the answer's head, a broken stream is the sender's to handle (it destroys the
        // client's response); before it, the service counts as unreachable.
        if (answered) return;
        req.unpipe(upstream);
        // Read and discard the rest of the body, so the client finishes sending and gets the 503.
        req.resume();
        this.logger.warn(
          `${target.service} unreachable for ${req.method} ${req.url}: ${err.code ?? err.message}`,
        );
        reject(
          new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'gateway.serviceUnreachable', {
            service: target.service,
          }),
        );
      });

      // The client went away before the answer was complete: stop the service's work too.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });

      req.pipe(upstream);
    });
  }

  onApplicationShutdown(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
