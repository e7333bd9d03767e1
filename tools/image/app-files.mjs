#!/usr/bin/env node
// Gathers what each app (and the compose dev tools) needs at run time, for the images:
//   node tools/image/app-files.mjs packages [--check]   the packages each app's compiled code
//        requires, into tools/image/app-packages.json (committed; npm test checks it is current)
//   node tools/image/app-files.mjs deps <out>   <out>/<app>/: node_modules with only those packages
//        and their dependency closure, and package.json (the app's own production dependencies)
//   node tools/image/app-files.mjs own <out>    <out>/<app>/: dist/ (the app and the libraries),
//        and the admin tool; the target `migrate`: every service's migrations and the tool
// Two parts because they change at different speeds: the Docker stage that runs `deps` depends on
// the lockfile and the committed list only, so a source change rebuilds `own` (a few MB) alone.
//
// Why not `npm prune --omit=dev`: that keeps every app's dependencies in every image (870 MB each).
// Why not a fresh `npm ci` per app: six installs from the registry took most of a 25-minute build.
// So the packages are copied out of the tree `npm ci` made once: a package is taken when compiled
// code requires it, then its dependencies, optional dependencies and peers, as far as they are
// installed, resolved as Node resolves them (nested node_modules first, then upwards).
import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
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

/** Bare package names required (CommonJS `require("x")`, `require.resolve("x")`) or imported by one compiled file. */
export function requiredPackages(code) {
  const names = new Set();
  for (const m of code.matchAll(
    /(?:\brequire(?:\.resolve)?\(\s*|\bimport\(\s*|\bfrom\s+|^import\s+)["']([^"']+)["']/gm,
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
 * Optional peers a package loads by name (Nest's loadPackage) when an app uses the feature, which
 * no import in the app's code shows: a federated subgraph needs @apollo/subgraph (the services
 * crashed at start without it: "The @apollo/subgraph package is missing"). Found by
 * `grep -rhoE "loadPackage\)?\(\s*'[^']+'" node_modules/@nestjs` against package.json's dependencies;
 * the compose stage starts every image, so one missing here fails CI.
 */
const LOADED_BY_NAME = {
  '@nestjs/graphql': ['@apollo/subgraph'],
  // the Apollo driver on the Fastify platform: "The @as-integrations/fastify package is missing"
  '@nestjs/apollo': ['@as-integrations/fastify'],
  // the gateway's docs page (Swagger UI through FastifyAdapter.useStaticAssets)
  '@nestjs/platform-fastify': ['@fastify/static'],
};

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
    // an optional peer (@prisma/client's prisma CLI and typescript) is for who wants it...
    for (const dep of Object.keys(pkg.peerDependencies ?? {}))
      if (!pkg.peerDependenciesMeta?.[dep]?.optional)
        queue.push({ name: dep, from: dir, required: false });
    // ...except those a package loads by name at run time when the app uses the feature
    for (const dep of LOADED_BY_NAME[pkg.name] ?? [])
      queue.push({ name: dep, from: dir, required: true });
  }
  return { dirs: [...found].sort(), missing };
}

/** Files no running process reads: types, source maps, docs. */
const UNREAD_FILE = /(\.d\.[cm]?ts|\.map|\.tsbuildinfo|\.(md|markdown)|^CHANGELOG.*)$/i;
/** Prisma's runtime and its migrate CLI ship a query compiler and engine per database: the services use PostgreSQL only. */
const OTHER_DATABASE = /^query_(compiler|engine)_.*\.(cockroachdb|mysql|sqlite|sqlserver)\./;
/** A package's own test folder (node_modules/fastify/test): packages do not load their tests. */
const PACKAGE_TESTS = /node_modules\/(@[^/]+\/)?[^/]+\/(test|tests|__tests__)$/;
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
        const keep = (await stat(src)).isDirectory()
          ? !PACKAGE_TESTS.test(src)
          : await isLoaded(src, twinRoots);
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

const PACKAGES_FILE = path.join(root, 'tools/image/app-packages.json');
const DEV_TOOLS = 'dev-tools';
/** The image that applies migrations (compose's <service>-migrate containers, Kubernetes Jobs). */
const MIGRATE = 'migrate';

/** The apps with an image (apps/<app>/src/main.ts, not the -e2e test projects), and the dev tools. */
async function targets() {
  const apps = (await readdir(path.join(root, 'apps'))).filter((a) => !a.endsWith('-e2e')).sort();
  return [...apps, DEV_TOOLS, MIGRATE];
}

/** What a target's image carries of the repository (besides node_modules), and where its code starts. */
async function ownFiles(target) {
  // Every service's migrations and the Prisma 6 CLI that applies them (45 MB): an image of its
  // own, so that the apps, which never migrate, do not carry it.
  if (target === MIGRATE)
    return {
      entries: ['tools/prisma.mjs'],
      extra: ['prisma-migrate', '@prisma/adapter-pg'],
      copies: ['prisma', 'tools/prisma.mjs', 'tools/prisma'],
    };
  if (target === DEV_TOOLS)
    return {
      entries: ['tools/dev/mailbox.mjs', 'tools/dev/traces.mjs'],
      extra: ['s3rver'],
      copies: ['tools/dev/mailbox.mjs', 'tools/dev/traces.mjs', 'tools/compose/init-secrets.mjs'],
    };
  const copies = [
    `dist/apps/${target}`,
    'dist/libs',
    'tools/admin.mjs',
    'tools/dev/admin-client.mjs',
    'tools/dev/secrets.mjs',
    'tools/dev/workspace.mjs',
  ];
  return { entries: [`dist/apps/${target}/src/main.js`, 'tools/admin.mjs'], extra: [], copies };
}

/** The packages each target's code requires, from the compiled apps (build first). */
export async function computePackages() {
  const rootPkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const declared = { ...rootPkg.devDependencies, ...rootPkg.dependencies };
  const result = {};
  for (const target of await targets()) {
    const { entries, extra } = await ownFiles(target);
    if (target !== DEV_TOOLS && !(await exists(path.join(root, entries[0]))))
      throw new Error(`${entries[0]} is missing: build first (node tools/build.mjs)`);
    const direct = [...new Set([...(await packagesRequiredFrom(entries)), ...extra])].sort();
    for (const n of direct)
      if (!declared[n]) throw new Error(`${n} is required by ${target} but not in package.json`);
    result[target] = direct;
  }
  return result;
}

/**
 * deps: the target's packages (from app-packages.json) with their closure, and its package.json.
 * Needs only node_modules, package.json and the list: the image stage that runs it is rebuilt when
 * the dependencies change, not with every source change.
 */
async function gatherDeps(target, out) {
  const rootPkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const version = (n) => rootPkg.dependencies?.[n] ?? rootPkg.devDependencies?.[n];
  const lists = JSON.parse(await readFile(PACKAGES_FILE, 'utf8'));
  const direct = lists[target];
  if (!direct) throw new Error(`${target} is not in tools/image/app-packages.json`);
  const { dirs, missing } = await dependencyClosure(direct);
  if (missing.length) throw new Error(`not installed: ${missing.join(', ')} (run npm ci first)`);
  await mkdir(out, { recursive: true });
  const { copied, skipped } = await copyPackages(dirs, out);
  await writeFile(
    path.join(out, 'package.json'),
    `${JSON.stringify(
      {
        name: target,
        version: rootPkg.version,
        private: true,
        description: `${target}: its run-time dependencies only (tools/image/app-files.mjs)`,
        license: rootPkg.license,
        dependencies: Object.fromEntries(direct.map((n) => [n, version(n)])),
      },
      null,
      2,
    )}\n`,
  );
  console.log(
    `app-files: ${target}: ${direct.length} direct dependencies, ${dirs.length} packages in ${copied} folders (${skipped} files never loaded left out)`,
  );
}

/** own: the target's compiled code, tools and migrations. */
async function gatherOwn(target, out) {
  const { copies } = await ownFiles(target);
  await mkdir(out, { recursive: true });
  for (const c of copies) await cp(path.join(root, c), path.join(out, c), { recursive: true });
}

const USAGE = `usage: node tools/image/app-files.mjs <command>
  packages [--check]   write tools/image/app-packages.json from the built apps (--check: fail when it differs)
  deps <out>           every target's packages into <out>/<target>/ (node_modules, package.json)
  own <out>            every target's code, tools and migrations into <out>/<target>/`;

async function main(args) {
  const [command, arg] = args;
  if (command === 'packages') {
    const text = `${JSON.stringify(await computePackages(), null, 2)}\n`;
    const current = await readFile(PACKAGES_FILE, 'utf8').catch(() => ''); // generated: not prettier's
    if (arg === '--check') {
      if (text !== current) {
        console.error(
          'app-files: tools/image/app-packages.json is not what the built apps require: run `node tools/build.mjs && node tools/image/app-files.mjs packages`',
        );
        process.exit(1);
      }
      console.log('app-files: tools/image/app-packages.json is current');
    } else {
      await writeFile(PACKAGES_FILE, text);
      console.log(`app-files: wrote ${path.relative(root, PACKAGES_FILE)}`);
    }
    return;
  }
  if (command === 'deps' && arg) {
    // the list names the targets: this runs where apps/ is not (the image's dependency stage)
    for (const target of Object.keys(JSON.parse(await readFile(PACKAGES_FILE, 'utf8'))))
      await gatherDeps(target, path.join(path.resolve(arg), target));
    return;
  }
  if (command === 'own' && arg) {
    for (const target of await targets())
      await gatherOwn(target, path.join(path.resolve(arg), target));
    return;
  }
  console.error(USAGE);
  process.exit(2);
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain)
  main(process.argv.slice(2)).catch((err) => {
    console.error(`app-files: ${err.message}`);
    process.exit(1);
  });
