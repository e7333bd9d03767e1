import { collectDefaultMetrics, Counter, Gauge, type LabelValues, Registry } from 'prom-client';
import { DurationHistogram } from './duration-histogram';

/** A finished HTTP request, as requestLogging and the gateway's REST proxy see it. */
export interface RequestObservation {
  method: string;
  /** The route's template: a bounded set of label values, never a raw path. */
  route: string;
  status: number;
  durationMs: number;
}

/** One sample of a gauge that is read when scraped: its labels and value. */
export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

/** What a gauge or counter read at scrape time gives: one value, or samples by labels. */
type SampleRead = () => Promise<number | GaugeSample[]> | number | GaugeSample[];

/** How a gauge or counter read at scrape time is made (what both constructors take). */
interface ScrapedConfiguration<M> {
  name: string;
  help: string;
  labelNames: string[];
  registers: Registry[];
  collect(this: M): Promise<void>;
}

/**
 * Seconds: most calls take milliseconds; an on-sale's p99 and a slow upstream are seconds. Steps
 * of at most 1.5x from 10 ms to 1 s, where the p99s of a healthy stack are: with steps of 2-2.5x
 * (50, 100, 250 ms) a minute's p99, interpolated inside its bucket, jumped by more than the 10 %
 * the soak compares (issue 23). Each observation finds its bucket among 21; the cost is not
 * measurable beside the request's.
 */
const DURATION_BUCKETS = [
  0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1,
  1.5, 2.5, 5, 10,
];

/**
 * How long a scrape waits for the gauges read from the database or NATS, at most: less than the
 * 10 s Prometheus waits by default, and shortened to half of a shorter scrape timeout (text()).
 */
const READ_BUDGET_MS = 2000;
const LATE = Symbol('late');

/**
 * The Prometheus metrics of one app (prom-client), every series labelled with `app`: the
 * process's own (CPU, heap, event-loop delay, GC, handles: prom-client's defaults), requests by
 * route template (rate, errors and duration from one histogram), and the gauges the app's modules
 * add for their queues and pools (read when scraped, so nothing runs between scrapes).
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests: DurationHistogram<'method' | 'route' | 'status'>;
  private readonly readFailures: Counter<'metric' | 'reason'>;
  private readBudgetMs = READ_BUDGET_MS;

  constructor(readonly app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.requests = new DurationHistogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route template and status, with their duration',
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    this.readFailures = new Counter({
      name: 'metrics_read_failures_total',
      help: 'Gauges left out of a scrape: their read failed (error) or outlasted the scrape (timeout)',
      labelNames: ['metric', 'reason'],
      registers: [this.registry],
    });
  }

  /** Counts a finished request in its series (method, route template, status). */
  observeRequest(o: RequestObservation): void {
    this.requests.observe(
      `${o.method} ${o.status} ${o.route}`,
      () => ({ method: o.method, route: o.route, status: String(o.status) }),
      o.durationMs / 1000,
    );
  }

  /**
   * A gauge read when scraped. A read that fails, or is still running when the scrape's budget
   * is spent, leaves the gauge without samples for that scrape (an absent series, which alerts
   * can see) instead of failing or stalling the whole scrape, and counts in
   * `metrics_read_failures_total`.
   */
  gauge(name: string, help: string, read: SampleRead, labelNames: string[] = []): void {
    this.readWhenScraped<Gauge>(Gauge, name, help, read, labelNames, (g, labels, v) =>
      g.set(labels, v),
    );
  }

  /**
   * A counter kept by someone else (a total that only grows while the process runs, e.g. a
   * pool's acquisitions that had to wait), read when scraped like `gauge`; the name ends in
   * `_total`. A read that fails or is late leaves it without samples for that scrape.
   */
  counter(name: string, help: string, read: SampleRead, labelNames: string[] = []): void {
    this.readWhenScraped<Counter>(Counter, name, help, read, labelNames, (c, labels, v) =>
      c.inc(labels, v),
    );
  }

  /** A gauge or counter whose samples `read` gives at each scrape; `put` writes one of them. */
  private readWhenScraped<M extends Gauge | Counter>(
    Kind: new (config: ScrapedConfiguration<M>) => M,
    name: string,
    help: string,
    read: SampleRead,
    labelNames: string[],
    put: (metric: M, labels: LabelValues<string>, value: number) => void,
  ): void {
    const sample = this.boundedRead(name, read);
    new Kind({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect(this: M) {
        this.reset();
        const value = await sample();
        // absent, not 0: an unlabelled series comes back from reset() as 0 ("nothing pending")
        if (value === null) return labelNames.length ? undefined : this.remove({});
        if (typeof value === 'number') return put(this, {}, value);
        for (const s of value) put(this, s.labels ?? {}, s.value);
      },
    });
  }

  /**
   * `read` within the scrape's budget, or null. A scrape answers with what it has when a query
   * waits for a pool that is full or a NATS that is slow: that is when an operator needs the
   * rest of the page (the pool, the event loop), and a scrape that times out reads as the app
   * being down. A read still running is joined, not started again, so a stuck dependency holds
   * one query per gauge, not one per scrape.
   */
  private boundedRead<T>(name: string, read: () => Promise<T> | T): () => Promise<T | null> {
    let running: Promise<T> | null = null;
    return async () => {
      if (!running) {
        const started = Promise.resolve().then(read);
        running = started;
        const done = () => {
          if (running === started) running = null;
        };
        started.then(done, done);
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<typeof LATE>((resolve) => {
        timer = setTimeout(() => resolve(LATE), this.readBudgetMs);
      });
      try {
        const value = await Promise.race([running, late]);
        if (value !== LATE) return value;
        this.readFailures.inc({ metric: name, reason: 'timeout' });
      } catch {
        this.readFailures.inc({ metric: name, reason: 'error' });
      } finally {
        clearTimeout(timer);
      }
      return null;
    };
  }

  /**
   * `read` shared by the gauges of one scrape: several gauges drawn from one query (a count per
   * status) run it once, not once each. A read is reused for a second, then made again.
   */
  shared<T>(read: () => Promise<T>, reuseMs = 1000): () => Promise<T> {
    let last: { at: number; value: Promise<T> } | null = null;
    return () => {
      const now = Date.now();
      if (!last || now - last.at >= reuseMs) last = { at: now, value: read() };
      return last.value;
    };
  }

  /**
   * The exposition text (Prometheus text format 0.0.4). `scrapeTimeoutSeconds` is what the
   * scraper waits (Prometheus sends it in X-Prometheus-Scrape-Timeout-Seconds): the reads get
   * half of it, the rest is left for a busy event loop and the network. Two scrapers at once
   * share the budget last given (a budget, not a correctness matter).
   */
  text(scrapeTimeoutSeconds?: number): Promise<string> {
    this.readBudgetMs =
      scrapeTimeoutSeconds !== undefined && scrapeTimeoutSeconds > 0
        ? Math.min(READ_BUDGET_MS, (scrapeTimeoutSeconds * 1000) / 2)
        : READ_BUDGET_MS;
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
