import { Histogram, Registry } from 'prom-client';
import { DurationHistogram } from './duration-histogram';

const BUCKETS = [0.005, 0.01, 0.025, 0.1, 1];
const OBSERVED: [string, string, number][] = [
  ['GET', '200', 0.004],
  ['GET', '200', 0.005], // on a bound: counted in it (le is "less than or equal")
  ['GET', '200', 0.012],
  ['GET', '404', 0.2],
  ['POST', '201', 7], // above every bound: only in +Inf
  ['GET', '200', 0.099],
];

describe('DurationHistogram', () => {
  it('exports exactly what prom-client’s own Histogram exports for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    for (const r of [ours, theirs]) r.setDefaultLabels({ app: 'crm-people' });
    const histogram = new DurationHistogram<'method' | 'status'>({
      name: 'http_request_duration_seconds',
      help: 'requests',
      buckets: BUCKETS,
      registers: [ours],
    });
    const reference = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'requests',
      labelNames: ['method', 'status'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    for (const [method, status, seconds] of OBSERVED) {
      histogram.observe(`${method} ${status}`, () => ({ method, status }), seconds);
      reference.observe({ method, status }, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.005",app="crm-people",method="GET",status="200"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="1",app="crm-people",method="POST",status="201"} 0',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="+Inf",app="crm-people",method="POST",status="201"} 1',
    );
    // the JSON too, but for prom-client's exemplars (null: none are kept here)
    const samples = async (r: Registry) =>
      (await r.getMetricsAsJSON())[0].values.map((v) => ({
        name: (v as { metricName?: string }).metricName,
        labels: v.labels,
        value: v.value,
      }));
    expect(await samples(ours)).toEqual(await samples(theirs));
  });

  it('makes the labels of a series once, and forgets every series on reset', async () => {
    const registry = new Registry();
    const histogram = new DurationHistogram<'route'>({
      name: 'd_seconds',
      help: 'd',
      buckets: BUCKETS,
      registers: [registry],
    });
    let made = 0;
    const labels = () => (made++, { route: '/x' });
    histogram.observe('/x', labels, 0.001);
    histogram.observe('/x', labels, 0.002);
    expect(made).toBe(1);
    expect(await registry.metrics()).toContain('d_seconds_count{route="/x"} 2');
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('d_seconds_count');
  });
});
