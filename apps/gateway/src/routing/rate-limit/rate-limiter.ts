/** A quota: at most `quota` requests in any `windowSeconds` (named in the RateLimit headers). */
export interface RatePolicy {
  name: string;
  quota: number;
  windowSeconds: number;
}

/** How a policy stands after a request: what is left and when to look again. */
export interface PolicyState {
  policy: RatePolicy;
  /** Requests left in the window (0 on a refusal). */
  remaining: number;
  /** Seconds until the current window ends; on a refusal, until a request is allowed again. */
  resetSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** One per policy of the limiter, in its order. */
  states: PolicyState[];
  /** When refused: seconds until a request is allowed again (at least 1). */
  retryAfterSeconds: number;
}

/** A count one replica reports: its own requests for `key` in fixed window `window` of `policy`. */
export type CountEntry = [policy: string, key: string, window: number, count: number];

/** Another replica's count for one key and policy: its latest window and the one before. */
interface RemoteCount {
  window: number;
  count: number;
  prev: number;
}

/** One key under one policy, in the fixed window `window` and the one before it. */
interface Counter {
  window: number;
  /** This replica's requests in `window` and in `window - 1`. */
  own: number;
  ownPrev: number;
  /** `own` as last reported to the other replicas. */
  sent: number;
  /** The previous window's count changed after it was last reported (reported once more). */
  prevUnsent: boolean;
  /** Other replicas' counts, by replica id. */
  remote: Map<string, RemoteCount> | null;
}

export interface RateLimiterOptions {
  /** Keys remembered at most; the longest unused are forgotten first (memory stays bounded). */
  maxKeys: number;
  /** Replicas counting together, this one included (1 alone, or while NATS is down). */
  replicas: () => number;
  now?: () => number;
}

/**
 * Requests per key under one or more policies, counted in two fixed windows per policy and
 * weighed as a sliding window (the previous window's count times the part of it still inside the
 * sliding window, plus the current one), as Cloudflare and nginx-style limiters do: two numbers
 * per key instead of a timestamp per request, and no burst of 2 × quota at a window edge.
 *
 * Counts are shared between gateway replicas (RateLimitExchange): each replica counts its own
 * requests, reports the counts that changed every few hundred ms, and adds the others' reports.
 * What it has not reported yet (`pending`) is invisible to the others, so between two reports a
 * replica takes at most its share of what is left, (quota - known) / replicas, but always one
 * request while the quota is not used up: n replicas together then stay within the quota, give
 * or take n - 1 requests per report interval near the limit and what the weighted previous window
 * leaks as it fades. A client whose requests all reach one replica may see a 429 with
 * Retry-After: 1 before the quota is used up when it sends more than that share at once.
 */
export class RateLimiter {
  private readonly keys = new Map<string, Counter[]>();
  private readonly dirty = new Set<string>();
  private readonly byName: Map<string, number>;
  private readonly now: () => number;

  constructor(
    readonly policies: readonly RatePolicy[],
    private readonly options: RateLimiterOptions,
  ) {
    this.byName = new Map(policies.map((p, i) => [p.name, i]));
    this.now = options.now ?? Date.now;
  }

  /** Counts a request for `key` if every policy allows it; a refused request is not counted. */
  take(key: string): RateDecision {
    const now = this.now();
    const counters = this.keys.get(key);
    // Re-inserted below: the Map's order is then least recently used first.
    if (counters) this.keys.delete(key);
    const list = counters ?? this.policies.map(() => newCounter());
    this.keys.set(key, list);
    if (!counters) this.evict();
    const replicas = Math.max(1, this.options.replicas());
    const views = this.policies.map((p, i) => view(p, list[i], now, replicas));
    const refused = views.filter((v) => !v.allowed);
    if (refused.length) {
      const retryAfterSeconds = Math.max(...refused.map((v) => v.retryAfterSeconds));
      return {
        allowed: false,
        retryAfterSeconds,
        states: views.map((v) => ({
          policy: v.policy,
          remaining: v.allowed ? v.remaining : 0,
          resetSeconds: v.allowed ? v.resetSeconds : v.retryAfterSeconds,
        })),
      };
    }
    for (const counter of list) counter.own += 1;
    this.dirty.add(key);
    return {
      allowed: true,
      retryAfterSeconds: 0,
      states: views.map((v) => ({
        policy: v.policy,
        remaining: Math.max(0, v.remaining - 1),
        resetSeconds: v.resetSeconds,
      })),
    };
  }

  /** This replica's counts changed since the last call, to report to the others. */
  changes(): CountEntry[] {
    const entries: CountEntry[] = [];
    const now = this.now();
    for (const key of this.dirty) {
      const list = this.keys.get(key);
      if (!list) continue;
      this.policies.forEach((policy, i) => {
        const counter = list[i];
        const window = roll(counter, windowOf(policy, now));
        if (counter.prevUnsent) entries.push([policy.name, key, window - 1, counter.ownPrev]);
        if (counter.own > counter.sent) entries.push([policy.name, key, window, counter.own]);
        counter.prevUnsent = false;
        counter.sent = counter.own;
      });
    }
    this.dirty.clear();
    return entries;
  }

