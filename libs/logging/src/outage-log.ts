/** Where an OutageLog writes (a Nest Logger fits). */
export interface OutageLogger {
  warn(message: string): void;
  log(message: string): void;
}

interface Outage {
  since: number;
  failed: number;
  /** Failures since the last line written. */
  unreported: number;
  lastLine: number;
  lastFailure: number;
  reason: string;
}

/**
 * Logs a dependency's outages, not each call that failed because of one (an outage of a few
 * minutes under load was thousands of identical warnings): the first failure as a warning, then
 * at most one line per `summaryMs` while it lasts with the count of calls that failed meanwhile,
 * and one line when the dependency answers again (`succeeded`). Where no success is seen, an
 * outage ends after `quietMs` without failures, so the next one is reported again.
 */
export class OutageLog {
  private readonly outages = new Map<string, Outage>();

  constructor(
    private readonly logger: OutageLogger,
    private readonly options: { summaryMs?: number; quietMs?: number; now?: () => number } = {},
  ) {}

  private get now() {
    return this.options.now?.() ?? Date.now();
  }

  /** A call to `dependency` failed for `reason`. */
  failed(dependency: string, reason: string): void {
    const now = this.now;
    const summaryMs = this.options.summaryMs ?? 60_000;
    let outage = this.outages.get(dependency);
    if (outage && now - outage.lastFailure > (this.options.quietMs ?? 60_000)) {
      this.ended(dependency, outage, outage.lastFailure);
      outage = undefined;
    }
    if (!outage) {
      this.outages.set(dependency, {
        since: now,
        failed: 1,
        unreported: 0,
        lastLine: now,
        lastFailure: now,
        reason,
      });
      this.logger.warn(`${dependency} unavailable: ${reason}`);
      return;
    }
    outage.failed += 1;
    outage.unreported += 1;
    outage.lastFailure = now;
    outage.reason = reason;
    if (now - outage.lastLine >= summaryMs) {
      this.logger.warn(
        `${dependency} still unavailable after ${seconds(now - outage.since)}: ${outage.unreported} more calls failed (last: ${reason})`,
      );
      outage.unreported = 0;
      outage.lastLine = now;
    }
  }

  /** A call to `dependency` succeeded: an outage in progress ends here. */
  succeeded(dependency: string): void {
    if (!this.outages.size) return;
    const outage = this.outages.get(dependency);
    if (outage) this.ended(dependency, outage, this.now);
  }

  private ended(dependency: string, outage: Outage, at: number): void {
    this.outages.delete(dependency);
    this.logger.log(
      `${dependency} available again after ${seconds(at - outage.since)}; ${outage.failed} calls failed during the outage`,
    );
  }
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
