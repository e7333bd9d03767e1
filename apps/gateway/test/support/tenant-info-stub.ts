import { connect, JSONCodec, NatsConnection, Subscription } from 'nats';
import type { RpcErrorPayload } from '@crm/errors';
import { NATS_TEST_URL } from '@crm/testing';

const codec = JSONCodec<unknown>();

/** A Nest-style request as ClientNats sends it. */
interface NestRequest {
  pattern: string;
  data: unknown;
  id: string;
}

export type Answer = { response: unknown } | { err: RpcErrorPayload };

/**
 * Stands in for tenant-info on NATS: answers subjects the way Nest's NATS transport does
 * (`{ id, response, isDisposed }` or `{ id, err, isDisposed }`) and records what it was asked.
 */
export class TenantInfoStub {
  readonly asked: { subject: string; data: unknown }[] = [];
  private readonly subs = new Map<string, Subscription>();

  private constructor(readonly nc: NatsConnection) {}

  static async start(): Promise<TenantInfoStub> {
    return new TenantInfoStub(await connect({ servers: NATS_TEST_URL, name: 'tenant-info-stub' }));
  }

  /** Answers `subject` with what `answer` returns for the request's data. */
  async answer(subject: string, answer: (data: unknown) => Answer): Promise<void> {
    this.subs.get(subject)?.unsubscribe();
    const sub = this.nc.subscribe(subject, {
      callback: (_err, msg) => {
        const req = codec.decode(msg.data) as NestRequest;
        this.asked.push({ subject, data: req.data });
        msg.respond(codec.encode({ id: req.id, ...answer(req.data), isDisposed: true }));
      },
    });
    this.subs.set(subject, sub);
    await this.nc.flush();
  }

  /** Stops answering `subject` (tenant-info down for it). */
  async silence(subject: string): Promise<void> {
    this.subs.get(subject)?.unsubscribe();
    this.subs.delete(subject);
    await this.nc.flush();
  }

  count(subject: string): number {
    return this.asked.filter((a) => a.subject === subject).length;
  }

  /** Publishes an event as Nest's ClientNats.emit does (`{ pattern, data }`). */
  async emit(subject: string, data: unknown): Promise<void> {
    this.nc.publish(subject, codec.encode({ pattern: subject, data }));
    await this.nc.flush();
  }

  async close(): Promise<void> {
    await this.nc.close();
  }
}
