import { randomUUID } from 'node:crypto';
import type { CountEntry, RateLimiter } from './rate-limiter';

/**
 * Core NATS subject of the reports of one group of replicas (RATE_LIMIT_GROUP). Not JetStream: a
 * report is worth something for a few hundred ms, a lost one is replaced by the next (counts are
 * absolute), and a stream would put a disk write on every report. Four tokens: the event stream's
 * three-token patterns (`*.*.created`, ...) never capture it.
 */
export const rateLimitSubject = (group: string) => `crm.gateway.rate-limits.${group}`;
/** NATS carries at most 1 MiB per message; reports are cut well below it. */
const ENTRIES_PER_MESSAGE = 5000;

/** One report: who sends it and its counts ([policy, key, window, count], policies unique). */
interface Report {
  r: string;
  c: CountEntry[];
}

export interface ExchangeLogger {
  log(message: string): void;
  warn(message: string): void;
}

/**
 * The replicas' exchange of counts: every `intervalMs` each replica reports the counts that
 * changed (an empty report says it is alive), and adds the others'. The number of replicas heard
 * from lately divides what is left of a quota between them (RateLimiter). While NATS is down the
 * peers are forgotten: each replica limits on what it counts itself (and what it heard before),
 * so a key gets up to n × its quota across n replicas, never less than its quota and never
 * unbounded; it says so once when that starts and once when it ends.
 */
export class RateLimitExchange {
  readonly replicaId = randomUUID();
  private readonly limiters = new Map<string, RateLimiter>();
  /** Replica id -> when it was last heard from, and how many reports it sent. */
  private readonly peers = new Map<string, { heard: number; reports: number }>();
  private shared: boolean | null = null;

  constructor(
    limiters: readonly RateLimiter[],
    private readonly options: {
      /** The NATS subject of the group (named in the log lines). */
      subject: string;
      intervalMs: number;
      logger: ExchangeLogger;
      now?: () => number;
    },
  ) {
    for (const limiter of limiters)
      for (const policy of limiter.policies) this.limiters.set(policy.name, limiter);
  }

  /** Replicas counting together, this one included. */
  readonly replicas = (): number => {
    const now = this.now();
    let n = 1;
    for (const [id, { heard }] of this.peers) {
      if (now - heard <= this.peerTtlMs) n += 1;
      else this.peers.delete(id);
    }
    return n;
  };

  /** The reports to publish now (at least one: it tells the others this replica is there). */
  reports(): Uint8Array[] {
    const entries = [...new Set(this.limiters.values())].flatMap((l) => l.changes());
    const out: Uint8Array[] = [];
    for (let i = 0; i === 0 || i < entries.length; i += ENTRIES_PER_MESSAGE) {
      const report: Report = { r: this.replicaId, c: entries.slice(i, i + ENTRIES_PER_MESSAGE) };
      out.push(Buffer.from(JSON.stringify(report)));
    }
    return out;
  }

  /** Another replica's report (own and malformed ones are ignored). */
  receive(data: Uint8Array): void {
    let report: Report;
    try {
      report = JSON.parse(Buffer.from(data).toString('utf8')) as Report;
    } catch {
      return;
    }
    if (typeof report?.r !== 'string' || report.r === this.replicaId || !Array.isArray(report.c))
      return;
    const peer = this.peers.get(report.r);
    this.peers.set(report.r, { heard: this.now(), reports: (peer?.reports ?? 0) + 1 });
    const byLimiter = new Map<RateLimiter, CountEntry[]>();
    for (const entry of report.c) {
      if (!Array.isArray(entry) || entry.length !== 4) continue;
      const limiter = this.limiters.get(entry[0]);
      if (!limiter) continue;
      let list = byLimiter.get(limiter);
      if (!list) byLimiter.set(limiter, (list = []));
      list.push(entry);
    }
    for (const [limiter, list] of byLimiter) limiter.merge(report.r, list);
  }

  /** Forgets keys that left their windows. */
  sweep(): void {
    for (const limiter of new Set(this.limiters.values())) limiter.sweep();
  }

  /** NATS connected (true) or lost (false): logged when it changes. */
  setShared(shared: boolean, reason = ''): void {
    if (shared === this.shared) return;
    const first = this.shared === null;
    this.shared = shared;
    if (shared) {
      this.options.logger.log(
        `rate limits shared with the other gateway replicas through NATS (${this.options.subject})`,
      );
      return;
    }
    // peers are no longer heard: the quota is this replica's alone until NATS is back
    this.peers.clear();
    if (first && !reason) return;
    this.options.logger.warn(
      `rate limits counted by this replica alone: NATS unreachable${reason ? ` (${reason})` : ''}; ` +
        'across n replicas a key gets up to n × its quota until NATS is back',
    );
  }

  /** Reports received from `replicaId` (while it is a peer; for tests and diagnostics). */
  reportsFrom(replicaId: string): number {
    return this.peers.get(replicaId)?.reports ?? 0;
  }

  get isShared(): boolean {
    return this.shared === true;
  }

  /** A replica not heard from for this long is taken as gone (5 reports missed, at least 1 s). */
  private get peerTtlMs(): number {
    return Math.max(1000, 5 * this.options.intervalMs);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
