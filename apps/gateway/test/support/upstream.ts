import { createHash } from 'node:crypto';
import http, { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a stand-in service saw of one request. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bytes: number;
  sha256: string;
}

export interface Upstream {
  url: string;
  port: number;
  received: Received[];
  /** Extra routes, called once the body was read: return true when the request was answered. */
  handlers: ((req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => boolean)[];
  /** Routes that take the request before its body is read (streaming tests). */
  rawHandlers: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean)[];
  close(): Promise<void>;
}

/**
 * A real HTTP server standing in for a service: records every request (headers, body size and
 * hash) and answers with an envelope echoing what it saw, unless a handler takes the request.
 */
export async function startUpstream(port = 0): Promise<Upstream> {
  const received: Received[] = [];
  const handlers: Upstream['handlers'] = [];
  const rawHandlers: Upstream['rawHandlers'] = [];
  const server = http.createServer((req, res) => {
    for (const h of rawHandlers) if (h(req, res)) return;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bytes: body.length,
        sha256: createHash('sha256').update(body).digest('hex'),
      });
      for (const h of handlers) if (h(req, res, body)) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: { method: req.method, url: req.url, bytes: body.length },
          message: null,
          metaData: { totalResults: 1, responseTimeStamp: new Date().toISOString() },
          statusCode: 200,
        }),
      );
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    received,
    handlers,
    rawHandlers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
