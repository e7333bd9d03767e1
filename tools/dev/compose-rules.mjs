// Structural rules for docker-compose.yml that `docker compose config` cannot know: every app has
// a service, images are built from an app that exists, the environment uses the names the apps
// read, each service is migrated before it starts and has its database, a service's worker
// processes (workspace.mjs WORKER_PROCESSES) run in services of their own with their
// PROCESS_ROLE. Returns problems as text.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  appEnvNames,
  databaseName,
  envPrefix,
  GATEWAY,
  hasMigrations,
  listApps,
  ROOT,
  RUNTIME_ENV,
  WORKER_PROCESSES,
  workersOf,
} from './workspace.mjs';

const CONDITIONS = ['service_started', 'service_healthy', 'service_completed_successfully'];

/** `${NAME:-default}` -> default, `${NAME}` -> `NAME`: enough to read hosts and paths. */
export function interpolate(value) {
  return String(value)
    .replace(/\$\{([A-Z0-9_]+)(?::?[-?]([^}]*))?\}/gi, (_, name, dflt) => dflt ?? name)
    .replace(/\$\$/g, '$');
}

/** `environment` as a map, whether written as a map or as a list of NAME=value. */
export function environmentOf(service) {
  const env = service?.environment;
  if (!env) return {};
  if (Array.isArray(env))
    return Object.fromEntries(
      env.map((e) => {
        const [k, ...v] = String(e).split('=');
        return [k, v.join('=')];
      }),
    );
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v == null ? '' : String(v)]));
}

function dependsOn(service) {
  const d = service?.depends_on;
  if (!d) return {};
  if (Array.isArray(d)) return Object.fromEntries(d.map((n) => [n, 'service_started']));
  return Object.fromEntries(
    Object.entries(d).map(([n, v]) => [n, v?.condition ?? 'service_started']),
  );
}

function buildArg(service, name) {
  const args = service?.build?.args;
  if (!args) return undefined;
  if (Array.isArray(args)) {
    const hit = args.find((a) => String(a).startsWith(`${name}=`));
    return hit?.slice(name.length + 1);
  }
  return args[name] == null ? undefined : String(args[name]);
}

function commandOf(service) {
  const c = service?.command;
  if (!c) return [];
  return Array.isArray(c) ? c.map(String) : String(c).split(/\s+/);
}

/** The database named in a postgres URL, or null. */
function urlDatabase(value) {
  try {
    return decodeURIComponent(new URL(interpolate(value)).pathname.replace(/^\//, '')) || null;
  } catch {
    return null;
  }
}

function urlHost(value) {
  try {
    return new URL(interpolate(value)).hostname;
  } catch {
    return null;
  }
}

/** Databases created by the SQL files mounted into the postgres image's init folder. */
function initDatabases(services, composeDir) {
  const names = new Set();
  for (const svc of Object.values(services)) {
    if (!/^postgres(:|$)/.test(String(svc?.image ?? ''))) continue;
    for (const v of svc.volumes ?? []) {
      const [host, target] = String(typeof v === 'string' ? v : `${v.source}:${v.target}`).split(
        ':',
      );
      if (!target?.startsWith('/docker-entrypoint-initdb.d') || !host.startsWith('.')) continue;
      const file = path.resolve(composeDir, host);
      if (!existsSync(file)) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/CREATE\s+DATABASE\s+"?(\w+)"?/gi))
        names.add(m[1]);
    }
  }
  return names;
}

/**
 * Problems of a parsed compose file (`doc`), for the workspace at `root`; `composeDir` is where
 * the file lives (build contexts and mounts are relative to it).
 */
/** What `built` holds for a service of the Dockerfile's migrate target. */
const MIGRATE_IMAGE = '(migrate)';

