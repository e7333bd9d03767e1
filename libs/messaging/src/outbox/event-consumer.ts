import { Logger, SetMetadata, Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AckPolicy, ConsumerMessages, DeliverPolicy, JsMsg, nanos } from 'nats';
import { backoffMs } from './backoff';
import { JetStreamConnection } from './jetstream-connection';
import { OutboxDb, OutboxTx, PROCESSED_TABLE } from './outbox-db';
import { isUuid } from '@crm/errors';

/** What a handler gets besides the payload: the transaction to write in, and the event's id. */
export interface EventContext<TTx = OutboxTx> {
  /** The transaction that also records the event as processed: write through it only. */
  tx: TTx;
  eventId: string;
  subject: string;
  /** 1 on the first delivery. */
  deliveryCount: number;
}

/** A handler; TTx is the service's transaction client type (what its db.$transaction gives). */
export interface EventHandlerSpec<T extends object = object, TTx = OutboxTx> {
  subject: string;
  /** class-validator class of the payload; an invalid payload is logged and dropped (term). */
  payload?: Type<T>;
  handle(event: T, ctx: EventContext<TTx>): Promise<void>;
}

export interface EventConsumerOptions {
  service: string;
  db: OutboxDb;
  /** Redelivery after a handler error: base, doubling per delivery, up to max. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long the server waits for an ack before it redelivers. */
  ackWaitMs?: number;
}

export const CONSUME_EVENT = 'crm:consume-event';

export interface ConsumeEventMetadata {
  subject: string;
  payload?: Type<object>;
}

/**
 * Declares a provider method as the service's handler of an outbox event:
 * `@ConsumeEvent(Subjects.crmPeople.peopleMerged, PeopleMergedEvent)
 *  async onMerged(event: PeopleMergedEvent, { tx }: EventContext<Prisma.TransactionClient>)`.
 * The method runs inside a transaction of the service's database that also records the event id:
 * an event is applied once, even if delivered twice. One handler per subject and service.
 */
export const ConsumeEvent = (subject: string, payload?: Type<object>): MethodDecorator =>
  SetMetadata(CONSUME_EVENT, { subject, payload } satisfies ConsumeEventMetadata);

/** Durable names may not contain `.`, `*`, `>` or spaces. */
export const durableName = (service: string, subject: string) =>
  `${service}__${subject}`.replace(/[.*>\s/\\]/g, '_');

/**
 * One durable JetStream pull consumer per (service, subject), explicit ack. Several replicas of a
 * service share the durable, so each event goes to one of them. Acked after the transaction
 * commits; a handler error is nak'ed with a growing delay (1 s, 2 s ... 60 s, forever: it is
 * retried until fixed); an event id already in ProcessedEvent is acked and skipped.
 */
export class EventConsumer {
  private readonly logger = new Logger(EventConsumer.name);
  private readonly handlers = new Map<string, EventHandlerSpec>();
  private readonly running = new Map<string, ConsumerMessages>();
  private readonly loops: Promise<void>[] = [];
  private stopped = false;

  constructor(
    private readonly conn: JetStreamConnection,
    private readonly options: EventConsumerOptions,
  ) {}

  /** Registers a handler; call before start() (the module does it for @ConsumeEvent methods). */
  register<T extends object, TTx = OutboxTx>(spec: EventHandlerSpec<T, TTx>): void {
    if (this.handlers.has(spec.subject)) {
      throw new Error(`${this.options.service} has two handlers for ${spec.subject}`);
    }
    this.handlers.set(spec.subject, spec as unknown as EventHandlerSpec);
  }

