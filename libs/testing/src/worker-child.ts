import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './ports';

/** A worker process of a service (PROCESS_ROLE), run from its sources as a real child process. */
export interface WorkerChild {
  child: ChildProcess;
  /** Base URL of its health port. */
  url: string;
  /** What it printed, for the failure message of a test. */
  output: string[];
  exited: Promise<number | null>;
}

const ROOT = path.resolve(__dirname, '../../..');

/**
 * `node <app>/src/main.ts` (through @swc-node/register) with `env` on a free port, once its
 * /health/ready answers 200 (it fails with its output when it exits or is not ready in time).
 */
export async function startWorkerChild(
  app: string,
  env: Record<string, string>,
  readyTimeoutMs = 120_000,
): Promise<WorkerChild> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', path.join(ROOT, 'apps', app, 'src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: 'tsconfig.json',
        NODE_ENV: 'test',
        APOLLO_TELEMETRY_DISABLED: 'true',
        PORT: String(port),
        HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${app} worker exited:\n${output.join('')}`);
    const ok = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${app} worker not ready:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, url, output, exited };
}
