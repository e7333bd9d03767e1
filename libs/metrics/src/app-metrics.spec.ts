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
