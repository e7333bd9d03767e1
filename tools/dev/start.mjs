#!/usr/bin/env node
// `npm start`: the whole stack on one machine. Builds, provides PostgreSQL (DATABASE_URL's server
// or an embedded one) and NATS, applies the migrations, starts every service and the gateway,
// creates the demo tenant and prints how to call it. Ctrl-C stops everything it started.
// The steps are in start-steps.mjs; run with --help for the options.
import path from 'node:path';
import { readyBanner } from './banner.mjs';
import { redactUrl, withDatabase } from './database.mjs';
import { failureReport, Output, StepError, Steps } from './output.mjs';
import { describeExit, Supervisor } from './processes.mjs';
import { loadDevSecrets } from './secrets.mjs';
import * as step from './start-steps.mjs';
import { appPorts, classifyApps, GATEWAY, listApps, ROOT, workersOf } from './workspace.mjs';

const USAGE = `Usage: npm start [-- --no-build]

Environment (all optional):
  DATABASE_URL       a PostgreSQL server to use (its database name is replaced per service);
                     unset: an embedded PostgreSQL in .data/postgres on EMBEDDED_PG_PORT (5433)
  NATS_URL           default nats://127.0.0.1:4222; nats-server is started when none answers
  PORT               the gateway's port (3000); <APP>_PORT for a service, e.g. CRM_PEOPLE_PORT;
                     BOOKINGS_MAIL_WORKER_PORT the health port of bookings-invitations's mail
                     worker (3014), a process of its own (PROCESS_ROLE=mail-worker, nice 19);
                     EVENTS_WORKER_PORT the health port of the events worker (3013: consumers,
                     webhooks), a process of its own (PROCESS_ROLE=worker, nice 19)
  ADMIN_TOKEN        the gateway's operator token (else generated once, kept in .data/dev-secrets.json)
  DEMO_TENANT_ID     the demo tenant (demo); DEMO_API_KEY its key (else generated and kept)
  INTERNAL_TOKEN     shared secret gateway -> services, always on (else generated once, kept in
                     .data/dev-secrets.json); a service answers 401 to calls without it
  SERVICES_HOST      address the services listen on (127.0.0.1); the gateway listens on HOST
                     (default 0.0.0.0, every interface)
  START_ONLY         comma list of apps to start, e.g. crm-people,tenant-info
  SMTP_URL           a mail server for bookings-invitations; unset: a development mailbox on
                     DEV_SMTP_PORT (2525) keeps every mail in .data/mails and lists them on a page
                     at DEV_MAILBOX_PORT (8025)`;

function options(argv, env) {
  const apps = listApps();
  const only = env.START_ONLY ? env.START_ONLY.split(',').map((s) => s.trim()) : null;
  const unknown = (only ?? []).filter((a) => !apps.includes(a));
  if (unknown.length)
    throw new StepError(
      `START_ONLY names no app: ${unknown.join(', ')}`,
      `apps: ${apps.join(', ')}`,
    );
  const { gateway, services } = classifyApps(only ? apps.filter((a) => only.includes(a)) : apps);
  // Processes of a service besides its API (bookings-mail-worker, events-worker), from the same
  // build.
  const workers = workersOf(services);
  return {
    build: !argv.includes('--no-build'),
    gateway,
    services,
    workers,
    ports: appPorts(
      [...(gateway ? [GATEWAY] : []), ...services, ...workers.map((w) => w.name)],
      env,
    ),
    natsUrl: env.NATS_URL || 'nats://127.0.0.1:4222',
    tenantId: env.DEMO_TENANT_ID || 'demo',
  };
}

