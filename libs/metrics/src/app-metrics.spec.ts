import { AppMetrics } from './app-metrics';

/** The samples of `name` in Prometheus text, each with its labels. */
function samples(text: string, name: string) {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => {
      const [, labels, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line) ?? [];
      return {
        labels: Object.fromEntries(
          [...labels.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
        ),
        value: Number(value),
      };
    });
}

describe('AppMetrics.observeRequest', () => {
  it('counts each method, route template and status in its own series, with the app label', async () => {
    const metrics = new AppMetrics('crm-people');
    const seen = (status: number, route = '/v1/crm/people/:id', method = 'GET') =>
      metrics.observeRequest({ method, route, status, durationMs: 12 });
    seen(200);
    seen(200);
    seen(404);
    seen(201, '/v1/crm/people', 'POST');
    const text = await metrics.registry.metrics();
    const counts = samples(text, 'http_request_duration_seconds_count').map((s) => [
      s.labels.app,
      s.labels.method,
      s.labels.route,
      s.labels.status,
      s.value,
    ]);
    expect(counts.sort()).toEqual([
      ['crm-people', 'GET', '/v1/crm/people/:id', '200', 2],
      ['crm-people', 'GET', '/v1/crm/people/:id', '404', 1],
      ['crm-people', 'POST', '/v1/crm/people', '201', 1],
    ]);
    // 12 ms falls in the 15 ms bucket, not the 10 ms one (steps of at most 1.5x up to 1 s)
    const bucket = (le: string) =>
      samples(text, 'http_request_duration_seconds_bucket').find(
        (s) => s.labels.le === le && s.labels.status === '200',
      )?.value;
    expect(bucket('0.01')).toBe(0);
    expect(bucket('0.015')).toBe(2);
    expect(bucket('0.025')).toBeUndefined();
  });
});

describe('AppMetrics gauges read when scraped', () => {
  it('a read that hangs leaves its gauge out of the scrape, answered within the budget, and is not started again while it runs', async () => {
    const metrics = new AppMetrics('events');
    let reads = 0;
    let finish: (v: number) => void = () => undefined;
    metrics.gauge('stuck_queue', 'waits for a pool that is full', () => {
      reads++;
      return new Promise<number>((resolve) => (finish = resolve));
    });
    metrics.gauge('healthy_queue', 'answers', async () => 7);
    metrics.gauge('failing_queue', 'throws', async () => {
      throw new Error('connection refused');
    });

    // a scraper that waits 0.4 s: the reads get 0.2 s
    const started = Date.now();
    const first = await metrics.text(0.4);
    expect(Date.now() - started).toBeLessThan(2000); // not the 2 s default, let alone forever
    expect(samples(first, 'healthy_queue').map((s) => s.value)).toEqual([7]);
    expect(first).not.toMatch(/^stuck_queue\{/m);
    expect(first).not.toMatch(/^failing_queue\{/m);

    // the second scrape joins the read still running and sees the first one's failures
    const second = await metrics.text(0.4);
    expect(reads).toBe(1);
    const failures = samples(second, 'metrics_read_failures_total')
      .map((s) => [s.labels.metric, s.labels.reason, s.value])
      .sort();
    expect(failures).toEqual([
      ['failing_queue', 'error', 1],
      ['stuck_queue', 'timeout', 1],
    ]);

    // the read ends: the scrape that joined it has the value, the next one reads anew
    finish(3);
    const third = await metrics.text(0.4);
    expect(samples(third, 'stuck_queue').map((s) => s.value)).toEqual([3]);
    expect(reads).toBe(1);
    await metrics.text(0.4);
    expect(reads).toBe(2);
  });

  it('counters kept elsewhere are read the same way', async () => {
    const metrics = new AppMetrics('crm-people');
    metrics.counter('pool_waits_total', 'waits', () => 4);
    metrics.counter('broken_total', 'throws', () => {
      throw new Error('gone');
    });
    const text = await metrics.text();
    expect(samples(text, 'pool_waits_total').map((s) => s.value)).toEqual([4]);
    expect(text).not.toMatch(/^broken_total\{/m);
  });
});
