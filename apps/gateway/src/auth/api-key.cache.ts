import type { VerifyApiKeyReply } from '@crm/messaging';

interface Entry {
  reply: VerifyApiKeyReply;
  expiresAt: number;
}

/**
 * Verification answers of tenant-info by key hash, valid and invalid alike, for a short time:
 * every request carries a key, and asking NATS each time would double the latency. Revocations
 * and tariff changes arrive as accessChanged events and drop a tenant's entries at once; the
 * TTL is the backstop for a missed event.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every drop: an answer requested before a drop must not be stored after it. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get currentGeneration(): number {
    return this.generation;
  }

  get(keyHash: string): VerifyApiKeyReply | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.reply;
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
    this.entries.set(keyHash, { reply, expiresAt: this.now() + this.ttlMs });
  }

  /**
   * Forgets every answer about the tenant's keys, and every "invalid" answer too: a key that was
   * unknown may have just been issued with a fixed value.
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

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
