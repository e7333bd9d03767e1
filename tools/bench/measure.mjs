// What every bench shares: free ports, autocannon runs with a warm-up, the failures seen, the
// rows of the final table and the ratios between targets.
import autocannon from 'autocannon';
import net from 'node:net';
import { cpuSecondsOf } from './cpu-use.mjs';

export const duration = Number(process.env.BENCH_DURATION ?? 10);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const warmUp = 2;

/** A port the OS has just handed out (other benches and tests may run on this machine). */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/** Deterministic pseudo-random numbers, so every target gets the same request sequence. */
export function rng(seed = 7) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function track(inst) {
  autocannon.track(inst, {
    renderProgressBar: false,
    renderResultsTable: false,
    renderLatencyTable: false,
  });
}

/** GETs `nextPath()` at `base` with `connections` connections for `seconds`. */
export function cannonGet(title, base, headers, nextPath, seconds = duration) {
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        title,
        url: base,
        headers,
        connections,
        duration: seconds,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: nextPath() }) }],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    track(inst);
  });
}

export function summary(name, r) {
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) throw new Error(`${name}: ${bad} failed requests of ${r.requests.total}`);
  return {
    target: name,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    requests: r.requests.total,
  };
}

/** Warm-up, then one measured run per target (each with a fresh path sequence); prints the table. */
export async function measure(targets, makeNextPath) {
  const rows = [];
  for (const t of targets) {
    // warm-up so JIT, pools and the database cache are steady before measuring
    await cannonGet(`${t.name} warm-up`, t.url, t.headers, makeNextPath(), warmUp);
    rows.push(summary(t.name, await cannonGet(t.name, t.url, t.headers, makeNextPath())));
  }
  console.table(rows);
  const [g, d, r] = rows.map((x) => x['req/s']);
  console.log(
    `ratio gateway/direct: ${(g / d).toFixed(2)}  (throughput of the gateway path relative to calling the service directly)`,
  );
  console.log(
    `ratio direct/raw:     ${(d / r).toFixed(2)}  (throughput of the service relative to the raw node:http + pg baseline)`,
  );
  return rows;
}

// ---- scenarios 1-5: one target = one request shape at one address -------------------------

/** Failures of any target of this run, printed after the table; any of them fails the run. */
export const problems = [];

/**
 * A target: `{ name, url (origin), method, path, body (object), headers, verifyBody?,
 * setupRequest? }` (setupRequest: autocannon's, to vary each request; the probe sends `body`).
 * `verifyBody(text)` checks answers whose status says nothing (GraphQL answers errors with 200).
 */
function cannon(t, seconds) {
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        title: t.name,
        url: `${t.url}${t.path}`,
        method: t.method ?? 'GET',
        headers: { ...t.headers, ...(t.body ? { 'content-type': 'application/json' } : {}) },
        body: t.body ? JSON.stringify(t.body) : undefined,
        verifyBody: t.verifyBody,
        // a request shape per request (e.g. another body each time), when the target has one
        ...(t.setupRequest
          ? { requests: [{ method: t.method ?? 'GET', setupRequest: t.setupRequest }] }
          : {}),
        connections,
        duration: seconds,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    track(inst);
  });
}

/** One request, as the bench will send it: ok, a summary to report and the parsed body. */
export async function probe(t) {
  const res = await fetch(`${t.url}${t.path}`, {
    method: t.method ?? 'GET',
    headers: { ...t.headers, ...(t.body ? { 'content-type': 'application/json' } : {}) },
    body: t.body ? JSON.stringify(t.body) : undefined,
  });
  const text = await res.text();
  const bodyOk = !t.verifyBody || t.verifyBody(text);
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* reported below when it matters */
  }
  const what = `${res.status}${bodyOk ? '' : ' (body check failed)'} ${text.slice(0, 400)}`;
  return { ok: res.ok && bodyOk, what, json };
}

/** What differs between the answers of two creates: the new record's id and times. */
export const NEW_RECORD = [
  'data.id',
  'data.dateCreated',
  'data.dateModified',
  'data.lifecycle.dateChanged',
  'data.lifecycleHistories.*.dateChanged',
];

