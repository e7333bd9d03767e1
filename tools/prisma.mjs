#!/usr/bin/env node
// Prisma verbs for every service schema under prisma/<service>/, working on machines that can
// reach only the npm registry (see ../shared/TOOLCHAIN.md):
//   generate [service...]            Prisma 7 client, output private to the service
//   deploy <service|all> [--url URL] apply prisma/<service>/migrations (Prisma 6.19 Wasm engine)
//   diff <service> <name>            write a new migration from the last migrated schema to the current one
// The connection string for deploy comes from --url, else DATABASE_URL.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prismaDir = path.join(root, 'prisma');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false',
  PRISMA_QUERY_ENGINE_LIBRARY: '/bin/false',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};

const services = () =>
  existsSync(prismaDir)
    ? readdirSync(prismaDir).filter((d) => existsSync(path.join(prismaDir, d, 'schema.prisma')))
    : [];

function fail(msg) {
  console.error(`prisma: ${msg}`);
  process.exit(1);
}

function pick(list) {
  const all = services();
  if (!list.length || list.includes('all')) return all;
  for (const s of list) if (!all.includes(s)) fail(`no schema at prisma/${s}/schema.prisma`);
  return list;
}

function generate(list) {
  for (const svc of pick(list)) {
    const schema = path.join(prismaDir, svc, 'schema.prisma');
    const out = path.join(root, 'apps', svc, 'src', 'generated', 'prisma', 'client.ts');
    // Skip when the client is newer than its schema: generate runs before every build and test.
    if (
      existsSync(out) &&
      statSync(out).mtimeMs > statSync(schema).mtimeMs &&
      !process.env.PRISMA_FORCE
    )
      continue;
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/prisma/build/index.js'), 'generate', '--schema', schema],
      { env, encoding: 'utf8' },
    );
    if (r.status !== 0) fail(`generate ${svc} failed:\n${r.stdout}\n${r.stderr}`);
    console.log(`prisma: generated client of ${svc}`);
  }
}

/** Prisma 6's migrate CLI wants `url = env("DATABASE_URL")`, which Prisma 7 forbids: use a copy. */
function schemaCopyWithUrl(schemaText, dir, name = 'schema.prisma') {
  const text = schemaText.replace(/datasource\s+db\s*\{([^}]*)\}/, (m, body) =>
    /\burl\s*=/.test(body) ? m : `datasource db {${body.trimEnd()}\n  url = env("DATABASE_URL")\n}`,
  );
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function runMigrateCli(args, url, tmp, schemaFile, migrationsPath) {
  const configFile = path.join(tmp, 'prisma.config.cjs');
  writeFileSync(
    configFile,
    `const { PrismaPg } = require(${JSON.stringify(path.join(root, 'node_modules/@prisma/adapter-pg'))});
module.exports = {
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => {
    const factory = new PrismaPg({ connectionString: process.env.DATABASE_URL, allowExitOnIdle: true });
    const connect = factory.connect.bind(factory);
    // The adapter runs a migration statement by statement, cut at every ';' (those of a
    // function body or a DO block too). One simple query runs the whole script instead, in one
    // implicit transaction: a migration that fails leaves nothing of itself behind.
    factory.connect = async () => {
      const adapter = await connect();
      adapter.executeScript = async (script) => {
        try {
          await adapter.client.query(script);
        } catch (error) {
          adapter.onError(error);
        }
      };
      return adapter;
    };
    return factory;
  },
  schema: ${JSON.stringify(schemaFile)},
  migrations: { path: ${JSON.stringify(migrationsPath)} },
};
`,
  );
  const nodeOptions =
    `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(root, 'tools/prisma/unref-timers.cjs')}`.trim();
  return spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/prisma-migrate/build/index.js'),
      ...args,
      '--config',
      configFile,
    ],
    {
      env: { ...env, DATABASE_URL: url ?? '', NODE_OPTIONS: nodeOptions },
      encoding: 'utf8',
      cwd: tmp,
    },
  );
}

/** What the migrate CLI says while the server is starting, restarting or not yet resolvable. */
const DATABASE_NOT_READY =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|not yet accepting connections|the database system is (starting up|shutting down)|Can't reach database server/;

