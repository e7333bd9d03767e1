import { Logger, SetMetadata, Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AckPolicy, Consumer, DeliverPolicy, JsMsg, nanos } from 'nats';
import { backoffMs } from './backoff';
import { JetStreamConnection } from './jetstream-connection';
import { MessageBatches } from './message-batches';
import { OutboxDb, OutboxTx, PROCESSED_TABLE } from './outbox-db';
import { isUuid } from '@crm/errors';
import { runInRequest } from '@crm/logging';
import { acrossTenants, asTenant } from '@crm/request-context';
import { inMessageContext, messageFields } from '../message-context';

/** What a handler gets besides the payload: the transaction to write in, and the event's id. */
export interface EventContext<TTx = OutboxTx> {
  /**
   * The transaction that also records the event as processed, shared with the other events of
   * its batch: write through it only, and let errors through (a failed batch is rolled back and
   * applied again one event at a time).
   */
  tx: TTx;
  eventId: string;
  subject: string;
  /** 1 on the first delivery. */
  deliveryCount: number;
}

/** The events of a batch by the tenant their payload names (null: none), each in its order. */
function byTenant(events: Delivery[]): Map<string | null, Delivery[]> {
  const groups = new Map<string | null, Delivery[]>();
  for (const e of events) {
    const tenantId = (e.payload as { tenantId?: unknown }).tenantId;
    const key = typeof tenantId === 'string' ? tenantId : null;
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  return groups;
}

/** Runs a handler for its event's tenant; an event that names none is about every tenant. */
const inTenantScope = <T>(tenantId: string | null, fn: () => Promise<T>): Promise<T> =>
  tenantId === null ? acrossTenants('an event that names no tenant', fn) : asTenant(tenantId, fn);

/** At most this many events are applied in one transaction. */
export const EVENT_BATCH_MAX = 100;

/**
 * How long a pull waits for messages (nats.js' least). Each pull ends by itself, so a stopping
 * consumer reads its last one to the end and leaves no request behind: nats-server 2.9 sends
 * messages to a pull request whose client is gone, and they wait there for the ack wait (30 s).
 */
const PULL_EXPIRES_MS = 1000;

/** A handler; TTx is the service's transaction client type (what its db.$transaction gives). */
export interface EventHandlerSpec<T extends object = object, TTx = OutboxTx> {
  subject: string;
  /** class-validator class of the payload; an invalid payload is logged and dropped (term). */
  payload?: Type<T>;
  /**
   * A cheap check before any transaction ("has this tenant a webhook endpoint for it?"): false
   * acks the event without writing anything, not even its ProcessedEvent row. Its answer is
   * final, so it must read the current state, not a cache that can lag behind.
   */
  concerns?(event: T): boolean | Promise<boolean>;
  /**
   * At most this many events per transaction (default and cap EVENT_BATCH_MAX). 1 for a handler
   * with effects a rollback does not undo (files written), which a failing neighbour in its batch
   * would otherwise leave behind.
   */
  maxBatch?: number;
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

/** EventHandlerSpec's options for @ConsumeEvent; P is the provider the method belongs to. */
export interface ConsumeEventOptions<T extends object = object, P = never> {
  /** EventHandlerSpec.concerns, given the provider too (a decorator cannot name `this`). */
  concerns?: (event: T, provider: P) => boolean | Promise<boolean>;
  maxBatch?: number;
}

export interface ConsumeEventMetadata {
  subject: string;
  payload?: Type<object>;
  concerns?: (event: object, provider: unknown) => boolean | Promise<boolean>;
  maxBatch?: number;
}

/**
 * Declares a provider method as the service's handler of an outbox event:
 * `@ConsumeEvent(Subjects.crmPeople.peopleMerged, PeopleMergedEvent)
 *  async onMerged(event: PeopleMergedEvent, { tx }: EventContext<Prisma.TransactionClient>)`.
 * The method runs inside a transaction of the service's database that also records the event id:
 * an event is applied once, even if delivered twice. One handler per subject and service.
 * `options.concerns` skips, before any transaction, an event the handler would do nothing with.
 */
export const ConsumeEvent = <T extends object, P = never>(
  subject: string,
  payload?: Type<T>,
  options: ConsumeEventOptions<T, P> = {},
): MethodDecorator =>
  SetMetadata(CONSUME_EVENT, { subject, payload, ...options } as ConsumeEventMetadata);

/** Durable names may not contain `.`, `*`, `>` or spaces. */
export const durableName = (service: string, subject: string) =>
  `${service}__${subject}`.replace(/[.*>\s/\\]/g, '_');

/** A message whose payload passed the handler's validation. */
interface Delivery {
  msg: JsMsg;
  eventId: string;
  payload: object;
}

/**
 * One durable JetStream pull consumer per (service, subject), explicit ack. Several replicas of a
 * service share the durable, so each event goes to one of them. Messages are applied in batches
 * of what has arrived (up to EVENT_BATCH_MAX, in order), one transaction per batch that also
 * records the event ids in ProcessedEvent (an id already there is acked and skipped), acked after
 * it commits. A failed batch is applied again one event at a time: a failing event is nak'ed
 * with a growing delay (1 s, 2 s ... 60 s, forever: it is retried until fixed), its neighbours
 * are applied.
 */
export class EventConsumer {
  private readonly logger = new Logger(EventConsumer.name);
  private readonly handlers = new Map<string, EventHandlerSpec>();
  /** The batches of each durable being consumed, by subject. */
  private readonly running = new Map<string, MessageBatches<JsMsg>>();
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

  /**
   * Per consumed subject, the events the durable has not been given yet (`pending`) and those
   * given but not acknowledged (`ackPending`): the consumer lag of the metrics. Subjects whose
   * durable cannot be read (NATS down) are left out.
   */
  async lag(): Promise<{ subject: string; pending: number; ackPending: number }[]> {
    if (!this.running.size) return [];
    const jsm = this.conn.jsm;
    const rows = await Promise.all(
      [...this.running.keys()].map(async (subject) => {
        try {
          const info = await jsm.consumers.info(
            this.conn.stream.name,
            durableName(this.options.service, subject),
          );
          return { subject, pending: info.num_pending, ackPending: info.num_ack_pending };
        } catch {
          return null;
        }
      }),
    );
    return rows.filter((r): r is NonNullable<typeof r> => r !== null);
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
        if (this.stopped) return;
        // handed back after the last pull has ended: not sent straight back to it
        const handBack = (m: JsMsg) => m.nak(PULL_EXPIRES_MS);
        const batches = new MessageBatches(this.pulls(consumer), EVENT_BATCH_MAX, handBack);
        this.running.set(spec.subject, batches);
        this.loops.push(this.consumeBatches(spec, batches));
        return;
      } catch (err) {
        this.logger.warn(`consumer ${durable} not started: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, backoffMs(attempt, 500, 10_000)));
      }
    }
  }

  /** The durable's messages, pull after pull, until the consumer stops. */
  private async *pulls(consumer: Consumer): AsyncGenerator<JsMsg> {
    while (!this.stopped) {
      yield* await consumer.fetch({ max_messages: EVENT_BATCH_MAX, expires: PULL_EXPIRES_MS });
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
      ack_wait: nanos(this.ackWaitMs),
      max_deliver: -1,
    });
  }

  private get ackWaitMs(): number {
    return this.options.ackWaitMs ?? 30_000;
  }

  private async consumeBatches(
    spec: EventHandlerSpec,
    batches: MessageBatches<JsMsg>,
  ): Promise<void> {
    const max = Math.max(1, Math.min(spec.maxBatch ?? EVENT_BATCH_MAX, EVENT_BATCH_MAX));
    try {
      for (let batch = await batches.take(max); batch.length; batch = await batches.take(max)) {
        await this.applyBatch(spec, batch);
      }
    } catch (err) {
      this.logger.warn(`consumer of ${spec.subject} stopped: ${(err as Error).message}`);
    }
    // The pulls end on stop(); anything else (consumer deleted by hand...) starts them again.
    if (!this.stopped) {
      this.running.delete(spec.subject);
      await new Promise((r) => setTimeout(r, 1000));
      if (!this.stopped) await this.startOne(spec);
    }
  }

  /**
   * Applies messages taken together, in their order; never throws (the loop must go on).
   * Exposed for tests.
   */
  async applyBatch(spec: EventHandlerSpec, messages: JsMsg[]): Promise<void> {
    const valid = await this.validOnes(spec, messages);
    // One transaction per tenant of the batch, which sees that tenant's rows only: a handler
    // acts for the tenant of its event (an on-sale's batches are one tenant's anyway).
    for (const [tenantId, events] of byTenant(valid)) {
      await inTenantScope(tenantId, async () => {
        const concerned = await this.concernedOnes(spec, events);
        if (concerned.length) await this.apply(spec, concerned);
      });
    }
  }

  /** The messages that are events of the handler; any other is logged and terminated alone. */
  private async validOnes(spec: EventHandlerSpec, messages: JsMsg[]): Promise<Delivery[]> {
    const valid: Delivery[] = [];
    for (const msg of messages) {
      const eventId = msg.headers?.get('Nats-Msg-Id') ?? '';
      try {
        valid.push({ msg, eventId, payload: await this.parse(spec, msg, eventId) });
      } catch (err) {
        this.logger.error(
          `dropping event ${msg.subject} ${eventId || '(no id)'}: ${(err as Error).message}`,
        );
        msg.term(); // no reason text: nats-server 2.9 does not know `+TERM <reason>`
      }
    }
    return valid;
  }

  /** Acks at once, writing nothing, what the handler's check says is not its concern. */
  private async concernedOnes(spec: EventHandlerSpec, events: Delivery[]): Promise<Delivery[]> {
    const check = spec.concerns?.bind(spec);
    if (!check) return events;
    const verdicts = await Promise.all(events.map((e) => this.concerns(check, e)));
    const concerned: Delivery[] = [];
    for (const [i, e] of events.entries()) {
      if (verdicts[i]) concerned.push(e);
      else e.msg.ack();
    }
    return concerned;
  }

  /** A check that fails counts as "concerns": the transaction decides then. */
  private async concerns(
    check: (event: object) => boolean | Promise<boolean>,
    e: Delivery,
  ): Promise<boolean> {
    try {
      return await check(e.payload);
    } catch (err) {
      this.logger.warn(
        `check of event ${e.msg.subject} ${e.eventId} failed: ${(err as Error).message}`,
      );
      return true;
    }
  }

  /**
   * One transaction for the events, acked once it commits. If it fails, none of it is kept, and
   * the events are applied again one by one: only one that fails on its own waits for a retry.
   */
  private async apply(spec: EventHandlerSpec, events: Delivery[]): Promise<void> {
    try {
      await this.options.db.$transaction((tx) => this.applyIn(tx, spec, events), {
        // a batch commits well before the server would send its events again; under load it
        // waits for a pooled connection instead of failing after Prisma's 2 s and backing off
        timeout: this.ackWaitMs / 2,
        maxWait: this.ackWaitMs / 2,
      });
      for (const e of events) e.msg.ack();
    } catch (err) {
      if (events.length === 1) return this.retryLater(events[0], err);
      this.logger.warn(
        `a batch of ${events.length} ${spec.subject} events failed, applying them one by one: ` +
          (err as Error).message,
      );
      for (const e of events) await this.apply(spec, [e]);
    }
  }

  private async applyIn(tx: OutboxTx, spec: EventHandlerSpec, events: Delivery[]): Promise<void> {
    const fresh = await this.recordProcessed(tx, events);
    for (const e of events) {
      // recorded before: a redelivery, another replica's, or twice in this batch
      if (!fresh.delete(e.eventId.toLowerCase())) continue;
      // as part of the request that wrote the event (its lines carry its X-Request-Id; the
      // event's id when it names none) and, with tracing on, in a span of the trace that
      // published it (its headers)
      const attributes = {
        'messaging.system': 'nats',
        'messaging.destination.name': e.msg.subject,
        'messaging.message.id': e.eventId,
        'messaging.consumer.group.name': this.options.service,
      };
      const span = { name: `consume ${e.msg.subject}`, kind: 'consumer' as const, attributes };
      await inMessageContext(
        span,
        e.msg.headers,
        async () => {
          await spec.handle(e.payload, {
            tx,
            eventId: e.eventId,
            subject: e.msg.subject,
            deliveryCount: e.msg.info.redeliveryCount,
          });
          // a handler says something only when it changed something worth a line
          this.logger.debug(`applied ${e.msg.subject} ${e.eventId}`);
        },
        e.eventId,
      );
    }
  }

  /** Records the events as processed in one statement; answers the ids that were not yet. */
  private async recordProcessed(tx: OutboxTx, events: Delivery[]): Promise<Set<string>> {
    // In id order: two replicas holding some of the same events (a redelivery) lock their rows
    // in the same order, so they wait for each other instead of deadlocking.
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO ${PROCESSED_TABLE} ("id", "subject")
       SELECT e.id, e.subject FROM unnest($1::uuid[], $2::varchar[]) AS e(id, subject) ORDER BY e.id
       ON CONFLICT ("id") DO NOTHING
       RETURNING "id"::text AS "id"`,
      events.map((e) => e.eventId),
      events.map((e) => e.msg.subject),
    );
    return new Set(rows.map((r) => r.id));
  }

  private retryLater(e: Delivery, err: unknown): void {
    const delay = backoffMs(
      e.msg.info.redeliveryCount,
      this.options.retryBaseMs ?? 1000,
      this.options.retryMaxMs ?? 60_000,
    );
    // with the request id of the change that wrote the event, as the handler's own lines
    runInRequest(messageFields(e.msg.headers, e.eventId), () =>
      this.logger.warn(
        `event ${e.msg.subject} ${e.eventId} failed, retry in ${delay} ms: ${(err as Error).message}`,
      ),
    );
    e.msg.nak(delay);
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

  /**
   * Lets each consumer finish the batch in hand and takes no more: what was read ahead, and what
   * its last pull still brings, goes back to the server.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const running = [...this.running.values()];
    this.running.clear();
    for (const batches of running) batches.close();
    await Promise.all(running.map((batches) => batches.pumped));
    await Promise.allSettled(this.loops);
  }
}
