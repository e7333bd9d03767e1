import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, headers as natsHeaders, NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { NATS_TEST_URL } from '@crm/testing';

/** One request a receiver got. */
export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A real HTTP receiver on 127.0.0.1: every request is kept; `answer` decides the status (200
 * unless told otherwise), e.g. fail three times then succeed.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: (n: number, r: Received) => number = () => 200;
  /** How long it waits before answering (0: at once). */
  delayMs = 0;
  private server!: http.Server;

  static async start(answer?: (n: number, r: Received) => number): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    if (answer) receiver.answer = answer;
    receiver.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Received = {
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([k, v]) => [
              k,
              Array.isArray(v) ? v.join(',') : (v ?? ''),
            ]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        receiver.received.push(r);
        const status = receiver.answer(receiver.received.length, r);
        setTimeout(() => {
          res.writeHead(status, { 'content-type': 'text/plain' });
          res.end('receiver says no');
        }, receiver.delayMs);
      });
    });
    await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Waits until `n` requests (matching `where`) arrived. */
  async waitFor(n: number, where: (r: Received) => boolean = () => true, ms = 45_000) {
    const end = Date.now() + ms;
    for (;;) {
      const got = this.received.filter(where);
      if (got.length >= n) return got;
      if (Date.now() > end) throw new Error(`receiver got ${got.length} of ${n} requests`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): Promise<void> {
    return new Promise((r) => {
      this.server.closeAllConnections();
      this.server.close(() => r());
    });
  }
}

/** Publishes outbox events as a service's relay does (JetStream, Nats-Msg-Id = event id). */
export class SourceEvents {
  private constructor(private readonly nc: NatsConnection) {}

  static async connect(url = NATS_TEST_URL): Promise<SourceEvents> {
    return new SourceEvents(await connect({ servers: url, name: 'webhook-source-stand-in' }));
  }

  async publish(
    subject: string,
    event: { tenantId: string } & Record<string, unknown>,
    id: string = randomUUID(),
  ): Promise<string> {
    const h = natsHeaders();
    h.set('Crm-Tenant-Id', event.tenantId);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.nc
          .jetstream()
          .publish(subject, JSON.stringify(event), { msgID: id, headers: h });
        return id;
      } catch (err) {
        if (attempt > 50) throw err; // the service creates the stream when it connects
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  close(): Promise<void> {
    return this.nc.close();
  }
}

/** Polls `fn` until it answers something truthy. */
export async function eventually<T>(fn: () => Promise<T>, ms = 45_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
