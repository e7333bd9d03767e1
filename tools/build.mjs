#!/usr/bin/env node
// Compiles apps and libs with swc into dist/, mirroring the source tree, and rewrites the
// @crm/* path aliases into relative imports so `node dist/apps/<app>/src/main.js` runs as is.
// Type checking is `npm run typecheck` (tsc); swc only strips types, which keeps builds fast.
// dist/ is written over, never wiped first: running processes and parallel test runs keep working.
// Tests and test support never reach dist/: spec files, `test/` folders (apps/<app>/src/**/test/,
// libs/*/src/**/test/) and libraries tagged type:testing (libs/testing) are left out, and what an
// earlier build left of them is removed.
import { transformFile } from '@swc/core';
import { createRequire } from 'node:module';
import { cp, mkdir, readdir, readFile, rm, writeFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const require = createRequire(import.meta.url);
const { swcOptions, root } = require('./swc-options.cjs');

const dist = path.join(root, 'dist');
const isSource = (f) =>
  f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(f);
const isAsset = (f) =>
  /\.(json|graphql|html|css)$/.test(f) && !/(project|tsconfig.*)\.json$/.test(f);

/** Folders of test support (helpers, stand-ins, fixtures): only specs import them. */
const TEST_DIRS = new Set(['test', '__fixtures__']);

/** Whether a library is test support (its project.json has the tag type:testing). */
async function isTestingLib(lib) {
  try {
    const project = JSON.parse(
      await readFile(path.join(root, 'libs', lib, 'project.json'), 'utf8'),
    );
    return (project.tags ?? []).includes('type:testing');
  } catch {
    return false;
  }
}

/** Removes from dist/ what earlier builds compiled of tests and test support. */
async function removeTestOutput(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (TEST_DIRS.has(e.name)) await rm(p, { recursive: true, force: true });
      else await removeTestOutput(p);
    } else if (/\.(spec|int-spec|e2e-spec)\.js(\.map)?$/.test(e.name)) await rm(p, { force: true });
  }
}

/** Removes compiled files whose source is gone (moved or deleted since an earlier build). */
async function removeOrphans(outDir, srcDir) {
  const entries = await readdir(outDir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const out = path.join(outDir, e.name);
    const src = path.join(srcDir, e.name);
    if (e.isDirectory()) await removeOrphans(out, src);
    else if (/\.js(\.map)?$/.test(e.name)) {
      const ts = src.replace(/\.js(\.map)?$/, '.ts');
      if (!(await stat(ts).catch(() => null))) await rm(out, { force: true });
    }
  }
}

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === 'node_modules' || TEST_DIRS.has(e.name)) continue;
      yield* walk(p);
    } else yield p;
  }
}

async function compileTree(srcDir) {
  let count = 0;
  const jobs = [];
  for await (const file of walk(srcDir)) {
    const rel = path.relative(root, file);
    if (isSource(file)) {
      const out = path.join(dist, rel.replace(/\.ts$/, '.js'));
      jobs.push(
        transformFile(file, { ...swcOptions({ rewritePaths: true }), filename: file }).then(
          async ({ code, map }) => {
            await mkdir(path.dirname(out), { recursive: true });
            await writeFile(out, `${code}\n//# sourceMappingURL=${path.basename(out)}.map`);
            if (map) await writeFile(`${out}.map`, map);
          },
        ),
      );
      count++;
    } else if (isAsset(file)) {
      const out = path.join(dist, rel);
      await mkdir(path.dirname(out), { recursive: true });
      jobs.push(cp(file, out));
    }
  }
  await Promise.all(jobs);
  return count;
}

async function main() {
  const started = Date.now();
  // Prisma clients are generated code: make sure they exist before compiling the services.
  execFileSync(process.execPath, [path.join(root, 'tools/prisma.mjs'), 'generate'], {
    stdio: 'inherit',
  });
  const targets = process.argv.slice(2);
  const dirs = [];
  const apps = (await readdir(path.join(root, 'apps'))).filter((a) => !a.endsWith('-e2e'));
  const wanted = targets.length ? targets : apps.map((a) => `apps/${a}`);
  for (const t of wanted)
    dirs.push(
      path.join(root, t.startsWith('apps/') || t.startsWith('libs/') ? t : `apps/${t}`, 'src'),
    );
  // Every app may import any lib, so libs are always compiled with it.
  for (const lib of await readdir(path.join(root, 'libs'))) {
    if (await isTestingLib(lib))
      await rm(path.join(dist, 'libs', lib), { recursive: true, force: true });
    else dirs.push(path.join(root, 'libs', lib, 'src'));
  }
  await removeTestOutput(dist);
  let files = 0;
  for (const d of [...new Set(dirs)]) {
    if (await stat(d).catch(() => null)) {
      files += await compileTree(d);
      await removeOrphans(path.join(dist, path.relative(root, d)), d);
    }
  }
  console.log(`build: ${files} files compiled into dist/ in ${Date.now() - started} ms`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
