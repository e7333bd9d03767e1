export interface RateLimitOptions {
  /** Requests a client may make per minute, sustained. */
  perMinute: number;
  /** Requests a client may make at once after being idle (bucket size). */
  burst: number;
  /** Clients remembered at most; the longest idle are forgotten first (memory stays bounded). */
  maxClients: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * A token bucket per client address for the public operations (no API key, so the client
 * address is the only thing to count by): `burst` requests at once, then `perMinute` per
 * minute. Buckets live in this process: with n gateway replicas behind a balancer a client gets
 * up to n times the rate, which is the price of not needing a shared store; the limit is there
 * to stop one client from flooding a portal, not to meter it exactly.
 */
export class PublicRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.refillPerMs = options.perMinute / 60_000;
  }

  take(client: string): RateDecision {
    const now = this.now();
    const bucket = this.buckets.get(client);
    let tokens = this.options.burst;
    if (bucket) {
      tokens = Math.min(
        this.options.burst,
        bucket.tokens + (now - bucket.updatedMs) * this.refillPerMs,
      );
      // Re-inserted below: the Map's order is then least recently seen first.
      this.buckets.delete(client);
    }
    if (tokens < 1) {
      this.buckets.set(client, { tokens, updatedMs: now });
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.refillPerMs / 1000)),
      };
    }
    this.buckets.set(client, { tokens: tokens - 1, updatedMs: now });
    if (this.buckets.size > this.options.maxClients) {
      const oldest = this.buckets.keys().next().value as string;
      this.buckets.delete(oldest);
    }
    return { allowed: true };
  }

  /** Clients currently remembered (for tests). */
  get size(): number {
    return this.buckets.size;
  }
}
