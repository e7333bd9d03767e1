import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { connect, Events, JSONCodec, NatsConnection } from 'nats';
import { AccessChangedEvent, inMessageContext, Subjects } from '@crm/messaging';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { API_KEY_CACHE } from './api-key.verifier';
import { ApiKeyCache } from './api-key.cache';

const RETRY_MS = 1000;

/**
 * Listens for tenant-info's accessChanged events and drops the tenant's cached key answers.
 * A plain subscription, not a queue group: every gateway replica must hear every event.
 * Its connection also serves the readiness probe (is NATS reachable?).
 */
@Injectable()
export class AccessEventsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AccessEventsListener.name);
  private readonly codec = JSONCodec<unknown>();
  private nc: NatsConnection | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(API_KEY_CACHE) private readonly cache: ApiKeyCache,
  ) {}

  /** Not awaited: NATS being down at start must not keep the gateway from serving. */
  onApplicationBootstrap(): void {
    void this.connectLoop();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const nc = this.nc;
    this.nc = null;
    if (nc && !nc.isClosed()) await nc.close();
  }

  /** Resolves when the server answered a round trip within `timeoutMs`. */
  async ping(timeoutMs = 1000): Promise<void> {
    const nc = this.nc;
    if (!nc || nc.isClosed()) throw new Error('NATS is not connected');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        nc.flush(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('NATS did not answer')), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Handles one event; exported behaviour for tests (the envelope is Nest's `{ pattern, data }`). */
  handle(raw: unknown): void {
    const packet = raw as { pattern?: unknown; data?: unknown } | null;
    const event = (
      packet && typeof packet === 'object' && 'pattern' in packet ? packet.data : packet
    ) as Partial<AccessChangedEvent> | null;
    if (!event || typeof event.tenantId !== 'string' || !event.tenantId) {
      this.logger.warn(`ignored a malformed ${Subjects.tenantInfo.accessChanged} event`);
      return;
    }
    this.cache.dropTenant(event.tenantId);
  }

  private async connectLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        const nc = await connect({
          servers: this.config.NATS_URL.split(','),
          name: 'gateway-access-events',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
        });
        if (this.stopped) {
          await nc.close();
          return;
        }
        this.nc = nc;
        nc.subscribe(Subjects.tenantInfo.accessChanged, {
          callback: (err, msg) => {
            if (err) return this.logger.warn(`access events: ${err.message}`);
            // in the request that changed the access (its id in the lines; a consumer span of
            // its trace when tracing is on)
            const span = { name: `process ${msg.subject}`, kind: 'consumer' as const };
            void inMessageContext(span, msg.headers, async () => {
              try {
                this.handle(this.codec.decode(msg.data));
              } catch {
                this.logger.warn(`ignored an undecodable ${msg.subject} event`);
              }
            });
          },
        });
        void this.watch(nc);
        return;
      } catch (err) {
        this.logger.warn(`NATS not reachable (${(err as Error).message}); retrying`);
        await new Promise<void>((resolve) => {
          this.retryTimer = setTimeout(resolve, RETRY_MS);
        });
      }
    }
  }

  /**
   * Events published while we were disconnected are lost: on reconnect every answer is asked
   * again (valid ones stay as stale copies in case tenant-info is not back yet).
   */
  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === Events.Reconnect) this.cache.expireAll();
      if (status.type === Events.Disconnect) this.logger.warn('NATS disconnected');
    }
  }
}
