#!/usr/bin/env node
// Gathers what one app needs at run time into a folder, for the last stage of its image:
//   node tools/image/app-files.mjs <app> <out>
//   node tools/image/app-files.mjs --tools <out>   (the compose dev tools: mailbox and S3 server)
// <out> gets dist/ (the app and the libraries it imports, compiled), node_modules/ (only the
// packages the compiled code requires, with their dependency closure), package.json (the app's
// own production dependencies), and for a service its migrations with the tool that applies them.
//
// Why not `npm prune --omit=dev`: that keeps every app's dependencies in every image (870 MB each).
// Why not a fresh `npm ci` per app: six installs from the registry took most of a 25-minute build.
// So the packages are copied out of the tree `npm ci` made once: a package is taken when compiled
// code requires it, then its dependencies, optional dependencies and peers, as far as they are
// installed, resolved as Node resolves them (nested node_modules first, then upwards).
import { cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const builtins = new Set(builtinModules);
const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`), null for relative ones. */
export function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
    return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtins.has(name) || !PACKAGE_NAME.test(name) ? null : name;
}

/** Bare package names required (CommonJS `require("x")`) or imported by one compiled file. */
export function requiredPackages(code) {
  const names = new Set();
  for (const m of code.matchAll(
    /(?:\brequire\(\s*|\bimport\(\s*|\bfrom\s+|^import\s+)["']([^"']+)["']/gm,
  )) {
    const name = packageOf(m[1]);
    if (name) names.add(name);
  }
  return names;
}

const exists = (p) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** Where Node would find package `name` required from `fromDir`, or null when it is not installed. */
async function locate(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (await exists(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}

/**
 * The installed folders of `names` and everything they depend on. Peers and optional dependencies
 * count when installed (a peer is how @nestjs/graphql finds @apollo/subgraph, an optional
 * dependency how sharp finds its platform's binary); a missing one is the package's own business.
 */
export async function dependencyClosure(names, fromDir = root) {
  const found = new Set();
  const missing = [];
  const queue = [...names].map((name) => ({ name, from: fromDir, required: true }));
  while (queue.length) {
    const { name, from, required } = queue.shift();
    const dir = await locate(name, from);
    if (!dir) {
      if (required) missing.push(name);
      continue;
    }
    if (found.has(dir)) continue;
    found.add(dir);
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(pkg.dependencies ?? {}))
      queue.push({ name: dep, from: dir, required: !(dep in (pkg.optionalDependencies ?? {})) });
    for (const dep of Object.keys(pkg.optionalDependencies ?? {}))
      queue.push({ name: dep, from: dir, required: false });
    // an optional peer (@prisma/client's prisma CLI and typescript) is for who wants it
    for (const dep of Object.keys(pkg.peerDependencies ?? {}))
      if (!pkg.peerDependenciesMeta?.[dep]?.optional)
        queue.push({ name: dep, from: dir, required: false });
  }
  return { dirs: [...found].sort(), missing };
}

/** Files no running process reads: types, source maps, docs. */
const UNREAD_FILE = /(\.d\.[cm]?ts|\.map|\.tsbuildinfo|\.(md|markdown)|^CHANGELOG.*)$/i;
/** Prisma's runtime and its migrate CLI ship a query compiler and engine per database: the services use PostgreSQL only. */
const OTHER_DATABASE = /^query_(compiler|engine)_.*\.(cockroachdb|mysql|sqlite|sqlserver)\./;
const PRISMA_PACKAGE = /node_modules\/(@prisma\/client|prisma-migrate)\//;

/**
 * Whether a file of a package is ever loaded at run time, as far as names tell: not type
 * declarations, source maps or docs, not the other databases' Prisma compilers, not the ES-module
 * twins of a package whose CommonJS build is its `main` (OpenTelemetry ships build/src, build/esm
 * and build/esnext; require() loads build/src). Decided while copying: copying everything and
 * deleting afterwards took minutes per app inside a Docker build.
 */
async function isLoaded(file, twinRoots) {
  const name = path.basename(file);
  if (UNREAD_FILE.test(name) && !/^licen[sc]e/i.test(name)) return false;
  if (OTHER_DATABASE.test(name) && PRISMA_PACKAGE.test(file)) return false;
  const twin = /^(.*)\/build\/(esm|esnext)(\/|$)/.exec(file);
  if (twin) {
    const pkgRoot = twin[1];
    if (!twinRoots.has(pkgRoot)) {
      const pkg = JSON.parse(
        await readFile(path.join(pkgRoot, 'package.json'), 'utf8').catch(() => '{}'),
      );
      twinRoots.set(
        pkgRoot,
        typeof pkg.main === 'string' && /^(\.\/)?build\/src\//.test(pkg.main) && !pkg.exports,
      );
    }
    if (twinRoots.get(pkgRoot)) return false;
  }
  return true;
}

/**
 * Copies package folders, each once (a folder nested in one already copied came with it), with
 * only the files that are loaded; type packages (@types/*) hold none.
 */
async function copyPackages(dirs, out) {
  let copied = 0;
  let skipped = 0;
  const taken = [];
  const twinRoots = new Map();
  for (const dir of dirs) {
    if (taken.some((t) => dir.startsWith(`${t}${path.sep}`))) continue;
    taken.push(dir);
    if (path.relative(root, dir).split(path.sep).includes('@types')) continue;
    await cp(dir, path.join(out, path.relative(root, dir)), {
      recursive: true,
      filter: async (src) => {
        const keep = (await stat(src)).isDirectory() || (await isLoaded(src, twinRoots));
        if (!keep) skipped++;
        return keep;
      },
    });
    copied++;
  }
  return { copied, skipped };
}

/** The file Node loads for a relative require from `fromFile`, or null. */
async function resolveRelative(specifier, fromFile) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.js`, `${base}.json`, path.join(base, 'index.js')])
    if ((await stat(candidate).catch(() => null))?.isFile()) return candidate;
  return null;
}

