import {
  DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  ModuleMetadata,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { CONSUME_EVENT, ConsumeEventMetadata, EventConsumer } from './event-consumer';
import { EventStreamSpec } from './event-stream';
import { JetStreamConnection } from './jetstream-connection';
import { OutboxDb } from './outbox-db';
import { OutboxRelay, OutboxRelayOptions } from './outbox-relay';

export interface OutboxEventsOptions {
  service: string;
  natsUrl: string;
  /** The service's database client (its PrismaService). */
  db: OutboxDb;
  /** The same database's URL: the relay LISTENs there to wake right after a commit. */
  databaseUrl?: string;
  relay?: Pick<OutboxRelayOptions, 'pollIntervalMs' | 'batchSize' | 'retryBaseMs' | 'retryMaxMs'>;
  /** Redelivery delays after a handler error. */
  consumerRetryBaseMs?: number;
  consumerRetryMaxMs?: number;
  stream?: EventStreamSpec;
  /**
   * false: this process runs no consumer (its @ConsumeEvent handlers stay idle; another process
   * of the service, e.g. its worker, consumes). Default true.
   */
  consume?: boolean;
}

export const OUTBOX_EVENTS_OPTIONS = Symbol('OUTBOX_EVENTS_OPTIONS');

export interface OutboxEventsAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's own factory signature
  useFactory: (...deps: any[]) => OutboxEventsOptions;
  inject?: (string | symbol | (abstract new (...args: never[]) => unknown))[];
}

/** Starts the relay with the module, the consumers once every provider exists; stops both. */
@Injectable()
class OutboxEventsLifecycle implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('OutboxEvents');

  constructor(
    private readonly relay: OutboxRelay,
    private readonly consumer: EventConsumer,
    private readonly conn: JetStreamConnection,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(OUTBOX_EVENTS_OPTIONS) private readonly options: OutboxEventsOptions,
    @Optional() private readonly metrics?: AppMetrics,
  ) {}

  onModuleInit(): void {
    this.relay.start();
    this.addMetrics();
  }

  /** The queues an operator watches for stuck work: the outbox backlog and the consumer lag. */
  private addMetrics(): void {
    const metrics = this.metrics;
    if (!metrics) return;
    const backlog = metrics.shared(() => this.relay.backlog());
    const lag = metrics.shared(() => this.consumer.lag());
    metrics.gauge(
      'outbox_pending_events',
      'Events written to the outbox and not yet published to JetStream',
      async () => (await backlog()).pending,
    );
    metrics.gauge(
      'outbox_oldest_pending_seconds',
      'Age of the oldest event not yet published (0 when none waits)',
      async () => (await backlog()).oldestSeconds,
    );
    metrics.gauge(
      'jetstream_consumer_pending_events',
      'Events of a subject this service has not yet taken from JetStream (consumer lag)',
      async () =>
        (await lag()).map((l) => ({
          labels: { subject: l.subject },
          value: l.pending,
        })),
      ['subject'],
    );
    metrics.gauge(
      'jetstream_consumer_unacknowledged_events',
      'Events taken from JetStream and not yet acknowledged (being applied, or failing)',
      async () =>
        (await lag()).map((l) => ({
          labels: { subject: l.subject },
          value: l.ackPending,
        })),
      ['subject'],
    );
  }

  onApplicationBootstrap(): void {
    if (this.options.consume === false) return;
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isAlias) continue;
      const proto = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const method = instance[name] as ((...args: unknown[]) => Promise<void>) | undefined;
        if (typeof method !== 'function') continue;
        const meta = this.reflector.get<ConsumeEventMetadata | undefined>(CONSUME_EVENT, method);
        if (!meta) continue;
        const { concerns } = meta;
        this.consumer.register({
          subject: meta.subject,
          payload: meta.payload,
          maxBatch: meta.maxBatch,
          concerns: concerns && ((event: object) => concerns(event, instance)),
          handle: (event, ctx) => method.call(instance, event, ctx),
        });
      }
    }
    // In the background: a service starts (and answers 503 where needed) while NATS is down.
    void this.consumer.start().catch((err) => this.logger.error((err as Error).message));
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
    await this.consumer.stop();
    await this.conn.close();
  }
}

/**
 * Cross-service events of a service: the outbox relay (its table -> JetStream) and the consumers
 * declared with @ConsumeEvent on any provider. Import once per service, e.g.
 * `OutboxEventsModule.forRootAsync({ inject: [PrismaService, SERVICE_CONFIG], useFactory: ... })`.
 */
@Module({})
export class OutboxEventsModule {
  static forRootAsync(options: OutboxEventsAsyncOptions): DynamicModule {
    return {
      module: OutboxEventsModule,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers: [
        {
          provide: OUTBOX_EVENTS_OPTIONS,
          useFactory: options.useFactory,
          inject: options.inject ?? [],
        },
        {
          provide: JetStreamConnection,
          useFactory: (o: OutboxEventsOptions) =>
            new JetStreamConnection({ service: o.service, natsUrl: o.natsUrl, stream: o.stream }),
          inject: [OUTBOX_EVENTS_OPTIONS],
        },
        {
          provide: OutboxRelay,
          useFactory: (conn: JetStreamConnection, o: OutboxEventsOptions) =>
            new OutboxRelay(conn, {
              service: o.service,
              db: o.db,
              databaseUrl: o.databaseUrl,
              ...o.relay,
            }),
          inject: [JetStreamConnection, OUTBOX_EVENTS_OPTIONS],
        },
        {
          provide: EventConsumer,
          useFactory: (conn: JetStreamConnection, o: OutboxEventsOptions) =>
            new EventConsumer(conn, {
              service: o.service,
              db: o.db,
              retryBaseMs: o.consumerRetryBaseMs,
              retryMaxMs: o.consumerRetryMaxMs,
            }),
          inject: [JetStreamConnection, OUTBOX_EVENTS_OPTIONS],
        },
        OutboxEventsLifecycle,
      ],
      exports: [OutboxRelay, EventConsumer, JetStreamConnection],
    };
  }
}
