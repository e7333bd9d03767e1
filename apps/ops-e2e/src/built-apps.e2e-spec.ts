import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { callEsm, ROOT, runEsm, tool } from './support/esm';

// The built apps (dist/, compiled by the e2e tier before it runs) as production starts them.

const distMain = (app: string) => path.join(ROOT, 'dist', 'apps', app, 'src', 'main.js');

let apps: string[];
beforeAll(async () => {
  apps = await runEsm<string[]>(
    `const w = await import(${JSON.stringify(tool('tools/dev/workspace.mjs'))});
     return w.listApps();`,
  );
});

/** Runs `node <main.js>` with exactly `env` (plus PATH); gives up after 20 s. */
function start(app: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    execFile(
      process.execPath,
      [distMain(app)],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 20_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err.code as number | null) ?? null) : 0, output: stdout + stderr }),
    ),
  );
}

describe('a built app with NODE_ENV=production', () => {
  it('refuses to start without INTERNAL_TOKEN, saying which variable to set', async () => {
    expect(apps).toEqual(expect.arrayContaining(['gateway', 'crm-people', 'tenant-info']));
    const runs = apps.map(async (app) => {
      expect(existsSync(distMain(app))).toBe(true);
      const r = await start(app, {
        NODE_ENV: 'production',
        APOLLO_TELEMETRY_DISABLED: 'true',
        // everything else a start needs, so that the token is the one thing missing
        PORT: '0',
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none',
        NATS_URL: 'nats://127.0.0.1:1',
        ADMIN_TOKEN: 'h7Qe2Lk9ZxW4pR1vBn6Ys3Tc8Mu0JdFa',
      });
      expect({ app, code: r.code }).toEqual({ app, code: 1 });
      expect(r.output).toContain(
        'environment variable INTERNAL_TOKEN is not set: must be set when NODE_ENV=production',
      );
    });
    await Promise.all(runs);
  }, 60_000);
});

describe('tools/image/app-packages.json', () => {
  // The images take each app's packages from this committed list (their dependency layer is then
  // rebuilt only when it or the lockfile changes): it must name what the built apps require.
  it('lists the packages the built apps require', async () => {
    const computed = await callEsm<Record<string, string[]>>(
      tool('tools/image/app-files.mjs'),
      'computePackages',
    );
    const committed = JSON.parse(
      readFileSync(path.join(ROOT, 'tools/image/app-packages.json'), 'utf8'),
    ) as Record<string, string[]>;
    expect(committed).toEqual(computed);
    expect(computed.gateway).toContain('@apollo/gateway');
    expect(computed.gateway).not.toContain('pdfkit');
  });
});

describe('dist/', () => {
  const DIST = path.join(ROOT, 'dist');
  const all = () =>
    readdirSync(DIST, { recursive: true, encoding: 'utf8' }).map((p) => p.split(path.sep));

  it('holds every app and no tests or test support', () => {
    const files = all();
    for (const app of apps) expect(existsSync(distMain(app))).toBe(true);
    expect(files.length).toBeGreaterThan(100);
    const tests = files.filter((parts) => /\.(spec|int-spec|e2e-spec)\.js$/.test(parts.at(-1)!));
    const support = files.filter(
      (parts) => parts.includes('test') || parts.includes('__fixtures__'),
    );
    const testingLib = files.filter((parts) => parts[0] === 'libs' && parts[1] === 'testing');
    expect({ tests, support, testingLib }).toEqual({ tests: [], support: [], testingLib: [] });
  });

  it('has no compiled file that imports the testing library', () => {
    const offenders = all()
      .filter((parts) => parts.at(-1)!.endsWith('.js'))
      .map((parts) => parts.join('/'))
      .filter((p) =>
        /libs\/testing\/src|@crm\/testing/.test(readFileSync(path.join(DIST, p), 'utf8')),
      );
    expect(offenders).toEqual([]);
  });
});
