import { formatFiles, generateFiles, logger, names, type Tree } from '@nx/devkit';
import path from 'node:path';

export interface ServiceGeneratorSchema {
  name: string;
  title?: string;
  port?: number;
  skipFormat?: boolean;
}

const COMPOSE = 'docker-compose.yml';
const INIT_DATABASES = 'deploy/compose/init-databases.sql';
const K8S = 'deploy/k8s/base';
const K8S_OVERLAYS = 'deploy/k8s/overlays';
const FIRST_EXTRA_PORT = 3010;

/** `bookings-invitations` -> `bookings_invitations` (tools/dev/workspace.mjs databaseName). */
export const databaseName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
/** `bookings-invitations` -> `BOOKINGS_INVITATIONS` (prefix of its _URL and _PORT variables). */
export const envPrefix = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/** The design's port of the service (tools/dev/workspace.mjs DEFAULT_PORTS), else the next free one. */
export function portOf(tree: Tree, name: string): number {
  const workspace = tree.read('tools/dev/workspace.mjs', 'utf-8') ?? '';
  const block = /DEFAULT_PORTS = Object\.freeze\(\{([^}]*)\}/.exec(workspace)?.[1] ?? '';
  const ports = new Map<string, number>();
  for (const m of block.matchAll(/'?([a-z0-9-]+)'?\s*:\s*(\d+)/g)) ports.set(m[1], Number(m[2]));
  if (ports.has(name)) return ports.get(name)!;
  const used = new Set(
    tree
      .children('apps')
      .map((app) =>
        /override PORT: number = (\d+)/.exec(tree.read(`apps/${app}/src/config.ts`, 'utf-8') ?? ''),
      )
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => Number(m[1])),
  );
  let port = FIRST_EXTRA_PORT;
  while (used.has(port)) port++;
  return port;
}

/** A top-level block of docker-compose.yml's `services:` (two-space indent) by name, with its blank line. */
function composeBlock(text: string, service: string): string | null {
  const start = text.indexOf(`\n  ${service}:\n`);
  if (start < 0) return null;
  const end = text.indexOf('\n\n', start + 1);
  return text.slice(start + 1, end < 0 ? text.length : end + 2);
}

/**
 * Adds the service to docker-compose.yml as a copy of an existing service's blocks (its one-shot
 * `-migrate` container and the service), the gateway's URL variable and depends_on, and a volume.
 */