function deploy(list, url) {
  if (!url) fail('deploy needs --url or DATABASE_URL');
  for (const svc of pick(list)) {
    const migrations = path.join(prismaDir, svc, 'migrations');
    if (!existsSync(migrations)) fail(`prisma/${svc}/migrations does not exist`);
    const tmp = mkdtempSync(path.join(os.tmpdir(), `prisma-${svc}-`));
    try {
      const schema = schemaCopyWithUrl(
        readFileSync(path.join(prismaDir, svc, 'schema.prisma'), 'utf8'),
        tmp,
      );
      // A database that is still starting (a container's first start runs its init scripts on a
      // temporary server, then restarts) is waited for, not a failed migration.
      const waitUntil = Date.now() + Number(process.env.PRISMA_DEPLOY_WAIT_S ?? 60) * 1000;
      let r = runMigrateCli(['migrate', 'deploy'], url, tmp, schema, migrations);
      while (
        r.status !== 0 &&
        DATABASE_NOT_READY.test(`${r.stdout}\n${r.stderr}`) &&
        Date.now() < waitUntil
      ) {
        console.log(`prisma: ${svc}: the database does not accept connections yet, retrying`);
        spawnSync('sleep', ['2']);
        r = runMigrateCli(['migrate', 'deploy'], url, tmp, schema, migrations);
      }
      if (r.status !== 0) fail(`deploy ${svc} failed:\n${r.stdout}\n${r.stderr}`);
      const applied = /(\d+) migrations? found/.exec(r.stdout)?.[1] ?? '?';
      console.log(`prisma: ${svc} migrations applied (${applied} in folder)`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

function lastMigratedSchema(svc) {
  // The schema as of the newest migration is kept beside it, so a diff needs no database.
  const migrations = path.join(prismaDir, svc, 'migrations');
  if (!existsSync(migrations)) return null;
  const dirs = readdirSync(migrations)
    .filter((d) => /^\d+_/.test(d))
    .sort();
  for (const d of dirs.reverse()) {
    const snap = path.join(migrations, d, 'schema.prisma.snapshot');
    if (existsSync(snap)) return readFileSync(snap, 'utf8');
  }
  return null;
}

function diff(svc, name) {
  if (!svc || !name) fail('usage: diff <service> <migration_name>');
  const schemaPath = path.join(prismaDir, svc, 'schema.prisma');
  if (!existsSync(schemaPath)) fail(`no schema at prisma/${svc}/schema.prisma`);
  const current = readFileSync(schemaPath, 'utf8');
  const previous = lastMigratedSchema(svc);
  const tmp = mkdtempSync(path.join(os.tmpdir(), `prisma-diff-${svc}-`));
  try {
    const to = schemaCopyWithUrl(current, tmp, 'to.prisma');
    const from = previous
      ? ['--from-schema-datamodel', schemaCopyWithUrl(previous, tmp, 'from.prisma')]
      : ['--from-empty'];
    const r = runMigrateCli(
      ['migrate', 'diff', ...from, '--to-schema-datamodel', to, '--script'],
      url ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
      tmp,
      to,
      path.join(tmp, 'm'),
    );
    if (r.status !== 0) fail(`diff ${svc} failed:\n${r.stdout}\n${r.stderr}`);
    if (/This is an empty migration/.test(r.stdout))
      return console.log(`prisma: ${svc} schema unchanged, no migration written`);
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = path.join(prismaDir, svc, 'migrations', `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'migration.sql'), r.stdout);
    writeFileSync(path.join(dir, 'schema.prisma.snapshot'), current);
    const lock = path.join(prismaDir, svc, 'migrations', 'migration_lock.toml');
    if (!existsSync(lock)) writeFileSync(lock, 'provider = "postgresql"\n');
    console.log(`prisma: wrote ${path.relative(root, dir)}/migration.sql`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const [verb, ...rest] = process.argv.slice(2);
const urlIdx = rest.indexOf('--url');
const url = urlIdx >= 0 ? rest.splice(urlIdx, 2)[1] : process.env.DATABASE_URL;
switch (verb) {
  case 'generate':
    generate(rest);
    break;
  case 'deploy':
    deploy(rest, url);
    break;
  case 'diff':
    diff(rest[0], rest[1]);
    break;
  default:
    fail(
      'usage: node tools/prisma.mjs generate [service...] | deploy <service|all> [--url URL] | diff <service> <name>',
    );
}
