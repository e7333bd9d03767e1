import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository root (this file is apps/ops-e2e/src/support/esm.ts). */
export const ROOT = path.resolve(__dirname, '../../../..');

/** File URL of a tool module, e.g. tool('tools/dev/database.mjs'). */
export const tool = (relative: string): string => pathToFileURL(path.join(ROOT, relative)).href;

interface Outcome<T> {
  ok: boolean;
  value?: T;
  error?: { name?: string; message?: string; hint?: string };
}

export class ToolError extends Error {
  constructor(
    message: string,
    readonly toolErrorName?: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

// The tools are plain Node ESM (.mjs) and jest 30 on Node 20 cannot load ESM, so every call runs
// in a child `node`, exactly as the tools run: arguments and results travel as JSON.
function runNode<T>(script: string, payload: unknown, env: NodeJS.ProcessEnv = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify(payload)],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        let outcome: Outcome<T>;
        try {
          outcome = JSON.parse(stdout.slice(stdout.lastIndexOf('\n{') + 1)) as Outcome<T>;
        } catch {
          return reject(new Error(`node failed: ${err?.message ?? ''}\n${stdout}\n${stderr}`));
        }
        if (outcome.ok) resolve(outcome.value as T);
        else
          reject(
            new ToolError(
              outcome.error?.message ?? 'unknown error',
              outcome.error?.name,
              outcome.error?.hint,
            ),
          );
      },
    );
  });
}

const REPORT = `
const report = (outcome) => process.stdout.write('\\n' + JSON.stringify(outcome));
const fail = (err) => report({ ok: false, error: { name: err?.name, message: err?.message ?? String(err), hint: err?.hint } });
`;

/** Calls export `name` of the ES module at `moduleUrl` with JSON arguments; resolves its result. */
export function callEsm<T>(moduleUrl: string, name: string, ...args: unknown[]): Promise<T> {
  const script = `${REPORT}
const [url, name, args] = JSON.parse(process.argv[1]);
try {
  const mod = await import(url);
  const value = await mod[name](...args);
  report({ ok: true, value: value === undefined ? null : value });
} catch (err) { fail(err); }`;
  return runNode<T>(script, [moduleUrl, name, args]);
}

/**
 * Runs an ESM snippet in a child node: `body` is the inside of an async function that gets
 * `input` (JSON) and returns the value to hand back.
 */
export function runEsm<T>(
  body: string,
  input: unknown = null,
  env: NodeJS.ProcessEnv = {},
): Promise<T> {
  const script = `${REPORT}
const input = JSON.parse(process.argv[1]);
try {
  const value = await (async () => { ${body} })();
  report({ ok: true, value: value === undefined ? null : value });
} catch (err) { fail(err); }`;
  return runNode<T>(script, input, env);
}
