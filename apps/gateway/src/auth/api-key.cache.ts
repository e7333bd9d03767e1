import type { VerifyApiKeyReply } from '@crm/messaging';

interface Entry {
  reply: VerifyApiKeyReply;
  /** Until then the answer is used without asking tenant-info. */
  freshUntil: number;
  /** Until then a valid answer may stand in while tenant-info cannot be asked (stale-if-error). */
  staleUntil: number;
}

export interface ApiKeyCacheOptions {
  /** How long an answer is used as it is; 0 disables the cache. */
  ttlMs: number;
  /** How long after verification a valid answer may be used while the bus is down; 0: never. */
  staleMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Verification answers of tenant-info by key hash, valid and invalid alike, for a short time:
 * every request carries a key, and asking NATS each time would double the latency. Revocations
 * and tariff changes arrive as accessChanged events and drop a tenant's entries at once; the
 * TTL is the backstop for a missed event.
 *
 * A valid answer is also kept as a stale copy for `staleMs` after it was verified: while NATS or
 * tenant-info does not answer, the gateway keeps accepting keys it verified recently rather
 * than failing every request (a revocation made during the outage is heard when the bus is back).
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every drop: an answer requested before a drop must not be stored after it. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: ApiKeyCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.staleMs = options.ttlMs > 0 ? Math.max(options.staleMs ?? 0, options.ttlMs) : 0;
    this.maxEntries = options.maxEntries ?? 10000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get currentGeneration(): number {
    return this.generation;
  }

  /** A fresh answer, or undefined (absent or past its TTL). */
  get(keyHash: string): VerifyApiKeyReply | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.freshUntil > now) return entry.reply;
    if (!entry.reply.valid || entry.staleUntil <= now) this.entries.delete(keyHash);
    return undefined;
  }

  /** A valid answer verified less than `staleMs` ago, for when tenant-info cannot be asked. */
  getStale(keyHash: string): VerifyApiKeyReply | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry?.reply.valid) return undefined;
    if (entry.staleUntil > this.now()) return entry.reply;
    this.entries.delete(keyHash);
    return undefined;
  }

  /** Stores an answer unless the cache was invalidated since `generation` was read. */
  set(keyHash: string, reply: VerifyApiKeyReply, generation = this.generation): void {
    if (this.ttlMs <= 0 || generation !== this.generation) return;
    this.entries.delete(keyHash);
    // Bounded: a client cycling through made-up keys must not grow the map without limit.
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    const now = this.now();
    this.entries.set(keyHash, {
      reply,
      freshUntil: now + this.ttlMs,
      staleUntil: now + (reply.valid ? this.staleMs : this.ttlMs),
    });
  }

  /**
   * Forgets every answer about the tenant's keys, stale copies included, and every "invalid"
   * answer too: a key that was unknown may have just been issued with a fixed value.
   */
  dropTenant(tenantId: string): void {
    this.generation++;
    for (const [hash, { reply }] of this.entries) {
      if (!reply.valid || reply.tenantId === tenantId) this.entries.delete(hash);
    }
  }

  dropInvalid(): void {
    this.generation++;
    for (const [hash, { reply }] of this.entries) if (!reply.valid) this.entries.delete(hash);
  }

  /**
   * Events may have been missed (the bus was away): every answer must be asked again, but the
   * valid ones stay as stale copies in case tenant-info still cannot answer.
   */
  expireAll(): void {
    this.generation++;
    for (const [hash, entry] of this.entries) {
      if (entry.reply.valid) entry.freshUntil = 0;
      else this.entries.delete(hash);
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
