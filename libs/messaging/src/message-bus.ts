import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy, NatsRecord, NatsRecordBuilder } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { AppException, ErrorCode } from '@crm/errors';
import { OutageLog } from '@crm/logging';
import { inSpan, tracingEnabled } from '@crm/telemetry';
import { natsHeadersOf, requestHeaders, TENANT_HEADER } from './message-context';

export const NATS_CLIENT = Symbol('NATS_CLIENT');
export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

export interface MessagingOptions {
  service: string;
  url: string;
  requestTimeoutMs: number;
}

/** Which service answers a subject: its first segment. Used in the 503 message. */
const owner = (subject: string) => subject.split('.')[0];

/**
 * The payload with the headers that carry the current request on (X-Request-Id, tenant, W3C
 * trace context): the handler on the other side logs with the same request id, in the same trace.
 */
const withRequestHeaders = (payload: object): NatsRecord => {
  const carried = requestHeaders();
  // The tenant the message is for, when its payload names one: the handler's queries see that
  // tenant's rows only (natsServerOptions). Else the request's, as for the logs.
  const tenantId = (payload as { tenantId?: unknown }).tenantId;
  if (typeof tenantId === 'string') carried[TENANT_HEADER] = tenantId;
  return new NatsRecordBuilder(payload).setHeaders(natsHeadersOf(carried)).build();
};

/**
 * Requests and events over NATS. Every request has a timeout: a silent service becomes a 503
 * naming it, never a hang; an error the other side raised arrives as the same AppException.
 * Each message carries the request it is sent for (withRequestHeaders); with tracing on, a
 * request is a client span `send <subject>` (an event a producer span of that name), the parent
 * of the handling service's span.
 */
@Injectable()
export class MessageBus implements OnApplicationShutdown {
  private readonly logger = new Logger(MessageBus.name);
  /** A service that does not answer is logged when it goes and comes back, not per request. */
  private readonly outages = new OutageLog(this.logger);

  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  async request<TReply>(subject: string, payload: object, timeoutMs?: number): Promise<TReply> {
    const ms = timeoutMs ?? this.options.requestTimeoutMs;
    // the headers are read inside the span: the other side's parent is the span of this request
    const send = () =>
      firstValueFrom(
        this.client.send<TReply>(subject, withRequestHeaders(payload)).pipe(timeout(ms)),
      );
    try {
      const reply = await this.traced('client', subject, send);
      this.outages.succeeded(owner(subject));
      return reply;
    } catch (err) {
      if (AppException.isRpcPayload(err)) throw AppException.fromRpc(err);
      if (!(err instanceof TimeoutError)) {
        const said = (err as Error)?.message ?? String(err);
        this.outages.failed(owner(subject), `${said} (request ${subject})`);
      }
      throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable', {
        service: owner(subject),
      });
    }
  }

  /** Fire-and-forget notification (at most once). Events that must arrive go through an outbox. */
  async emit(subject: string, payload: object): Promise<void> {
    // as for requests, the headers are read inside the span: the handlers' parent is this span
    const send = () =>
      firstValueFrom(
        this.client
          .emit(subject, withRequestHeaders(payload))
          .pipe(timeout(this.options.requestTimeoutMs)),
        { defaultValue: undefined },
      );
    try {
      await this.traced('producer', subject, send);
    } catch (err) {
      this.logger.warn(`emit ${subject} failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** `send` as the span `send <subject>` when tracing is on, else as it is. */
  private traced<T>(kind: 'client' | 'producer', subject: string, send: () => Promise<T>) {
    if (!tracingEnabled()) return send();
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject };
    return inSpan(`send ${subject}`, kind, null, attributes, send);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
