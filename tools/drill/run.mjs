// npm run drill: issue 23's fault drill. Starts a PostgreSQL, a nats-server, an SMTP server, a
// webhook receiver and the whole stack (every app and worker process as `npm start` runs them,
// from dist/) of its own; drives DRILL_OPERATIONS (1,000; --short: 300) mixed operations through
// the gateway with a few concurrent clients that retry as a careful integrator does
// (Idempotency-Key on POSTs); meanwhile kills -9, in turn, each service, each worker process,
// the gateway, NATS and PostgreSQL, and starts each again (waiting for readiness); then waits
// for the backlogs to drain and reconciles every expected effect against the databases and the
// receivers. Prints a table per kill and per effect; exits 1 when anything is lost or doubled.
//
// Options: --short (300 operations), --operations N, --kills a,b,... (names of the table below;
// default: all), --no-build, --keep (leave the data directory). Environment: DRILL_OPERATIONS,
// DRILL_CLIENTS (4), DRILL_SEED (23), DRILL_DRAIN_TIMEOUT_S (300), DRILL_OP_TIMEOUT_S (300).
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { root } from './infra.mjs';
import { drain, reconcile } from './reconcile.mjs';
import { dbName, SERVICES, startDrillStack } from './stack.mjs';
import { answers, failures, newState, runWorkload, setUpTenant } from './workload.mjs';

const { values: opts } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    operations: { type: 'string' },
    kills: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});

const OPERATIONS = Number(
  opts.operations ?? process.env.DRILL_OPERATIONS ?? (opts.short ? 300 : 1000),
);
const CLIENTS = Number(process.env.DRILL_CLIENTS ?? 4);
const SEED = Number(process.env.DRILL_SEED ?? 23);
const DRAIN_TIMEOUT_MS = Number(process.env.DRILL_DRAIN_TIMEOUT_S ?? 300) * 1000;
/** Every process the drill kills, in this order, spread over the run. */
const ALL_KILLS = [
  'crm-people',
  'bookings-invitations',
  'events-worker',
  'crm-companies',
  'gateway',
  'bookings-mail-worker',
  'nats',
  'events',
  'tenant-info',
  'postgres',
];
const KILLS = opts.kills ? opts.kills.split(',').map((s) => s.trim()) : ALL_KILLS;
for (const k of KILLS) if (!ALL_KILLS.includes(k)) throw new Error(`unknown kill target ${k}`);

