// The eight steps of `npm start`, in order. Each gets the launcher's context `ctx` (options,
// started processes, secrets, results of earlier steps) and `step.note()` for its result line,
// and throws a StepError saying what went wrong and what to do.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createAdminClient, seedDemoTenant } from './admin-client.mjs';
import { gatewayEnv, serviceEnv } from './app-env.mjs';
import {
  ensureDatabases,
  portAnswers,
  redactUrl,
  startEmbeddedPostgres,
  withDatabase,
} from './database.mjs';
import { startMailbox } from './mailbox.mjs';
import { ensureNats } from './nats.mjs';
import { StepError } from './output.mjs';
import { runCaptured, servesSubgraph, tail, waitForHttp } from './processes.mjs';
import {
  appEnvNames,
  databaseName,
  envPrefix,
  GATEWAY,
  hasMigrations,
  ROOT,
} from './workspace.mjs';

export const STEPS = [
  'build',
  'database',
  'nats',
  'mail',
  'migrations',
  'services',
  'gateway',
  'demo tenant',
];

export const distMain = (app) => path.join(ROOT, 'dist', 'apps', app, 'src', 'main.js');
export const appUrl = (ctx, app) => `http://127.0.0.1:${ctx.opts.ports[app]}`;
const databaseUrl = (ctx, app) => withDatabase(ctx.serverUrl, databaseName(app));

export async function build(ctx, step) {
  // Named targets: build.mjs then compiles those apps and the libs without first wiping dist/,
  // which other processes (tests, a second stack) may be running from.
  const targets = ctx.apps.map((a) => `apps/${a}`);
  const r = await runCaptured(process.execPath, ['tools/build.mjs', ...targets], { cwd: ROOT });
  if (r.code !== 0)
    throw new StepError(`tools/build.mjs exited with code ${r.code}`, tail(r.output));
  step.note(/(\d+ files) compiled/.exec(r.output)?.[1] ?? 'done');
}

/** Fails when an app has no dist/apps/<app>/src/main.js (with --no-build). */
export function checkBuilt(ctx) {
  const unbuilt = ctx.apps.filter((a) => !existsSync(distMain(a)));
  if (unbuilt.length)
    throw new StepError(
      `not built: ${unbuilt.map((a) => path.relative(ROOT, distMain(a))).join(', ')}`,
      'run npm start without --no-build (or node tools/build.mjs)',
    );
}

/** The server URL (DATABASE_URL's or the embedded one's), with every service's database on it. */
export async function database(ctx, step) {
  let url = process.env.DATABASE_URL;
  if (url) step.note(`server of DATABASE_URL ${redactUrl(withDatabase(url, ''))}`);
  else {
    const port = Number(process.env.EMBEDDED_PG_PORT || 5433);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(ROOT, '.data', 'postgres'), port });
    ctx.stack.postgres = pg;
    url = pg.url;
    step.note(`embedded PostgreSQL on 127.0.0.1:${port}${pg.initialised ? ', initialised' : ''}`);
    if (pg.linkedLibraries) step.note(`linked ${pg.linkedLibraries} PostgreSQL libraries`);
  }
  try {
    const created = await ensureDatabases(url, ctx.opts.services.map(databaseName));
    step.note(created.length ? `created ${created.join(', ')}` : 'databases exist');
  } catch (err) {
    throw new StepError(
      `cannot prepare the databases on ${redactUrl(url)}: ${err.message}`,
      'check DATABASE_URL (postgresql://user:password@host:5432/postgres), or unset it to use an embedded PostgreSQL',
    );
  }
  return url;
}

export async function nats(ctx, step) {
  const { started } = await ensureNats({
    natsUrl: ctx.opts.natsUrl,
    storeDir: path.join(ROOT, '.data', 'nats'),
    supervisor: ctx.stack.supervisor,
  });
  step.note(started ? `started nats-server at ${ctx.opts.natsUrl}` : `using ${ctx.opts.natsUrl}`);
}

/**
 * The development mailbox (tools/dev/mailbox.mjs) for the services that send mail, unless SMTP_URL
 * names a server of one's own. Returns { smtpUrl, pageUrl } of the one started, else null.
 */
export async function mail(ctx, step) {
  if (process.env.SMTP_URL) {
    step.note('SMTP_URL set: mails go there');
    return null;
  }
  const smtpPort = Number(process.env.DEV_SMTP_PORT || 2525);
  const httpPort = Number(process.env.DEV_MAILBOX_PORT || 8025);
  for (const [port, name] of [
    [smtpPort, 'DEV_SMTP_PORT'],
    [httpPort, 'DEV_MAILBOX_PORT'],
  ])
    if (await portAnswers(port))
      throw new StepError(
        `port ${port} (development mailbox) is in use`,
        `stop what uses it, set ${name} to a free port, or set SMTP_URL to a mail server of yours`,
      );
  const box = await startMailbox({ smtpPort, httpPort, dir: path.join(ROOT, '.data', 'mails') });
  ctx.stack.mailbox = box;
  step.note(`SMTP ${box.smtpUrl}, mails at ${box.pageUrl}`);
  return { smtpUrl: box.smtpUrl, pageUrl: box.pageUrl };
}

