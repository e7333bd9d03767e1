// What the repository holds, found on disk rather than listed by hand, so a service added later
// (apps/<name>/src/main.ts, prisma/<name>/) is started, migrated and checked without edits here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const GATEWAY = 'gateway';

/** The ports of the design (ARCHITECTURE.md); a service not listed gets the next free number. */
export const DEFAULT_PORTS = Object.freeze({
  gateway: 3000,
  'crm-people': 3001,
  'crm-companies': 3002,
  events: 3003,
  'bookings-invitations': 3004,
  'tenant-info': 3005,
});
const FIRST_EXTRA_PORT = 3010;

/**
 * Processes of a service besides the one serving its API, started from the same build (its
 * dist main.js) with PROCESS_ROLE set; the service's own process then runs with PROCESS_ROLE=api.
 * bookings-invitations sends its mails from a process of its own, and the events service consumes
 * the platform's events and sends webhooks from one, each at a lower priority (nice), so rendering
 * PDFs and fanning bookings out into webhooks never compete with bookings for the API's event
 * loop or CPU. `port`: its health port (<NAME>_PORT overrides it, e.g. BOOKINGS_MAIL_WORKER_PORT).
 */
export const WORKER_PROCESSES = Object.freeze({
  events: Object.freeze([
    Object.freeze({
      name: 'events-worker',
      role: 'worker',
      port: 3013,
      env: Object.freeze({ WORKER_NICE: '19' }),
    }),
  ]),
  'bookings-invitations': Object.freeze([
    Object.freeze({
      name: 'bookings-mail-worker',
      role: 'mail-worker',
      port: 3014,
      env: Object.freeze({ MAIL_WORKER_NICE: '19' }),
    }),
  ]),
});

/** The worker processes of `services`, each with `app`: the service it belongs to. */
export const workersOf = (services) =>
  services.flatMap((app) => (WORKER_PROCESSES[app] ?? []).map((w) => ({ ...w, app })));

/**
 * Variables any Node process may be given without its config class reading them (the OTEL_ ones
 * are read by libs/telemetry and OpenTelemetry's SDK).
 */
export const RUNTIME_ENV = Object.freeze([
  'APOLLO_TELEMETRY_DISABLED',
  'NODE_OPTIONS',
  'TZ',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
]);

/** `crm-people` -> `CRM_PEOPLE` (prefix of CRM_PEOPLE_PORT, CRM_PEOPLE_URL). */
export const envPrefix = (app) => app.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/** `crm-people` -> `crm_people`: the database of a service (hyphens need quoting in SQL). */
export const databaseName = (app) => app.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/** App folders with a src/main.ts; test projects (`*-e2e`) are not apps that run. */
export function listApps(root = ROOT) {
  const dir = path.join(root, 'apps');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => !name.endsWith('-e2e'))
    .filter((name) => existsSync(path.join(dir, name, 'src', 'main.ts')))
    .sort();
}

/** Splits the apps into the gateway and the services behind it. */
export function classifyApps(apps) {
  return { gateway: apps.includes(GATEWAY), services: apps.filter((a) => a !== GATEWAY) };
}

/** Services whose schema has migrations to apply. */
export function hasMigrations(app, root = ROOT) {
  return existsSync(path.join(root, 'prisma', app, 'migrations'));
}

const WORKER_PORTS = Object.fromEntries(
  Object.values(WORKER_PROCESSES).flatMap((ws) => ws.map((w) => [w.name, w.port])),
);

/**
 * The port of each app: `PORT` for the gateway, `<APP>_PORT` for a service (CRM_PEOPLE_PORT) or
 * a worker process (by its name: BOOKINGS_MAIL_WORKER_PORT), else the design's default. Throws on
 * a value that is not a port number.
 */
