import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import type { Request, Response } from 'express';
import { AppException, ErrorCode } from '@crm/errors';
import type { ServiceName } from './services';
import {
  downstreamResponseHeaders,
  upstreamRequestHeaders,
  UpstreamIdentity,
} from './upstream-headers';

/** A service that does not accept the connection within this time counts as down (503). */
const CONNECT_TIMEOUT_MS = 5000;

export interface ProxyTarget {
  service: ServiceName;
  /** Base URL of the service, e.g. http://127.0.0.1:3001 */
  baseUrl: string;
}

/**
 * Streams a request to a service and its answer back, bodies untouched (uploads and downloads of
 * any size pass without being buffered). Status and headers of the answer are the service's.
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
   * Resolves once the answer has been streamed (or the client went away); rejects with a 503
   * naming the service when it cannot be reached before it answered.
   */
  forward(
    req: Request,
    res: Response,
    target: ProxyTarget,
    identity: Omit<UpstreamIdentity, 'host'>,
  ): Promise<void> {
    const base = new URL(target.baseUrl);
    const isHttps = base.protocol === 'https:';
    const transport = isHttps ? https : http;
    const headers = upstreamRequestHeaders(req.headers, {
      ...identity,
      host: base.host,
      clientAddress: identity.clientAddress ?? req.socket.remoteAddress,
    });
    return new Promise<void>((resolve, reject) => {
      const upstream = transport.request({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port || (isHttps ? 443 : 80),
        method: req.method,
        // The path as the client sent it: the services serve the same paths under /v1/crm.
        path: `${base.pathname.replace(/\/$/, '')}${req.originalUrl}`,
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

      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, downstreamResponseHeaders(answer.headers));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        answer.on('aborted', () => res.destroy());
        res.on('finish', () => resolve());
      });

      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (res.headersSent) {
          // The answer had begun: nothing valid can be sent any more, cut the connection.
          this.logger.warn(
            `${target.service} broke off ${req.method} ${req.originalUrl}: ${err.code ?? err.message}`,
          );
          res.destroy();
          resolve();
          return;
        }
        // The client is gone (req.destroyed only means its body was read, not that it left).
        if (res.destroyed || !res.socket || res.socket.destroyed) return resolve();
        // Read and discard the rest of the body, so the client finishes sending and gets the 503.
        req.unpipe(upstream);
        req.resume();
        this.logger.warn(
          `${target.service} unreachable for ${req.method} ${req.originalUrl}: ${err.code ?? err.message}`,
        );
        reject(
          new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'gateway.serviceUnreachable', {
            service: target.service,
          }),
        );
      });

      // The client went away before the answer was complete: stop the service's work too.
      res.on('close', () => {
        if (!res.writableFinished) {
          upstream.destroy();
          resolve();
        }
      });

      req.pipe(upstream);
    });
  }

  onApplicationShutdown(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