const started = Date.now();
const clock = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s`;
const log = (m) => console.log(`[${clock()}] ${m}`);

function table(rows, columns) {
  const widths = columns.map(([h, k]) =>
    Math.max(h.length, ...rows.map((r) => String(r[k] ?? '').length)),
  );
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(columns.map(([h]) => h)));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(columns.map(([, k]) => r[k] ?? '')));
}

async function main() {
  if (!opts['no-build']) {
    log('drill: building');
    execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  }
  log(`drill: ${OPERATIONS} operations, ${CLIENTS} clients, kills: ${KILLS.join(', ')}`);
  const stack = await startDrillStack({
    log,
    // a gateway killed mid-call leaves its Idempotency-Key leased this long + 5 s: a client's
    // retry waits for it (409 Retry-After); 20 s instead of 60 keeps the drill short
    gatewayEnv: { UPSTREAM_ANSWER_TIMEOUT_MS: '20000' },
  });
  // Ctrl-C or a CI timeout: stop what the drill started before leaving
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      log(`drill: ${signal}: stopping the stack`);
      void stack.stop().finally(() => process.exit(130));
    });
  const pools = Object.fromEntries(
    SERVICES.map((app) => {
      const u = new URL(stack.postgres.url);
      u.pathname = `/${dbName(app)}`;
      const pool = new pg.Pool({ connectionString: u.toString(), max: 2 });
      pool.on('error', () => undefined); // PostgreSQL killed: the next query reconnects
      return [app, pool];
    }),
  );
  const ctx = {
    runId: Date.now().toString(36),
    gatewayUrl: stack.gatewayUrl,
    natsUrl: stack.nats.url,
    receiver: stack.receiver,
    smtp: stack.smtp,
    sql: async (app, text, params) => (await pools[app].query(text, params)).rows,
    /** A moment as seconds into the workload, and the kill nearest to it (examples). */
    when: (t) => {
      const at = new Date(t).getTime();
      const s = `${((at - ctx.t0) / 1000).toFixed(1)} s`;
      const k = ctx.kills.reduce(
        (best, x) => (!best || Math.abs(x.at - at) < Math.abs(best.at - at) ? x : best),
        null,
      );
      if (!k) return s;
      const d = (at - k.at) / 1000;
      return `${s}, ${Math.abs(d).toFixed(1)} s ${d < 0 ? 'before' : 'after'} kill -9 ${k.target}`;
    },
    kills: [],
    t0: Date.now(),
  };
  let exitCode = 1;
  try {
    log('drill: tenants, webhook endpoints, events with a paid ticket type');
    const tenants = [];
    for (const id of ['drill-a', 'drill-b'])
      tenants.push(await setUpTenant(ctx, await stack.addTenant(id)));
    const state = newState(tenants);

    // ---- the kills, spread over the run: kill i once (i + 1) / (kills + 1) of it is done
    const targets = new Map(
      [...stack.processes, stack.nats, stack.postgres].map((p) => [p.name, p]),
    );
    const kills = ctx.kills;
    let progressWaiters = [];
    const onProgress = (done) => {
      progressWaiters = progressWaiters.filter((w) => (done >= w.at ? (w.resolve(), false) : true));
    };
    const reach = (at) =>
      state.done >= at
        ? Promise.resolve()
        : new Promise((resolve) => progressWaiters.push({ at, resolve }));
    let workloadDone = false;
    // kill i at operation (i + 1) * spacing; an operation more than half a spacing after it
    // waits until that kill's process is back, so a fast workload cannot outrun the kills
    // (operations keep running while a process is down, and their calls are retried)
    const spacing = OPERATIONS / (KILLS.length + 1);
    const schedule = KILLS.map((name, i) => {
      let resolve;
      const done = new Promise((r) => (resolve = r));
      return { name, at: Math.floor((i + 1) * spacing), done, resolve };
    });
    const beforeOp = (n) =>
      Promise.all(schedule.filter((s) => s.at + spacing / 2 <= n).map((s) => s.done));
    const killer = (async () => {
      for (const { name, at, resolve } of schedule) {
        await reach(at);
        if (workloadDone) break;
        const p = targets.get(name);
        const k = { target: name, atOp: state.done, at: Date.now(), pid: p.pid() };
        await p.kill9();
        log(`drill: kill -9 ${name} (pid ${k.pid}) at operation ${k.atOp}`);
        for (let tries = 1; ; tries++) {
          try {
            await p.start();
            break;
          } catch (err) {
            log(`drill: ${name} did not start (${err.message}); again`);
            if (tries >= 3) throw err;
          }
        }
        k.ready = Date.now();
        log(`drill: ${name} back in ${((k.ready - k.at) / 1000).toFixed(1)} s (pid ${p.pid()})`);
        kills.push(k);
        resolve();
      }
    })();
    killer.catch(() => schedule.forEach((s) => s.resolve()));

    log('drill: workload running');
    const t0 = Date.now();
    ctx.t0 = t0;
    const lastLog = { at: 0 };
    const work = await runWorkload(ctx, state, {
      operations: OPERATIONS,
      clients: CLIENTS,
      seed: SEED,
      beforeOp,
      onProgress: (done) => {
        onProgress(done);
        if (Date.now() - lastLog.at > 10_000) {
          lastLog.at = Date.now();
          log(`drill: ${done}/${OPERATIONS} operations, ${failures.length} failed calls retried`);
        }
      },
    });
    workloadDone = true;
    progressWaiters.forEach((w) => w.resolve());
    await killer;
    const workSeconds = (Date.now() - t0) / 1000;
    log(`drill: workload done in ${workSeconds.toFixed(0)} s; draining`);
    const drained = await drain(ctx, DRAIN_TIMEOUT_MS, log);
    log(
      Object.keys(drained.left).length
        ? `drill: NOT drained after ${drained.seconds.toFixed(0)} s: ${JSON.stringify(drained.left)}`
        : `drill: drained in ${drained.seconds.toFixed(1)} s`,
    );
    const { effects } = await reconcile(ctx, state);

    // ---- the figures
    console.log('');
    console.log(
      `drill: ${OPERATIONS} operations by ${CLIENTS} clients in ${workSeconds.toFixed(0)} s over ` +
        `2 tenants; ${failures.length} calls failed and were retried; final answers ` +
        JSON.stringify(answers),
    );
    console.log('');
    table(
      kills.map((k) => {
        const during = failures.filter((f) => f.at >= k.at && f.at <= k.ready + 2000);
        const byStatus = {};
        for (const f of during) byStatus[f.status] = (byStatus[f.status] ?? 0) + 1;
        return {
          target: k.target,
          when: `op ${k.atOp} (${((k.at - t0) / 1000).toFixed(0)} s)`,
          restart: `${((k.ready - k.at) / 1000).toFixed(1)} s`,
          failed: during.length,
          statuses: Object.entries(byStatus)
            .map(([s, n]) => `${s}: ${n}`)
            .join(', '),
        };
      }),
      [
        ['kill -9', 'target'],
        ['when', 'when'],
        ['restart to ready', 'restart'],
        ['calls failed (retried) until ready + 2 s', 'failed'],
        ['by status', 'statuses'],
      ],
    );
    console.log('');
    table(effects, [
      ['effect', 'name'],
      ['expected', 'expected'],
      ['applied', 'applied'],
      ['lost', 'lost'],
      ['doubled', 'doubled'],
      ['note', 'note'],
    ]);
    const lost = effects.reduce((n, e) => n + e.lost, 0);
    const doubled = effects.reduce((n, e) => n + e.doubled, 0);
    const problems = [
      ...effects.flatMap((e) => e.examples.map((x) => `${e.name}: ${x}`)),
      ...state.unexpected.map((u) => `unexpected answer: ${u}`),
      ...work.errors,
      ...(Object.keys(drained.left).length
        ? [`backlog left: ${JSON.stringify(drained.left)}`]
        : []),
      ...(kills.length < KILLS.length
        ? [`only ${kills.length} of ${KILLS.length} kills done`]
        : []),
    ];
    console.log('');
    console.log(
      `drill: ${lost} lost, ${doubled} doubled; ${kills.length} kills; ` +
        `${state.unexpected.length} unexpected answers; ${work.errors.length} operations without a final answer`,
    );
    for (const p of problems.slice(0, 40)) console.log(`- ${p}`);
    exitCode = lost || doubled || problems.length ? 1 : 0;
  } finally {
    for (const p of Object.values(pools)) await p.end().catch(() => undefined);
    await stack.stop();
    if (!opts.keep && exitCode === 0) await rm(stack.dir, { recursive: true, force: true });
    else log(`drill: data and logs kept in ${stack.dir}`);
  }
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`drill: ${err.stack ?? err}`);
    process.exit(1);
  },
);