export function appPorts(apps, env = process.env) {
  const ports = {};
  let extra = FIRST_EXTRA_PORT;
  for (const app of apps) {
    const name = app === GATEWAY ? 'PORT' : `${envPrefix(app)}_PORT`;
    const raw = env[name];
    if (raw !== undefined && raw !== '') {
      const port = Number(raw);
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new Error(`${name}=${JSON.stringify(raw)} is not a port number (1-65535)`);
      ports[app] = port;
    } else {
      ports[app] = DEFAULT_PORTS[app] ?? WORKER_PORTS[app] ?? extra++;
    }
  }
  const seen = new Map();
  for (const [app, port] of Object.entries(ports)) {
    if (seen.has(port)) throw new Error(`${app} and ${seen.get(port)} would both use port ${port}`);
    seen.set(port, app);
  }
  return ports;
}

function* walkTs(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory()) {
      if (entry !== 'generated' && entry !== 'node_modules') yield* walkTs(p);
    } else if (p.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(p)) yield p;
  }
}

// A config class property in capitals is an environment variable (libs/config loadConfig).
const CONFIG_PROPERTY = /^\s+(?:override\s+|readonly\s+)*([A-Z][A-Z0-9_]*)\s*([!?])?\s*[:=]/gm;
const PROCESS_ENV = /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g;

// A property checked by @InternalTokenRule() (libs/config) or @SecretsKeyRule() (libs/secrets)
// must be set when NODE_ENV=production.
const PRODUCTION_RULE =
  /@(?:InternalTokenRule|SecretsKeyRule)\(\)\s+(?:override\s+|readonly\s+)*([A-Z][A-Z0-9_]*)/g;

function configDeclarations(text, names, required, optional, production = new Set()) {
  for (const m of text.matchAll(PRODUCTION_RULE)) production.add(m[1]);
  for (const m of text.matchAll(CONFIG_PROPERTY)) {
    const [, name, mark] = m;
    names.add(name);
    // `NAME!: type` has no default: loadConfig rejects the process when it is unset.
    if (mark === '!') required.add(name);
    else optional.add(name);
  }
}

/** Config classes of libs/config (ServiceConfig, FileStorageConfig...): name -> file text, parent. */
function sharedConfigClasses(root) {
  const classes = new Map();
  for (const file of walkTs(path.join(root, 'libs', 'config', 'src'))) {
    const text = readFileSync(file, 'utf8');
    // each class's own text: one file may hold several (AppConfig and ServiceConfig)
    for (const m of text.matchAll(/export\s+class\s+(\w+)(?:\s+extends\s+(\w+))?/g)) {
      const next = text.indexOf('\nexport ', m.index + 1);
      classes.set(m[1], { text: text.slice(m.index, next < 0 ? text.length : next), parent: m[2] });
    }
  }
  return classes;
}

/**
 * The environment variables an app reads: properties of its config classes (files with
 * "config" in their path, plus the libs/config classes it extends) and direct `process.env.X` reads.
 * `required` are those without a default; `production` those required when NODE_ENV=production
 * (docker-compose.yml and deploy/k8s run the apps so).
 */
export function appEnvNames(app, root = ROOT) {
  const names = new Set();
  const required = new Set();
  const optional = new Set();
  const production = new Set();
  const shared = sharedConfigClasses(root);
  const extended = new Set();
  for (const file of walkTs(path.join(root, 'apps', app, 'src'))) {
    const text = readFileSync(file, 'utf8');
    if (/config/i.test(path.relative(path.join(root, 'apps', app, 'src'), file)))
      configDeclarations(text, names, required, optional, production);
    for (const m of text.matchAll(/extends\s+(\w+)/g)) if (shared.has(m[1])) extended.add(m[1]);
    for (const m of text.matchAll(PROCESS_ENV)) {
      names.add(m[1] ?? m[2]);
      optional.add(m[1] ?? m[2]);
    }
  }
  // The libs/config classes extended, and the ones they extend in turn (FileStorageConfig
  // extends ServiceConfig).
  for (const name of extended) {
    const { text, parent } = shared.get(name);
    configDeclarations(text, names, required, optional, production);
    if (parent && shared.has(parent)) extended.add(parent);
  }
  // A default anywhere (an app's `override PORT = 3001`) makes the variable optional.
  for (const n of optional) required.delete(n);
  return {
    names: [...names].sort(),
    required: [...required].sort(),
    production: [...production].sort(),
  };
}