/** Paths where two answers differ, but for `ignore` (paths, `*` for any array index). */
function differences(a, b, ignore, at = 'data') {
  if (a === b || ignore.has(at.replace(/\.\d+(?=\.|$)/g, '.*'))) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return [`${at}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => differences(a[k], b[k], ignore, `${at}.${k}`));
}

/**
 * Rounds per target: targets of one scenario are measured in turn, round after round, in slices
 * of about 2 s. The speed of this shared machine changes from one second to the next (a target's
 * req/s moves by ±15 % between neighbouring 2 s slices): short slices in turn put both sides of a
 * ratio under the same conditions, where 4 s slices left a ratio several hundredths off.
 */
export const rounds = Number(process.env.BENCH_ROUNDS ?? Math.max(3, Math.round(duration / 2)));

/**
 * Measures the targets of one scenario, each entry `{ t, like }`: probes each once (a failing
 * answer is reported and the target not measured; with `like`, a baseline must answer the same
 * data as `like.target`, but for the paths in `like.ignore`), warms each up for 2 s, then measures
 * them in turn for BENCH_ROUNDS rounds of BENCH_DURATION / BENCH_ROUNDS s (rounded up) each,
 * every other round in reverse order.
 * Taking turns puts every target under the same conditions: on a shared 2-core machine a slower
 * or faster stretch would otherwise land on one side of a ratio only. req/s is over all rounds,
 * p50 the request-weighted mean of the rounds', p99 the worst round's. Every answer that is not
 * 2xx (or fails verifyBody), every connection error and timeout is counted and reported.
 */
export async function benchAll(scenario, entries) {
  const slice = Math.max(1, Math.ceil(duration / rounds));
  const states = [];
  for (const { t, like } of entries) {
    const state = { t, runs: [], failed: null };
    states.push(state);
    const first = await probe(t);
    if (!first.ok) {
      state.failed = `probe answered ${first.what}`;
      continue;
    }
    if (like) {
      const other = await probe(like.target);
      const diff = differences(other.json?.data, first.json?.data, new Set(like.ignore ?? []));
      if (!other.ok) state.failed = `${like.target.name} answered ${other.what}`;
      else if (diff.length)
        state.failed = `answers other data than ${like.target.name}: ${diff.slice(0, 5).join('; ')}`;
    }
  }
  const live = states.filter((s) => !s.failed);
  for (const s of live) await cannon(s.t, warmUp);
  // every other round in reverse: whichever target runs first in a round was measured slower
  // (a pair of identical apps read 0.91-0.96 in a fixed order), so none may always go first
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...live].reverse() : live;
    for (const s of order) {
      const before = cpuSeconds(s.t.pids);
      const run = await cannon(s.t, slice);
      run.cpuSeconds = cpuSeconds(s.t.pids) - before;
      s.runs.push(run);
    }
  }
  const results = [];
  for (const s of states) {
    const { t } = s;
    if (s.failed) {
      problems.push(`${scenario} / ${t.name}: ${s.failed}`);
      results.push({ name: t.name, reqPerSec: 0, p50: null, p99: null, failed: true });
      continue;
    }
    const total = s.runs.reduce((n, r) => n + r.requests.total, 0);
    const seconds = s.runs.reduce((n, r) => n + r.duration, 0);
    const m = {
      name: t.name,
      reqPerSec: Math.round(total / seconds),
      perRound: s.runs.map((r) => r.requests.total / r.duration),
      p50: Math.round(s.runs.reduce((n, r) => n + r.latency.p50 * r.requests.total, 0) / total),
      p99: Math.max(...s.runs.map((r) => r.latency.p99)),
      // with `t.pids`: the CPU those processes used per request while this target was measured
      cpuMicrosPerRequest: t.pids
        ? (s.runs.reduce((n, r) => n + r.cpuSeconds, 0) * 1e6) / total
        : null,
    };
    const sum = (key) => s.runs.reduce((n, r) => n + (r[key] ?? 0), 0);
    const bad = {
      'non-2xx': sum('non2xx'),
      errors: sum('errors'),
      timeouts: sum('timeouts'),
      'body checks failed': sum('mismatches'),
    };
    const statuses = [
      ...new Set(s.runs.flatMap((r) => Object.keys(r.statusCodeStats ?? {}))),
    ].filter((code) => !code.startsWith('2'));
    const counted = Object.entries(bad).filter(([, n]) => n > 0);
    if (!counted.length) {
      results.push(m);
      continue;
    }
    const last = await probe(t);
    problems.push(
      `${scenario} / ${t.name}: ${counted.map(([k, n]) => `${n} ${k}`).join(', ')} of ${total} requests` +
        `${statuses.length ? ` (status ${statuses.join(', ')})` : ''}; ` +
        `a request now answers ${last.what}`,
    );
    results.push({ ...m, failed: true });
  }
  return results;
}

/** CPU seconds used so far by the processes `pids` (0 without pids, or off Linux). */
const cpuSeconds = (pids = []) => pids.reduce((n, pid) => n + (cpuSecondsOf(pid) ?? 0), 0);

/** One target measured on its own (see benchAll). */
export async function bench(scenario, t, like) {
  return (await benchAll(scenario, [{ t, like }]))[0];
}

/**
 * The standard error of a ratio measured in rounds: the spread of the rounds' own ratios over
 * the square root of their number (null with fewer than 3 rounds). A ratio within about two of
 * these of its goal is not a clear result either way.
 */
function ratioError(m, base) {
  const a = m.perRound;
  const b = base.perRound;
  if (!a || !b || a.length !== b.length || a.length < 3) return null;
  const ratios = a.map((x, i) => x / b[i]);
  const mean = ratios.reduce((n, r) => n + r, 0) / ratios.length;
  const variance = ratios.reduce((n, r) => n + (r - mean) ** 2, 0) / (ratios.length - 1);
  return Math.sqrt(variance / ratios.length);
}

/** A row of the final table: `m`'s figures and, when measured against `base`, the ratio. */
export function row(scenario, m, base, goal) {
  const measured = base && !m.failed && !base.failed;
  const ratio = measured ? m.reqPerSec / base.reqPerSec : null;
  return {
    scenario,
    target: m.name,
    reqPerSec: m.reqPerSec,
    p50: m.p50,
    p99: m.p99,
    ratio,
    ratioError: measured ? ratioError(m, base) : null,
    goal: base ? goal : null,
    failed: Boolean(m.failed || base?.failed),
  };
}

/** scenario | target | req/s | p50 ms | p99 ms | ratio | ±se | goal | met? */
export function printTable(rows) {
  const head = ['scenario', 'target', 'req/s', 'p50 ms', 'p99 ms', 'ratio', '±se', 'goal', 'met?'];
  const cells = rows.map((r) => [
    r.scenario,
    r.target,
    r.reqPerSec == null ? '' : String(r.reqPerSec),
    r.p50 == null ? '' : String(r.p50),
    r.p99 == null ? '' : String(r.p99),
    r.ratio == null ? '' : r.ratio.toFixed(2),
    r.ratioError == null ? '' : r.ratioError.toFixed(2),
    r.goal == null ? '' : `${r.goalIsMax ? '<=' : '>='} ${r.goal.toFixed(2)}`,
    r.failed
      ? 'ERROR'
      : r.goal == null || r.ratio == null
        ? ''
        : (r.goalIsMax ? r.ratio <= r.goal : r.ratio >= r.goal)
          ? 'yes'
          : 'no',
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) =>
    `| ${c.map((v, i) => (i < 2 ? v.padEnd(width[i]) : v.padStart(width[i]))).join(' | ')} |`;
  console.log(
    [line(head), `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join(
      '\n',
    ),
  );
}

/** The final table, then every failed target (their figures do not count: exit code 1). */
export function printResults(rows) {
  console.log('');
  printTable(rows);
  if (problems.length) {
    console.error(`\nbench: ${problems.length} target(s) failed, their figures do not count:`);
    for (const p of problems) console.error(`- ${p}`);
    process.exitCode = 1;
  }
}
