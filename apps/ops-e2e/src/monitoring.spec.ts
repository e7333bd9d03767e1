import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load } from 'js-yaml';
import { ROOT } from './support/esm';

// deploy/monitoring: the alert rules (checked and unit-tested by promtool, Debian's prometheus
// package), the scrape config and the Grafana dashboard, and that every metric they use is one
// the apps export (a renamed metric must not leave an alert that never fires).

const DIR = path.join(ROOT, 'deploy/monitoring');

const hasPromtool = (() => {
  try {
    execFileSync('promtool', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const withPromtool = hasPromtool || process.env.CI ? it : it.skip;

const promtool = (...args: string[]) =>
  execFileSync('promtool', args, { cwd: DIR, encoding: 'utf8', stdio: 'pipe' });

withPromtool('promtool checks the alert rules and passes their unit tests', () => {
  expect(promtool('check', 'rules', 'alerts.yml')).toContain('SUCCESS');
  expect(promtool('test', 'rules', 'alerts.test.yml')).toContain('SUCCESS');
});

withPromtool(
  'promtool accepts the scrape config (with a token file where compose mounts it)',
  () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'crm-monitoring-'));
    try {
      writeFileSync(path.join(tmp, 'internal-token'), 'x'.repeat(32));
      const config = readFileSync(path.join(DIR, 'prometheus.yml'), 'utf8').replace(
        '/run/crm-secrets/internal-token',
        path.join(tmp, 'internal-token'),
      );
      writeFileSync(path.join(tmp, 'prometheus.yml'), config);
      writeFileSync(path.join(tmp, 'alerts.yml'), readFileSync(path.join(DIR, 'alerts.yml')));
      expect(
        execFileSync('promtool', ['check', 'config', 'prometheus.yml'], {
          cwd: tmp,
          encoding: 'utf8',
        }),
      ).toContain('SUCCESS');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);

/** Every TypeScript file under apps/ and libs/, for the names of the metrics they register. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === 'node_modules' || name === 'generated') return [];
    if (statSync(file).isDirectory()) return sources(file);
    return name.endsWith('.ts') && !name.includes('spec') ? [file] : [];
  });
}

it('every metric the alerts and the dashboard use is exported by an app', () => {
  const code = [...sources(path.join(ROOT, 'apps')), ...sources(path.join(ROOT, 'libs'))]
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const exported = new Set<string>(
    // app.gauge('name', 'Help', ...) and new Counter({ name: 'name', ... })
    [...code.matchAll(/'([a-z_]+)',\s*\n?\s*'[A-Z]|\bname: '([a-z_]+)'/g)]
      .map((m) => m[1] ?? m[2])
      .concat(
        // prom-client's defaults and the histogram's series; Prometheus's own `up`
        ['up', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes'],
        ['http_request_duration_seconds_count', 'http_request_duration_seconds_bucket'],
      ),
  );
  expect(code).toContain("name: 'http_request_duration_seconds'");
  const rules = load(readFileSync(path.join(DIR, 'alerts.yml'), 'utf8')) as {
    groups: { rules: { alert: string; expr: string }[] }[];
  };
  const dashboard = JSON.parse(readFileSync(path.join(DIR, 'grafana-dashboard.json'), 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const exprs = [
    ...rules.groups.flatMap((g) => g.rules.map((r) => r.expr)),
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
  ];
  const PROMQL = new Set([
    'sum',
    'increase',
    'metric',
    'reason',
    'by',
    'rate',
    'max',
    'and',
    'or',
    'histogram_quantile',
    'topk',
    'delta',
    'le',
    'app',
    'instance',
    'route',
    'subject',
    'status',
    'pool',
    'state',
    'ignoring',
    'max_over_time',
  ]);
  const used = new Set(
    exprs.flatMap((e) =>
      [...e.replace(/\{[^}]*\}|\[[^\]]*\]|"[^"]*"/g, '').matchAll(/[a-z_][a-z0-9_]*/g)]
        .map((m) => m[0])
        .filter((w) => !PROMQL.has(w)),
    ),
  );
  expect(used.size).toBeGreaterThan(8);
  expect([...used].filter((name) => !exported.has(name))).toEqual([]);
});
