/** One sample of a /metrics text: the text of its labels and its value. */
export interface MetricSample {
  labels: string;
  value: number;
}

/** The samples of `name` in a /metrics text (Prometheus' text format). */
export function parseMetricSamples(text: string, name: string): MetricSample[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .map((l) => ({
      labels: l.slice(name.length, l.lastIndexOf(' ')),
      value: Number(l.split(' ').pop()),
    }));
}

/**
 * The samples of `name` on an app's /metrics, as a scrape reads them. `headers`: the internal
 * token where the app wants it.
 */
export async function metricSamples(
  baseUrl: string,
  name: string,
  headers: Record<string, string> = {},
): Promise<MetricSample[]> {
  const res = await fetch(`${baseUrl}/metrics`, { headers });
  if (!res.ok) throw new Error(`/metrics of ${baseUrl} answered ${res.status}`);
  return parseMetricSamples(await res.text(), name);
}

/**
 * The value of the first sample of `name` whose labels contain `labels` (e.g.
 * `status="waiting"`; '' for any). Fails naming the series when there is none.
 */
export async function metricValue(
  baseUrl: string,
  name: string,
  labels = '',
  headers: Record<string, string> = {},
): Promise<number> {
  const sample = (await metricSamples(baseUrl, name, headers)).find((s) =>
    s.labels.includes(labels),
  );
  if (!sample) throw new Error(`no ${name}{${labels}} on /metrics of ${baseUrl}`);
  return sample.value;
}