  get subjects(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * Creates the durable consumers without consuming (start() does it too): events published
   * after this wait for the service even if it has never run.
   */
  async prepare(): Promise<void> {
    await this.conn.open();
    for (const subject of this.handlers.keys()) {
      await this.ensureConsumer(durableName(this.options.service, subject), subject);
    }
  }

  /** Connects and starts consuming in the background; resolves once every consumer runs. */
  async start(): Promise<void> {
    if (!this.handlers.size) return;
    await this.conn.open();
    await Promise.all([...this.handlers.values()].map((h) => this.startOne(h)));
  }

  private async startOne(spec: EventHandlerSpec): Promise<void> {
    const durable = durableName(this.options.service, spec.subject);
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        await this.ensureConsumer(durable, spec.subject);
        const consumer = await this.conn.js.consumers.get(this.conn.stream.name, durable);
        const messages = await consumer.consume({ max_messages: 50 });
        if (this.stopped) {
          await messages.close();
          return;
        }
        this.running.set(spec.subject, messages);
        this.loops.push(this.drain(spec, messages));
        return;
      } catch (err) {
        this.logger.warn(`consumer ${durable} not started: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, backoffMs(attempt, 500, 10_000)));
      }
    }
  }

  private async ensureConsumer(durable: string, subject: string): Promise<void> {
    const jsm = this.conn.jsm;
    try {
      await jsm.consumers.info(this.conn.stream.name, durable);
      return;
    } catch (err) {
      if (!/not found/i.test((err as Error).message)) throw err;
    }
    await jsm.consumers.add(this.conn.stream.name, {
      durable_name: durable,
      filter_subject: subject,
      ack_policy: AckPolicy.Explicit,
      // A service deployed after events were written still gets them (the stream keeps 14 days).
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.options.ackWaitMs ?? 30_000),
      max_deliver: -1,
    });
  }

  private async drain(spec: EventHandlerSpec, messages: ConsumerMessages): Promise<void> {
    try {
      for await (const m of messages) {
        await this.process(spec, m);
      }
    } catch (err) {
      this.logger.warn(`consumer of ${spec.subject} stopped: ${(err as Error).message}`);
    }
    // The iterator ends on close(); anything else (consumer deleted by hand...) starts it again.
    if (!this.stopped) {
      this.running.delete(spec.subject);
      await new Promise((r) => setTimeout(r, 1000));
      if (!this.stopped) await this.startOne(spec);
    }
  }

  /** Applies one message; never throws (the iterator must go on). Exposed for tests. */
  async process(spec: EventHandlerSpec, m: JsMsg): Promise<void> {
    const eventId = m.headers?.get('Nats-Msg-Id') ?? '';
    const where = `${m.subject} ${eventId || '(no id)'}`;
    let payload: object;
    try {
      payload = await this.parse(spec, m, eventId);
    } catch (err) {
      this.logger.error(`dropping event ${where}: ${(err as Error).message}`);
      m.term(); // no reason text: nats-server 2.9 does not know `+TERM <reason>`
      return;
    }
    try {
      await this.options.db.$transaction(async (tx) => {
        const fresh = await tx.$executeRawUnsafe(
          `INSERT INTO ${PROCESSED_TABLE} ("id", "subject") VALUES ($1::uuid, $2)
           ON CONFLICT ("id") DO NOTHING`,
          eventId,
          m.subject,
        );
        if (fresh === 0) return; // applied before (a redelivery, or another replica)
        await spec.handle(payload, {
          tx,
          eventId,
          subject: m.subject,
          deliveryCount: m.info.redeliveryCount,
        });
      });
      m.ack();
    } catch (err) {
      const delay = backoffMs(
        m.info.redeliveryCount,
        this.options.retryBaseMs ?? 1000,
        this.options.retryMaxMs ?? 60_000,
      );
      this.logger.warn(`event ${where} failed, retry in ${delay} ms: ${(err as Error).message}`);
      m.nak(delay);
    }
  }

  private async parse(spec: EventHandlerSpec, m: JsMsg, eventId: string): Promise<object> {
    if (!isUuid(eventId)) throw new Error('the Nats-Msg-Id header is not an event id');
    const plain: unknown = m.json();
    if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
      throw new Error('the payload is not a JSON object');
    }
    if (!spec.payload) return plain;
    const instance = plainToInstance(spec.payload, plain);
    const errors = await validate(instance, { forbidUnknownValues: false });
    if (errors.length) {
      const problems = errors.map((e) => `${e.property}: ${Object.keys(e.constraints ?? {})}`);
      throw new Error(`invalid payload (${problems.join('; ')})`);
    }
    return instance;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.running.values()].map((m) => m.close().catch(() => undefined)));
    this.running.clear();
    await Promise.allSettled(this.loops);
  }
}
