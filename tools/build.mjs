#!/usr/bin/env node
// Compiles apps and libs with swc into dist/, mirroring the source tree, and rewrites the
// @crm/* path aliases into relative imports so `node dist/apps/<app>/src/main.js` runs as is.
// Type checking is `npm run typecheck` (tsc); swc only strips types, which keeps builds fast.
// dist/ is written over, never wiped first: running processes and parallel test runs keep working.
import { transformFile } from '@swc/core';
import { createRequire } from 'node:module';
import { cp, mkdir, readdir, writeFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const require = createRequire(import.meta.url);
const { swcOptions, root } = require('./swc-options.cjs');

const dist = path.join(root, 'dist');
const isSource = (f) =>
  f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(f);
const isAsset = (f) =>
  /\.(json|graphql|html|css)$/.test(f) && !/(project|tsconfig.*)\.json$/.test(f);

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
      if (e.name === 'node_modules' || e.name === '__fixtures__') continue;
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
  for (const lib of await readdir(path.join(root, 'libs')))
    dirs.push(path.join(root, 'libs', lib, 'src'));
  let files = 0;
  for (const d of [...new Set(dirs)]) {
    if (await stat(d).catch(() => null)) files += await compileTree(d);
  }
  console.log(`build: ${files} files compiled into dist/ in ${Date.now() - started} ms`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
