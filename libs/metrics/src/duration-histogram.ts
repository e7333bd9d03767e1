import type { Registry } from 'prom-client';

/** One sample as prom-client's registry reads it from a metric's `get()`. */
interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  /** The series' labels (written after `labels`, as prom-client's Histogram does). */
  sharedLabels: Record<string, string>;
  value: number;
}

interface Series {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative); the last one is above every bound (+Inf). */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram of durations whose series are found by one string (the caller's key)
 * and counted in an array: the metric every answered request observes. prom-client's Histogram
 * checks and hashes the label object and turns the bucket's bound into a property name on every
 * observation; in a profile of the bare health route that was a fifth of what observing a
 * request cost. The text is still prom-client's: this is a metric of its registry, exported as
 * its own Histogram's are (`_bucket` cumulative with `le`, `+Inf`, `_sum`, `_count`).
 */
export class DurationHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly buckets: readonly number[];
  private readonly series = new Map<string, Series>();

  constructor(opts: { name: string; help: string; buckets: number[]; registers: Registry[] }) {
    this.name = opts.name;
    this.help = opts.help;
    this.buckets = [...opts.buckets].sort((a, b) => a - b);
    for (const registry of opts.registers) registry.registerMetric(this as never);
  }

  /** Counts `seconds` in the series `key`, whose labels (made only the first time) are `labels()`. */
  observe(key: string, labels: () => Record<L, string>, seconds: number): void {
    let s = this.series.get(key);
    if (!s) {
      s = { labels: labels(), counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    let i = 0;
    while (i < this.buckets.length && seconds > this.buckets[i]) i++;
    s.counts[i]++;
    s.sum += seconds;
    s.count++;
  }

  /** What prom-client's registry writes as text: the series' labels apart from `le`. */
  getForPromString() {
    const values: Sample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.series.values()) {
      let below = 0;
      this.buckets.forEach((le, i) => {
        below += s.counts[i];
        values.push({ metricName: bucket, labels: { le }, sharedLabels: s.labels, value: below });
      });
      values.push(
        { metricName: bucket, labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count },
        { metricName: `${this.name}_sum`, labels: {}, sharedLabels: s.labels, value: s.sum },
        { metricName: `${this.name}_count`, labels: {}, sharedLabels: s.labels, value: s.count },
      );
    }
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, aggregator, values });
  }

  /** What `registry.getMetricsAsJSON()` answers: every sample with all its labels. */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ metricName, labels, sharedLabels, value }) => ({
        metricName,
        labels: { ...labels, ...sharedLabels },
        value,
      })),
    };
  }

  /** Forgets every series (prom-client's `registry.resetMetrics()`). */
  reset(): void {
    this.series.clear();
  }
}
