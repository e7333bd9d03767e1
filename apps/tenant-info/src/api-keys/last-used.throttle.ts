/**
 * Decides when a verified key's `lastUsed` is written: at most once per interval per key, so the
 * gateway's hot path does not turn every request into a write. The stored value covers other
 * replicas; the in-memory map covers a burst that arrives before this replica's own write lands.
 */
export class LastUsedThrottle {
  private readonly written = new Map<string, number>();

  constructor(
    readonly intervalMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  shouldWrite(keyId: string, lastUsed: Date | null, now: number): boolean {
    if (lastUsed && now - lastUsed.getTime() < this.intervalMs) return false;
    const mine = this.written.get(keyId);
    if (mine !== undefined && now - mine < this.intervalMs) return false;
    if (this.written.size >= this.maxEntries) this.prune(now);
    this.written.set(keyId, now);
    return true;
  }

  /** Entries older than the interval decide nothing any more; drop them to bound memory. */
  private prune(now: number) {
    for (const [id, at] of this.written) if (now - at >= this.intervalMs) this.written.delete(id);
    if (this.written.size >= this.maxEntries) this.written.clear();
  }
}