/** Applies every service's migrations, in parallel (each its own database). */
export async function migrations(ctx, step) {
  const services = ctx.opts.services.filter((s) => hasMigrations(s));
  const results = await Promise.all(
    services.map((svc) =>
      runCaptured(
        process.execPath,
        ['tools/prisma.mjs', 'deploy', svc, '--url', databaseUrl(ctx, svc)],
        { cwd: ROOT },
      ).then((r) => ({ svc, ...r })),
    ),
  );
  const failed = results.find((r) => r.code !== 0);
  if (failed) throw new StepError(`migrations of ${failed.svc} failed`, tail(failed.output));
  step.note(services.join(', ') || 'none');
}

/** Starts the services, waits until each is ready; returns those serving a GraphQL subgraph. */
export async function services(ctx, step) {
  // Every port, the gateway's too, is checked before anything listens, so a clash names the
  // variable to change.
  const workers = ctx.opts.workers ?? [];
  for (const app of [...ctx.apps, ...workers.map((w) => w.name)])
    if (await portAnswers(ctx.opts.ports[app]))
      throw new StepError(
        `port ${ctx.opts.ports[app]} (${app}) is in use`,
        `stop what uses it, or set ${app === GATEWAY ? 'PORT' : `${envPrefix(app)}_PORT`} to a free port`,
      );
  const env = (app, port, more) =>
    serviceEnv({
      env: ctx.childEnv,
      port,
      databaseUrl: databaseUrl(ctx, app),
      natsUrl: ctx.opts.natsUrl,
      internalToken: ctx.secrets.internalToken,
      // the services that seal secrets in their database (events, bookings-invitations)
      secretsKey: appEnvNames(app).names.includes('SECRETS_KEY')
        ? ctx.secrets.secretsKey
        : undefined,
      smtpUrl: ctx.mailbox?.smtpUrl,
      ...more,
    });
  // A service with worker processes serves only its API itself (PROCESS_ROLE=api).
  const withWorkers = new Set(workers.map((w) => w.app));
  const entries = ctx.opts.services.map((app) =>
    ctx.stack.supervisor.start(app, process.execPath, [distMain(app)], {
      cwd: ROOT,
      env: env(app, ctx.opts.ports[app], withWorkers.has(app) ? { role: 'api' } : {}),
    }),
  );
  // Started after the services, so stopped before them (Supervisor.stopAll: newest first).
  const workerEntries = workers.map((w) =>
    ctx.stack.supervisor.start(w.name, process.execPath, [distMain(w.app)], {
      cwd: ROOT,
      env: env(w.app, ctx.opts.ports[w.name], { role: w.role, defaults: w.env }),
    }),
  );
  await Promise.all(
    [...entries, ...workerEntries].map((entry) =>
      waitForHttp(`${appUrl(ctx, entry.name)}/health/ready`, { entry }),
    ),
  );
  const subgraphs = [];
  const headers = { 'X-Internal-Token': ctx.secrets.internalToken };
  for (const app of ctx.opts.services)
    if (await servesSubgraph(appUrl(ctx, app), headers)) subgraphs.push(app);
  step.note(ctx.opts.services.map((a) => `${a} :${ctx.opts.ports[a]}`).join(', ') || 'none');
  if (workers.length)
    step.note(workers.map((w) => `${w.name} :${ctx.opts.ports[w.name]} (health)`).join(', '));
  step.note(`GraphQL: ${subgraphs.join(', ') || 'none'}`);
  return subgraphs;
}

export async function gateway(ctx, step) {
  const entry = ctx.stack.supervisor.start(GATEWAY, process.execPath, [distMain(GATEWAY)], {
    cwd: ROOT,
    env: gatewayEnv({
      env: ctx.childEnv,
      port: ctx.opts.ports[GATEWAY],
      natsUrl: ctx.opts.natsUrl,
      adminToken: ctx.secrets.adminToken,
      internalToken: ctx.secrets.internalToken,
      servicePorts: Object.fromEntries(ctx.opts.services.map((s) => [s, ctx.opts.ports[s]])),
      subgraphs: ctx.subgraphs,
    }),
  });
  await waitForHttp(`${appUrl(ctx, GATEWAY)}/health/ready`, { entry });
  step.note(appUrl(ctx, GATEWAY));
}

/** The demo tenant on tariff `complete` with the kept API key (409s on a restart are fine). */
export async function demoTenant(ctx, step) {
  const { tenantId } = ctx.opts;
  const client = createAdminClient({
    baseUrl: appUrl(ctx, GATEWAY),
    token: ctx.secrets.adminToken,
  });
  let result;
  try {
    result = await seedDemoTenant(client, {
      tenantId,
      name: 'Demo tenant',
      apiKey: ctx.secrets.demoApiKey,
    });
  } catch (err) {
    throw new StepError(`the admin API refused: ${err.message}`);
  }
  step.note(result.tenantCreated ? `created ${tenantId}` : `${tenantId} exists`);
  step.note(result.keyCreated ? 'key issued' : 'key exists');
  return { tenantId, apiKey: ctx.secrets.demoApiKey };
}