/** Everything the launcher started, stopped in reverse order exactly once. */
class Stack {
  constructor(out) {
    this.postgres = null;
    this.mailbox = null;
    this.stopped = null;
    let fail;
    // Rejects when a child ends on its own: the running step fails, or after start-up the
    // launcher stops everything.
    this.fatal = new Promise((_, reject) => (fail = reject));
    this.fatal.catch(() => undefined);
    this.supervisor = new Supervisor(out, {
      onUnexpectedExit: (name, code, signal, error) =>
        fail(
          new StepError(
            `${name} ${describeExit({ code, signal, error })} unexpectedly`,
            'its output above says why; everything else is stopped',
          ),
        ),
    });
  }

  stop() {
    this.stopped ??= (async () => {
      await this.supervisor.stopAll();
      if (this.mailbox) await this.mailbox.stop().catch(() => undefined);
      if (this.postgres) await this.postgres.stop().catch(() => undefined);
    })();
    return this.stopped;
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) return console.log(USAGE);
  const out = new Output(undefined, { color: process.stdout.isTTY && !process.env.NO_COLOR });
  const stack = new Stack(out);

  let shuttingDown = false;
  const shutdown = async (signal) => {
    if (shuttingDown) {
      stack.supervisor.killAllNow(); // a second Ctrl-C: do not wait any longer
      process.exit(1);
    }
    shuttingDown = true;
    out.line(`\n${signal}: stopping everything ...`);
    await stack.stop();
    out.line('Stopped.');
    process.exit(0);
  };
  const fail = async (err) => {
    if (shuttingDown) return;
    shuttingDown = true;
    out.line();
    for (const line of failureReport(err)) out.line(out.paint('red', line));
    out.line('Stopping what was started ...');
    await stack.stop();
    process.exit(1);
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => void shutdown(s));
  process.on('exit', () => stack.supervisor.killAllNow());

  try {
    const opts = options(argv, process.env);
    const ctx = {
      opts,
      stack,
      apps: [...(opts.gateway ? [GATEWAY] : []), ...opts.services],
      secrets: loadDevSecrets(path.join(ROOT, '.data', 'dev-secrets.json')),
      // On a terminal the apps' JSON lines are made readable (pino-pretty, in colour); piped to a
      // file or a collector they stay JSON, one object per line. LOG_PRETTY=0 keeps JSON anyway.
      childEnv: {
        ...process.env,
        ...(out.color ? {} : { NO_COLOR: '1' }),
        LOG_PRETTY: process.env.LOG_PRETTY ?? (process.stdout.isTTY ? '1' : '0'),
      },
    };
    const steps = new Steps(step.STEPS, out);
    // A step also ends when a child started earlier dies meanwhile.
    const run = (name, fn) => steps.run(name, (s) => Promise.race([fn(ctx, s), stack.fatal]));

    if (opts.build) await run('build', step.build);
    else steps.skip('build', '--no-build');
    step.checkBuilt(ctx);
    ctx.serverUrl = await run('database', step.database);
    await run('nats', step.nats);
    ctx.mailbox = opts.services.includes('bookings-invitations')
      ? await run('mail', step.mail)
      : steps.skip('mail', 'no service sends mail');
    await run('migrations', step.migrations);
    ctx.subgraphs = await run('services', step.services);
    if (opts.gateway) await run('gateway', step.gateway);
    else steps.skip('gateway', 'not in START_ONLY, or no apps/gateway yet');
    const demo =
      opts.gateway && opts.services.includes('tenant-info')
        ? await run('demo tenant', step.demoTenant)
        : steps.skip('demo tenant', 'needs the gateway and tenant-info');

    const banner = readyBanner({
      gatewayUrl: opts.gateway ? step.appUrl(ctx, GATEWAY) : null,
      services: Object.fromEntries(opts.services.map((a) => [a, step.appUrl(ctx, a)])),
      database: redactUrl(withDatabase(ctx.serverUrl, '')),
      natsUrl: opts.natsUrl,
      mailbox: ctx.mailbox,
      demo,
      adminToken: ctx.secrets.adminToken,
    });
    for (const line of banner) out.line(line);
    stack.fatal.catch(fail); // from now on a dying child stops everything
  } catch (err) {
    await fail(err);
  }
}

main();
