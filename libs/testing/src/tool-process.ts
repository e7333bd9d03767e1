import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** The repository root (this file is libs/testing/src/tool-process.ts). */
const ROOT = path.resolve(__dirname, '../../..');

/**
 * Starts one of the repository's tools (`tools/dev/traces.mjs`, ...) as its users run it, a
 * `node` process from the repository root; resolves once it has printed `ready` (the line a tool
 * prints when it listens), rejects with its output when it exits first.
 */
export function startToolProcess(
  script: string,
  args: string[],
  ready: string,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes(ready)) resolve(proc);
    });
    proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    proc.once('exit', (code) => reject(new Error(`${script} exited (${code}): ${out}`)));
  });
}