  /**
   * Another replica's report. Counts are absolute (not increments): a lost or repeated report
   * costs nothing, the next one carries the total again.
   */
  merge(replica: string, entries: readonly CountEntry[]): void {
    const now = this.now();
    for (const [name, key, window, count] of entries) {
      const i = this.byName.get(name);
      if (i === undefined || !Number.isFinite(count) || !Number.isInteger(window)) continue;
      const current = windowOf(this.policies[i], now);
      // older than the sliding window: weighs nothing
      if (window < current - 1) continue;
      let list = this.keys.get(key);
      if (!list) {
        list = this.policies.map(() => newCounter());
        this.keys.set(key, list);
        this.evict();
      }
      const counter = list[i];
      const remote = (counter.remote ??= new Map());
      const known = remote.get(replica);
      if (!known || window > known.window) {
        const prev = known?.window === window - 1 ? known.count : 0;
        remote.set(replica, { window, count, prev });
      } else if (window === known.window) known.count = Math.max(known.count, count);
      else if (window === known.window - 1) known.prev = Math.max(known.prev, count);
    }
  }

  /** Forgets keys whose counts have left the sliding window (called now and then). */
  sweep(): void {
    const now = this.now();
    for (const [key, list] of this.keys) {
      const stale = this.policies.every((p, i) => {
        const w = windowOf(p, now);
        const c = list[i];
        const latestRemote = c.remote
          ? Math.max(...[...c.remote.values()].map((r) => r.window))
          : -Infinity;
        return Math.max(c.window, latestRemote) < w - 1;
      });
      if (stale && !this.dirty.has(key)) this.keys.delete(key);
    }
  }

  /** Keys currently remembered (for tests). */
  get size(): number {
    return this.keys.size;
  }

  private evict(): void {
    if (this.keys.size <= this.options.maxKeys) return;
    const oldest = this.keys.keys().next().value as string;
    this.keys.delete(oldest);
    this.dirty.delete(oldest);
  }
}

const newCounter = (): Counter => ({
  window: 0,
  own: 0,
  ownPrev: 0,
  sent: 0,
  prevUnsent: false,
  remote: null,
});

/** The index of the fixed window `now` falls in (windows start at multiples of the length). */
export function windowOf(policy: RatePolicy, now: number): number {
  return Math.floor(now / (policy.windowSeconds * 1000));
}

/** Moves the counter on to `window` (its own counts of older windows shift or lapse). */
function roll(counter: Counter, window: number): number {
  if (counter.window === window) return window;
  const unsent = counter.own > counter.sent;
  counter.ownPrev = counter.window === window - 1 ? counter.own : 0;
  counter.prevUnsent = counter.window === window - 1 && unsent;
  counter.own = 0;
  counter.sent = 0;
  counter.window = window;
  return window;
}

interface View {
  policy: RatePolicy;
  allowed: boolean;
  remaining: number;
  resetSeconds: number;
  retryAfterSeconds: number;
}

/** Where a key stands under a policy now, and whether one more request fits. */
function view(policy: RatePolicy, counter: Counter, now: number, replicas: number): View {
  const windowMs = policy.windowSeconds * 1000;
  const window = roll(counter, windowOf(policy, now));
  const elapsed = (now - window * windowMs) / windowMs;
  let othersCur = 0;
  let othersPrev = 0;
  for (const r of counter.remote?.values() ?? []) {
    if (r.window === window) {
      othersCur += r.count;
      othersPrev += r.prev;
    } else if (r.window === window - 1) othersPrev += r.count;
  }
  const prev = counter.ownPrev + othersPrev;
  const pending = counter.own - counter.sent;
  // what every replica knows of (or will know of at the next report)
  const known = prev * (1 - elapsed) + othersCur + counter.sent;
  const total = known + pending;
  const quota = policy.quota;
  const share = Math.max(1, (quota - known) / replicas);
  const allowed = total + 1 <= quota && pending + 1 <= share;
  const resetSeconds = Math.max(1, Math.ceil((1 - elapsed) * policy.windowSeconds));
  return {
    policy,
    allowed,
    remaining: Math.max(0, Math.floor(quota - total)),
    resetSeconds,
    retryAfterSeconds: allowed
      ? 0
      : total + 1 <= quota
        ? 1 // only this replica's share is used up: the next report frees more
        : retryAfter(prev, othersCur + counter.own, elapsed, policy),
  };
}

/**
 * Seconds until prev × (1 - t) + cur ≤ quota - 1 as the window slides on without new requests:
 * within this window if the current count alone leaves room, else in the next one, where this
 * window's count is the one fading out.
 */
export function retryAfter(prev: number, cur: number, elapsed: number, policy: RatePolicy): number {
  const room = policy.quota - 1;
  let windows: number;
  if (cur <= room) {
    // prev × (1 - t) ≤ room - cur
    const t = prev > 0 ? 1 - (room - cur) / prev : elapsed;
    windows = Math.max(0, t - elapsed);
  } else {
    // next window: cur × (1 - t) ≤ room
    const t = cur > 0 ? 1 - room / cur : 0;
    windows = 1 - elapsed + t;
  }
  // to the millisecond first: 0.3 - 0.1 is not 0.2 in floating point
  return Math.max(1, Math.ceil(Math.round(windows * policy.windowSeconds * 1000) / 1000));
}
