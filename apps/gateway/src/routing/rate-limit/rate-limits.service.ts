import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { connect, Events, type NatsConnection } from 'nats';
import { GATEWAY_CONFIG, type GatewayConfig } from '../../config';
import { RateLimitExchange, rateLimitSubject } from './rate-limit-exchange';
import { type RateDecision, RateLimiter, type RatePolicy } from './rate-limiter';

const RETRY_MS = 1000;
/** Keys (or client addresses) remembered per limiter at most. */
const MAX_KEYS = 100_000;

/** The policies of keyed calls: KEY_RATE_LIMIT_PER_MINUTE per API key. */
export function keyPolicies(config: GatewayConfig): RatePolicy[] {
  return [{ name: 'key', quota: config.KEY_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 }];
}

/**
 * The policies of public calls, per client address: PUBLIC_RATE_LIMIT_PER_MINUTE a minute, and
 * PUBLIC_RATE_LIMIT_BURST in the time that rate takes to earn them (what the token bucket of a
 * single replica allowed: 60 at once, then 300 a minute, is at most 60 in 12 s). A burst of the
 * minute's quota or more adds nothing to the minute's own limit and is left out.
 */
export function publicPolicies(config: GatewayConfig): RatePolicy[] {
  const perMinute = config.PUBLIC_RATE_LIMIT_PER_MINUTE;
  const burst = config.PUBLIC_RATE_LIMIT_BURST;
  const minute = { name: 'public', quota: perMinute, windowSeconds: 60 };
  if (burst >= perMinute) return [minute];
  const windowSeconds = Math.max(1, Math.ceil((burst * 60) / perMinute));
  return [minute, { name: 'public-burst', quota: burst, windowSeconds }];
}

/**
 * The gateway's rate limits, per API key (keyed REST calls and /graphql) and per client address
 * (public operations), counted together by every gateway replica: each counts in memory (no NATS
 * round trip on a request) and they exchange their counts over core NATS every
 * RATE_LIMIT_SYNC_MS (RateLimitExchange, RateLimiter). Connected at start, not awaited: NATS being
 * down at start must not keep the gateway from serving; until it answers, limits are local.
 */
@Injectable()
export class RateLimits implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  readonly exchange: RateLimitExchange;
  private readonly keyCalls: RateLimiter;
  private readonly publicCalls: RateLimiter;
  private nc: NatsConnection | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private lastSweep = Date.now();
  private readonly subject: string;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    this.subject = rateLimitSubject(config.RATE_LIMIT_GROUP);
    const replicas = () => this.exchange.replicas();
    this.keyCalls = new RateLimiter(keyPolicies(config), { maxKeys: MAX_KEYS, replicas });
    this.publicCalls = new RateLimiter(publicPolicies(config), { maxKeys: MAX_KEYS, replicas });
    this.exchange = new RateLimitExchange([this.keyCalls, this.publicCalls], {
      subject: this.subject,
      intervalMs: config.RATE_LIMIT_SYNC_MS,
      logger: this.logger,
    });
  }

  /** A call with the verified API key `keyId`. */
  takeKey(keyId: string): RateDecision {
    return this.keyCalls.take(keyId);
  }

  /** A public call from `address`. */
  takePublic(address: string): RateDecision {
    return this.publicCalls.take(address);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.tick(), this.config.RATE_LIMIT_SYNC_MS);
    this.timer.unref();
    void this.connectLoop();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const nc = this.nc;
    this.nc = null;
    if (nc && !nc.isClosed()) await nc.close().catch(() => undefined);
  }

  /** Reports this replica's changed counts (only while connected: else they wait). */
  private tick(): void {
    const now = Date.now();
    if (now - this.lastSweep >= 10_000) {
      this.lastSweep = now;
      this.exchange.sweep();
    }
    const nc = this.nc;
    if (!nc || !this.exchange.isShared) return;
    try {
      for (const report of this.exchange.reports()) nc.publish(this.subject, report);
    } catch (err) {
      this.exchange.setShared(false, (err as Error).message);
    }
  }

  private async connectLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        const nc = await connect({
          servers: this.config.NATS_URL.split(','),
          name: 'gateway-rate-limits',
          // a replica's own reports are not sent back to it
          noEcho: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
        });
        if (this.stopped) {
          await nc.close();
          return;
        }
        nc.subscribe(this.subject, {
          callback: (err, msg) => {
            if (!err) this.exchange.receive(msg.data);
          },
        });
        this.nc = nc;
        this.exchange.setShared(true);
        void this.watch(nc);
        return;
      } catch (err) {
        this.exchange.setShared(false, (err as Error).message);
        await new Promise<void>((resolve) => {
          this.retryTimer = setTimeout(resolve, RETRY_MS);
        });
      }
    }
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) this.exchange.setShared(false, 'disconnected');
      if (status.type === Events.Reconnect) this.exchange.setShared(true);
    }
  }
}