export function addToCompose(tree: Tree, name: string): boolean {
  const text = tree.read(COMPOSE, 'utf-8');
  if (!text || text.includes(`\n  ${name}:\n`)) return false;
  const ref = /\n {2}([a-z0-9-]+)-migrate:\n/.exec(text)?.[1];
  if (!ref) return false;
  const migrate = composeBlock(text, `${ref}-migrate`);
  const service = composeBlock(text, ref);
  if (!migrate || !service) return false;
  const rename = (block: string) =>
    block
      .split(ref)
      .join(name)
      .split(databaseName(ref))
      .join(databaseName(name))
      // the copied block's comments describe the other service
      .replace(/^ +#[^\n]*\n/gm, '');
  // New services go last, before the gateway that depends on them.
  const gatewayAt = text.indexOf('\n  gateway:\n');
  const insertAt = gatewayAt >= 0 ? gatewayAt + 1 : text.indexOf(service) + service.length;
  let out = text.slice(0, insertAt) + rename(migrate) + rename(service) + text.slice(insertAt);
  const gateway = composeBlock(out, 'gateway');
  if (gateway) {
    const url = `      ${envPrefix(name)}_URL: http://${name}:3000\n`;
    const dependsOn = `      ${name}:\n        condition: service_healthy\n`;
    let next = gateway.replace(/((?: {6}[A-Z_]+_URL: http:\/\/[^\n]+\n)+)/, (urls) => urls + url);
    next = next.replace(/( {4}depends_on:\n(?: {6}[^\n]+\n)+)/, (deps) => deps + dependsOn);
    out = out.replace(gateway, next);
  }
  out = out.replace(`\n  ${ref}-files:\n`, `\n  ${ref}-files:\n  ${name}-files:\n`);
  tree.write(COMPOSE, out);
  return true;
}

/**
 * An overlay's `images:` entry for the new service, copied from its first crm-events image (same
 * registry and tag). The overlays' patches select Deployments and HPAs by label, so they apply as is.
 */
function addToOverlays(tree: Tree, name: string): void {
  if (!tree.exists(K8S_OVERLAYS)) return;
  for (const overlay of tree.children(K8S_OVERLAYS)) {
    const file = `${K8S_OVERLAYS}/${overlay}/kustomization.yaml`;
    const text = tree.read(file, 'utf-8');
    if (!text || text.includes(`crm-events/${name}\n`)) continue;
    const entry = /\n( {2}- name: crm-events\/([a-z0-9-]+)\n(?: {4}[^\n]+\n)+)/.exec(text);
    if (!entry) continue;
    const copy = entry[1].split(`crm-events/${entry[2]}`).join(`crm-events/${name}`);
    tree.write(file, text.replace(entry[1], entry[1] + copy));
  }
}

/**
 * Kubernetes: the manifest in the base kustomization's resources and images (and the overlays'
 * images), the URL, the database and object storage Secrets.
 */
export function addToKubernetes(tree: Tree, name: string): void {
  addToOverlays(tree, name);
  const kustomization = tree.read(`${K8S}/kustomization.yaml`, 'utf-8');
  if (kustomization && !kustomization.includes(`- ${name}.yaml`)) {
    tree.write(
      `${K8S}/kustomization.yaml`,
      kustomization
        .replace(/(resources:\n(?: {2}- [^\n]+\n)+)/, (r) => `${r}  - ${name}.yaml\n`)
        .replace(
          /(images:\n(?: {2}- name: [^\n]+\n {4}newTag: [^\n]+\n)+)/,
          (i) => `${i}  - name: crm-events/${name}\n    newTag: latest\n`,
        ),
    );
  }
  const config = tree.read(`${K8S}/config.yaml`, 'utf-8');
  const url = `  ${envPrefix(name)}_URL: http://${name}\n`;
  if (config && !config.includes(url)) {
    tree.write(
      `${K8S}/config.yaml`,
      config.replace(/((?: {2}[A-Z_]+_URL: http:\/\/[^\n]+\n)+)/, (urls) => urls + url),
    );
  }
  const secrets = tree.read(`${K8S}/secrets.example.yaml`, 'utf-8');
  if (secrets && !secrets.includes(`name: ${name}-database`)) {
    const db = databaseName(name);
    tree.write(
      `${K8S}/secrets.example.yaml`,
      `${secrets.trimEnd()}\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}-database\ntype: Opaque\nstringData:\n  DATABASE_URL: postgresql://${db}:change-me@postgres.example.internal:5432/${db}\n` +
        `---\n# Object storage credentials of ${name}: grant them the bucket's ${name}/ prefix only.\napiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}-object-storage\ntype: Opaque\nstringData:\n  S3_ACCESS_KEY_ID: change-me\n  S3_SECRET_ACCESS_KEY: change-me\n`,
    );
  }
}

/** The compose database init script creates the database when the volume is new. */
export function addDatabase(tree: Tree, name: string): void {
  const sql = tree.read(INIT_DATABASES, 'utf-8');
  const create = `CREATE DATABASE ${databaseName(name)};`;
  if (sql && !sql.includes(create)) tree.write(INIT_DATABASES, `${sql.trimEnd()}\n${create}\n`);
}

/**
 * `npx nx g @crm/workspace-plugin:service <name>`: a service as every service here starts - the
 * Nest app on @crm/service-kit (config checked at start, database, outbox, health), its Prisma
 * schema with the outbox tables, a test harness and a first integration test, the compose and
 * Kubernetes entries. What stays to do is printed at the end.
 */
export default async function serviceGenerator(tree: Tree, options: ServiceGeneratorSchema) {
  const name = options.name;
  if (tree.exists(`apps/${name}`)) throw new Error(`apps/${name} exists already`);
  const { className } = names(name);
  const title =
    options.title ??
    names(name)
      .name.replace(/-/g, ' ')
      .replace(/^./, (c) => c.toUpperCase());
  const port = options.port ?? portOf(tree, name);
  generateFiles(tree, path.join(__dirname, 'files'), '.', {
    name,
    className,
    title,
    port,
    dbName: databaseName(name),
    template: '',
  });
  const composeChanged = addToCompose(tree, name);
  addDatabase(tree, name);
  addToKubernetes(tree, name);
  if (!options.skipFormat) await formatFiles(tree);
  return () => {
    logger.info(
      [
        `${name} created (port ${port}, database ${databaseName(name)}). Next:`,
        `  node tools/prisma.mjs diff ${name} init && node tools/prisma.mjs generate ${name}`,
        `  gateway: ${name} in SERVICE_NAMES and its first path segments (apps/gateway/src/routing/services.ts), ${envPrefix(name)}_URL in apps/gateway/src/config.ts`,
        `  with the first resolver: subgraphModule() in app.module.ts, src/schema.graphql (schema.int-spec.ts as in the other services), npm run supergraph`,
        composeChanged
          ? ''
          : `  docker-compose.yml: add the service by hand (no block to copy was found)`,
        `  node tools/test.mjs int --project ${name}`,
      ]
        .filter(Boolean)
        .join('\n'),
    );
  };
}