export function checkCompose(doc, { root = ROOT, composeDir = root } = {}) {
  const problems = [];
  const services = doc?.services ?? {};
  if (!Object.keys(services).length) return ['no services defined'];
  const apps = listApps(root);
  const images = Object.values(services).map((s) => String(s?.image ?? ''));
  if (!images.some((i) => /^postgres(:|$)/.test(i))) problems.push('no postgres service');
  if (!images.some((i) => /^nats(:|$)/.test(i))) problems.push('no nats service');
  const databases = initDatabases(services, composeDir);

  // Services built from the Dockerfile, by the app they run.
  const built = {};
  for (const [name, svc] of Object.entries(services)) {
    if (!svc?.build) continue;
    const context = path.resolve(composeDir, interpolate(svc.build.context ?? '.'));
    if (context !== root) problems.push(`${name}: build.context must be the repository root`);
    const dockerfile = path.resolve(context, svc.build.dockerfile ?? 'Dockerfile');
    if (!existsSync(dockerfile)) problems.push(`${name}: ${dockerfile} does not exist`);
    // the Dockerfile's dev-tools target (mailbox, secrets) runs no app; its migrate target applies
    // migrations (checked below like any migration container)
    if (svc.build.target === 'dev-tools') continue;
    if (svc.build.target === 'migrate') {
      built[name] = MIGRATE_IMAGE;
      continue;
    }
    const app = buildArg(svc, 'APP');
    if (!app) problems.push(`${name}: build.args.APP is not set`);
    else if (!apps.includes(app))
      problems.push(`${name}: build.args.APP=${app} names no app (apps/${app}/src/main.ts)`);
    else built[name] = app;
  }

  for (const app of apps)
    if (!services[app]) problems.push(`app ${app} (apps/${app}/src/main.ts) has no service`);
  // A service's worker processes: a service each, of the same image, with their role; the
  // service's own container then serves only its API.
  const workers = Object.fromEntries(
    workersOf(Object.keys(WORKER_PROCESSES)).map((w) => [w.name, w]),
  );
  for (const w of Object.values(workers)) {
    if (!services[w.app]) continue;
    if (!services[w.name])
      problems.push(`app ${w.app} runs ${w.name} (PROCESS_ROLE=${w.role}): it has no service`);
    else if (environmentOf(services[w.app]).PROCESS_ROLE !== 'api')
      problems.push(`${w.app}: PROCESS_ROLE should be api (${w.name} runs the ${w.role})`);
  }

  for (const [name, svc] of Object.entries(services)) {
    const deps = dependsOn(svc);
    for (const [dep, condition] of Object.entries(deps)) {
      if (!services[dep]) problems.push(`${name}: depends_on ${dep}, which is not a service`);
      if (!CONDITIONS.includes(condition))
        problems.push(`${name}: depends_on ${dep} has unknown condition ${condition}`);
      if (condition === 'service_healthy' && services[dep] && !services[dep].healthcheck)
        if (!built[dep])
          problems.push(`${name}: waits for ${dep} to be healthy, it has no healthcheck`);
    }

    const app = built[name];
    if (!app) continue;
    const env = environmentOf(svc);
    const cmd = commandOf(svc);
    const migrateOf =
      cmd.includes('tools/prisma.mjs') && cmd.includes('deploy') ? cmd.at(-1) : null;

    if (app === MIGRATE_IMAGE && !migrateOf)
      problems.push(`${name}: the migrate image runs "node tools/prisma.mjs deploy <service>"`);
    if (migrateOf) {
      if (!hasMigrations(migrateOf, root))
        problems.push(
          `${name}: migrates ${migrateOf}, which has no prisma/${migrateOf}/migrations`,
        );
      if (!env.DATABASE_URL) problems.push(`${name}: DATABASE_URL is not set`);
      else if (urlDatabase(env.DATABASE_URL) !== databaseName(migrateOf))
        problems.push(`${name}: DATABASE_URL should name database ${databaseName(migrateOf)}`);
      continue;
    }
    if (name !== app) {
      const w = workers[name];
      if (w?.app !== app) problems.push(`${name}: runs app ${app}; name the service after its app`);
      else if (env.PROCESS_ROLE !== w.role)
        problems.push(`${name}: PROCESS_ROLE should be ${w.role}`);
    }

    // Environment names: only what the app reads, and everything it requires.
    // KEY_FILE names a file holding KEY (loadConfig reads it when KEY is unset)
    const { names, required, production } = appEnvNames(app, root);
    const given = (key) => key in env || `${key}_FILE` in env;
    for (const key of Object.keys(env)) {
      const base = key.endsWith('_FILE') ? key.slice(0, -'_FILE'.length) : key;
      if (!names.includes(key) && !names.includes(base) && !RUNTIME_ENV.includes(key))
        problems.push(`${name}: environment ${key} is not read by ${app}`);
    }
    for (const key of required)
      if (!given(key)) problems.push(`${name}: environment ${key} is required by ${app}`);
    if (env.NODE_ENV === 'production')
      for (const key of production)
        if (!env[key] && !env[`${key}_FILE`])
          problems.push(`${name}: environment ${key} is required by ${app} in production`);

    if (env.NATS_URL) {
      const host = urlHost(env.NATS_URL);
      if (host && !services[host])
        problems.push(`${name}: NATS_URL names host ${host}, no service`);
    }

    if (app === GATEWAY) {
      const ports = (svc.ports ?? []).map((p) => interpolate(typeof p === 'object' ? p.target : p));
      if (!ports.some((p) => /(^|:)3000$/.test(String(p))))
        problems.push(`${name}: does not publish container port 3000`);
      for (const other of apps.filter((a) => a !== GATEWAY && services[a])) {
        const key = `${envPrefix(other)}_URL`;
        if (!env[key]) problems.push(`${name}: ${key} is not set (service ${other} exists)`);
        else if (urlHost(env[key]) !== other)
          problems.push(`${name}: ${key} should point at http://${other}:3000`);
        if (dependsOn(svc)[other] !== 'service_healthy')
          problems.push(`${name}: should wait for ${other} (depends_on, service_healthy)`);
      }
      for (const sub of (env.GRAPHQL_SUBGRAPHS ?? '').split(',').filter(Boolean))
        if (!services[sub.trim()] || !apps.includes(sub.trim()))
          problems.push(`${name}: GRAPHQL_SUBGRAPHS names ${sub}, which is not an app service`);
      continue;
    }

    // A service: its own database, created by the init script, migrated before it starts.
    const db = databaseName(app);
    if (!env.DATABASE_URL) continue; // reported above as required
    if (urlDatabase(env.DATABASE_URL) !== db)
      problems.push(`${name}: DATABASE_URL should name database ${db}`);
    if (!databases.has(db))
      problems.push(`${name}: database ${db} is not created by the postgres init script`);
    if (hasMigrations(app, root)) {
      const migrator = Object.entries(dependsOn(svc)).find(
        ([dep, cond]) =>
          cond === 'service_completed_successfully' &&
          commandOf(services[dep]).includes('deploy') &&
          commandOf(services[dep]).at(-1) === app,
      );
      if (!migrator)
        problems.push(
          `${name}: should depend on a service running "node tools/prisma.mjs deploy ${app}"` +
            ' (condition service_completed_successfully)',
        );
    }
  }
  return problems;
}
