// What every GET bench shares: free ports, an autocannon run over a sequence of paths, the row
// printed per target and the ratios between targets.
import autocannon from 'autocannon';
import net from 'node:net';

export const duration = Number(process.env.BENCH_DURATION ?? 10);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

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
    autocannon.track(inst, {
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    });
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
    await cannonGet(`${t.name} warm-up`, t.url, t.headers, makeNextPath(), 2);
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
