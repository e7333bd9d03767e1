// The drill's stack: its own PostgreSQL and NATS, every service with its worker processes and the
// gateway from dist/, wired as `npm start` wires them (tools/dev/app-env.mjs), on drill_*
// databases that are made anew per run.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recreateDatabase } from '../bench/stack.mjs';
import { envPrefix } from '../dev/workspace.mjs';
import {
  appProcess,
  freePort,
  startNats,
  startPostgres,
  startSmtp,
  startWebhookReceiver,
  workersOf,
} from './infra.mjs';

const secret = () => randomBytes(32).toString('base64url');

/** Services in start order; the gateway comes last. */
export const SERVICES = [
  'tenant-info',
  'crm-people',
  'crm-companies',
  'events',
  'bookings-invitations',
];

export const dbName = (app) => `drill_${app.replace(/-/g, '_')}`;

export async function startDrillStack({ log = console.log, gatewayEnv = {} } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'drill-'));
  // PostgreSQL runs as the `postgres` user when the drill runs as root: it must reach its data
  await chmod(dir, 0o755);
  const logDir = path.join(dir, 'logs');
  await mkdir(logDir);
  log(`drill: data and logs in ${dir}`);
  const stopAll = [];
  const postgres = await startPostgres(
    path.join(dir, 'postgres'),
    createWriteStream(path.join(logDir, 'postgres.log'), { flags: 'a' }),
  );
  stopAll.push(postgres);
  const nats = await startNats(
    path.join(dir, 'nats'),
    createWriteStream(path.join(logDir, 'nats.log'), { flags: 'a' }),
  );
  stopAll.push(nats);
  const smtp = await startSmtp();
  const receiver = await startWebhookReceiver();
  log(`drill: PostgreSQL ${postgres.url.replace(/:[^:@/]+@/, ':***@')}, NATS ${nats.url}`);

  const dbs = Object.fromEntries(
    await Promise.all(
      SERVICES.map(async (app) => [app, await recreateDatabase(postgres.url, dbName(app), app)]),
    ),
  );

  const internalToken = secret();
  const adminToken = secret();
  const secretsKey = `drill:${randomBytes(32).toString('base64')}`;
  const ports = {};
  for (const app of [...SERVICES, 'gateway']) ports[app] = await freePort();
  const common = {
    NATS_URL: nats.url,
    INTERNAL_TOKEN: internalToken,
    SECRETS_KEY: secretsKey,
    HOST: '127.0.0.1',
    // a kill -9 leaves nothing to drain; the stop at the end need not wait 5 s per app
    SHUTDOWN_DRAIN_MS: '0',
  };
  const serviceExtra = {
    events: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
    'bookings-invitations': {
      SMTP_URL: smtp.url,
      // a mail claimed by a worker that died (or whose database did) is due again when its
      // lease runs out: 10 minutes by default, 1 here, so the drill's drain does not wait 10
      MAIL_LEASE_MS: '60000',
    },
  };
  const processes = [];
  for (const app of SERVICES) {
    const env = { ...common, DATABASE_URL: dbs[app], ...(serviceExtra[app] ?? {}) };
    const workers = workersOf(app);
    processes.push(
      appProcess({
        name: app,
        port: ports[app],
        env: workers.length ? { ...env, PROCESS_ROLE: 'api' } : env,
        logDir,
      }),
    );
    for (const w of workers)
      processes.push(
        appProcess({
          name: w.name,
          app,
          port: await freePort(),
          env: { ...w.env, ...env, PROCESS_ROLE: w.role },
          logDir,
        }),
      );
  }
  const gateway = appProcess({
    name: 'gateway',
    port: ports.gateway,
    env: {
      ...common,
      ADMIN_TOKEN: adminToken,
      ...Object.fromEntries(
        SERVICES.map((app) => [`${envPrefix(app)}_URL`, `http://127.0.0.1:${ports[app]}`]),
      ),
      GRAPHQL_SUBGRAPHS: SERVICES.join(','),
      // every client of the drill is 127.0.0.1: the public rate per address would stop it
      PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
      PUBLIC_RATE_LIMIT_BURST: '100000',
      ...gatewayEnv,
    },
    logDir,
  });
  processes.push(gateway);
  try {
    // one at a time: a 2-core machine boots one Nest app faster than five at once
    for (const p of processes) {
      const t = Date.now();
      await p.start();
      log(`drill: ${p.name} ready in ${((Date.now() - t) / 1000).toFixed(1)} s (pid ${p.pid()})`);
    }
  } catch (err) {
    for (const p of processes.reverse()) await p.stop().catch(() => undefined);
    for (const s of stopAll.reverse()) await s.stop().catch(() => undefined);
    throw err;
  }
  const gatewayUrl = gateway.url;
  const admin = async (method, p, b) => {
    const res = await fetch(`${gatewayUrl}/v1/admin${p}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: b && JSON.stringify(b),
    });
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`admin ${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    dir,
    logDir,
    postgres,
    nats,
    smtp,
    receiver,
    dbs,
    processes,
    gateway,
    gatewayUrl,
    internalToken,
    /** A tenant on the tariff holding every module, with an API key. */
    async addTenant(id) {
      await admin('POST', '/tenants', { id, name: `Drill tenant ${id}` });
      await admin('PUT', `/tenants/${id}/tariff`, { tariffId: 'complete' });
      const issued = (await admin('POST', `/tenants/${id}/api-keys`, { name: 'drill' })).data;
      return { id, key: issued.key };
    },
    async stop() {
      for (const p of [...processes].reverse()) await p.stop().catch(() => undefined);
      await receiver.stop().catch(() => undefined);
      await smtp.stop().catch(() => undefined);
      await nats.stop().catch(() => undefined);
      await postgres.stop().catch(() => undefined);
    },
  };
}
