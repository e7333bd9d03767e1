// npm run bench -- onsale-shapes: the on-sale's shapes side by side, bookings-invitations alone
// (two API processes, PROCESS_ROLE=api, no mail worker, on a fresh database and nats-server of
// their own; the events seeded as the service's copies). In ONSALE_SHAPE_ROUNDS (3) rounds, each
// shape sells ONSALE_SEATS (3000) seats to ONSALE_CLIENTS (200) buyers, one paid ticket each:
//   one:          one event, every buyer at replica 1;
//   two-replicas: one event, half the buyers at each replica (the lease holder writes, the other
//                 forwards: bookings/sales-routing.ts);
//   two-events:   two events of the tenant, half the buyers each, all at replica 1.
// The shapes take turns within a round, so a slow stretch of the machine falls on all of them.
// Printed: each sale's bookings/s and p99 and the CPU by process; then per shape the median and
// its ratio to `one` (issue 19's goals 3 and 4: two replicas at least as fast as one, two events
// of a tenant not waiting on each other). The whole stack's version: `npm run bench -- onsale`.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ownNats, seedEvent, seedTypes } from './bookings.mjs';
import { sell } from './bookings-onsale.mjs';
import { cpuSnapshot, cpuUse, formatCpuUse } from './cpu-use.mjs';
import { freePort, problems } from './measure.mjs';
import {
  analyzeDatabases,
  benchDbName,
  benchServer,
  recreateDatabase,
  secret,
  onServerWithAutovacuum,
  startApp,
} from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SEATS = Number(process.env.ONSALE_SEATS ?? 3000);
const CLIENTS = Number(process.env.ONSALE_CLIENTS ?? 200);
const ROUNDS = Number(process.env.ONSALE_SHAPE_ROUNDS ?? 3);
const TENANT = 'bench-shapes';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function main() {
  console.log('bench onsale-shapes: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  // its rounds write thousands of bookings: on a server without autovacuum each round would
  // scan what the earlier ones left dead (ONSALE_DATABASE=server keeps the server anyway)
  await onServerWithAutovacuum('onsale', shapesOn);
}

async function shapesOn() {
  const databaseUrl = await recreateDatabase(
    benchServer(),
    benchDbName('shapes_bookings_invitations'),
    'bookings-invitations',
  );
  const nats = await ownNats();
  const internalToken = secret();
  const env = {
    NATS_URL: nats.url,
    INTERNAL_TOKEN: internalToken,
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    PROCESS_ROLE: 'api',
  };
  const replicas = [
    await startApp('bookings-invitations', await freePort(), env),
    await startApp('bookings-invitations', await freePort(), env),
  ];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const headers = {
    'x-integration-name': 'bench',
    'x-integration-provider': 'bench',
    'x-service-tenantid': TENANT,
    'x-internal-token': internalToken,
  };
  const sale = async (seats) => {
    const eventId = await seedEvent(pool, TENANT);
    const [typeId] = await seedTypes(pool, TENANT, eventId, 1, 'On sale');
    await pool.query(`UPDATE "TicketType" SET quota = $2 WHERE id = $1`, [typeId, seats]);
    return { eventId, typeId };
  };
  const half = Math.floor(CLIENTS / 2);
  const shapes = {
    one: async () => {
      const s = await sale(SEATS);
      return [{ url: replicas[0].url, headers, ...s, clients: CLIENTS }];
    },
    'two-replicas': async () => {
      const s = await sale(SEATS);
      return [
        { url: replicas[0].url, headers, ...s, clients: half },
        { url: replicas[1].url, headers, ...s, clients: CLIENTS - half },
      ];
    },
    'two-events': async () => {
      const [a, b] = [await sale(SEATS / 2), await sale(SEATS / 2)];
      return [
        { url: replicas[0].url, headers, ...a, clients: half },
        { url: replicas[0].url, headers, ...b, clients: CLIENTS - half },
      ];
    },
  };
  // ONSALE_SHAPES=two-replicas,one: some shapes only (e.g. with BENCH_CPU_PROFILE)
  const only = process.env.ONSALE_SHAPES?.split(',');
  for (const name of Object.keys(shapes)) if (only && !only.includes(name)) delete shapes[name];
  const rates = Object.fromEntries(Object.keys(shapes).map((k) => [k, []]));
  try {
    // warm both replicas up (JIT, pools, the tenant's lease), not counted
    for (const targets of Object.values(shapes)) await sell(await targets());
    await analyzeDatabases([databaseUrl]);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, targets] of Object.entries(shapes)) {
        const t = await targets();
        const before = cpuSnapshot();
        const r = await sell(t);
        const cpu = formatCpuUse(cpuUse(before, cpuSnapshot()));
        const fivexx = Object.entries(r.statuses).filter(([s]) => Number(s) >= 500);
        if (r.sold !== SEATS || fivexx.length)
          problems.push(
            `${name}: sold ${r.sold} of ${SEATS}, answers ${JSON.stringify(r.statuses)}`,
          );
        const rate = r.sold / r.seconds;
        rates[name].push(rate);
        console.log(
          `round ${round} ${name.padEnd(12)} ${rate.toFixed(0).padStart(5)} bookings/s, p99 ${r.p99.toFixed(0)} ms; CPU ${cpu}`,
        );
      }
    }
  } finally {
    await pool.end();
    for (const p of replicas) await p.stop();
    await nats.stop();
  }
  const one = rates.one ? median(rates.one) : NaN;
  console.log('');
  for (const [name, xs] of Object.entries(rates))
    console.log(
      `${name.padEnd(12)} median ${median(xs).toFixed(0).padStart(5)} bookings/s (${xs.map((x) => x.toFixed(0)).join(', ')}), / one ${(median(xs) / one).toFixed(2)}`,
    );
  if (problems.length) {
    for (const p of problems) console.error(`- ${p}`);
    process.exitCode = 1;
  }
}