/**
 * Packages required by the compiled code reachable from `entries` (relative requires followed
 * file by file), so an app pays only for the libraries it imports: a library it does not use may
 * require sharp or exceljs without them landing in its image.
 */
async function packagesRequiredFrom(entries) {
  const names = new Set();
  const seen = new Set();
  const queue = entries.map((e) => path.join(root, e));
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file) || !/\.[cm]?js$/.test(file)) continue;
    seen.add(file);
    const code = await readFile(file, 'utf8');
    for (const n of requiredPackages(code)) names.add(n);
    for (const m of code.matchAll(/\brequire\(\s*["'](\.{1,2}\/[^"']*)["']\s*\)/g)) {
      const target = await resolveRelative(m[1], file);
      if (target) queue.push(target);
    }
  }
  return names;
}

async function gather({ app, out }) {
  const rootPkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const version = (n) => rootPkg.dependencies?.[n] ?? rootPkg.devDependencies?.[n];
  let sources;
  const extra = [];
  const copies = [];
  if (app) {
    if (!(await exists(path.join(root, 'dist/apps', app, 'src/main.js'))))
      throw new Error(
        `dist/apps/${app}/src/main.js is missing: build first (node tools/build.mjs)`,
      );
    sources = [`dist/apps/${app}/src/main.js`, 'tools/admin.mjs'];
    copies.push(`dist/apps/${app}`, 'dist/libs', 'tools/admin.mjs', 'tools/dev/admin-client.mjs');
    copies.push('tools/dev/secrets.mjs', 'tools/dev/workspace.mjs');
    if (await exists(path.join(root, 'prisma', app, 'schema.prisma'))) {
      // `node tools/prisma.mjs deploy <app>` in the migration Job: the Prisma 6 CLI and the adapter
      copies.push(`prisma/${app}`, 'tools/prisma.mjs', 'tools/prisma');
      extra.push('prisma-migrate', '@prisma/adapter-pg');
    }
  } else {
    sources = ['tools/dev/mailbox.mjs'];
    copies.push('tools/dev/mailbox.mjs', 'tools/compose/init-secrets.mjs');
    extra.push('s3rver');
  }
  const direct = new Set([...(await packagesRequiredFrom(sources)), ...extra]);
  for (const n of direct)
    if (!version(n))
      throw new Error(
        `${n} is required by ${app ?? 'the tools'} but not a dependency in package.json`,
      );
  const { dirs, missing } = await dependencyClosure(direct);
  if (missing.length) throw new Error(`not installed: ${missing.join(', ')} (run npm ci first)`);
  await mkdir(out, { recursive: true });
  for (const c of copies) await cp(path.join(root, c), path.join(out, c), { recursive: true });
  const { copied, skipped } = await copyPackages(dirs, out);
  const dependencies = Object.fromEntries([...direct].sort().map((n) => [n, version(n)]));
  await writeFile(
    path.join(out, 'package.json'),
    `${JSON.stringify(
      {
        name: app ?? 'crm-dev-tools',
        version: rootPkg.version,
        private: true,
        description: `${app ?? 'dev tools'}: its run-time dependencies only (tools/image/app-files.mjs)`,
        license: rootPkg.license,
        dependencies,
      },
      null,
      2,
    )}\n`,
  );
  console.log(
    `app-files: ${app ?? 'dev tools'}: ${direct.size} direct dependencies, ${dirs.length} packages in ${copied} folders (${skipped} files never loaded left out) -> ${out}`,
  );
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [first, second] = process.argv.slice(2);
  const target = first === '--tools' ? { app: null, out: second } : { app: first, out: second };
  if (!target.out || (first !== '--tools' && !first)) {
    console.error('usage: node tools/image/app-files.mjs <app> <out> | --tools <out>');
    process.exit(2);
  }
  gather({ app: target.app, out: path.resolve(target.out) }).catch((err) => {
    console.error(`app-files: ${err.message}`);
    process.exit(1);
  });
}
