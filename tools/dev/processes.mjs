// The launcher's child processes: started with their output prefixed, watched for an unexpected
// exit, and stopped together (SIGTERM, then SIGKILL for one that does not stop in time).
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { colorFor, linePrefixer, StepError } from './output.mjs';

export class Supervisor {
  /**
   * @param out Output for the prefixed lines
   * @param onUnexpectedExit (name, code, signal) when a child ends while not stopping
   */
  constructor(out, { onUnexpectedExit = () => undefined, labelWidth = 12 } = {}) {
    this.out = out;
    this.onUnexpectedExit = onUnexpectedExit;
    this.labelWidth = labelWidth;
    this.children = [];
    this.stopping = false;
  }

  /**
   * Starts `command args`; the child is tracked until it exits. A `quiet` child's output is kept
   * (last 40 lines) and printed only if it ends unexpectedly. A `detached` child has its own
   * process group, so a Ctrl-C in the terminal reaches it only through stopAll, in order.
   */
  start(name, command, args, { env, cwd, quiet = false, detached = false } = {}) {
    const child = spawn(command, args, { cwd, env, detached, stdio: ['ignore', 'pipe', 'pipe'] });
    const entry = { name, child, exited: false, code: null, signal: null, recent: [] };
    const width = Math.max(this.labelWidth, name.length);
    const color = colorFor(this.children.length);
    const sink = quiet
      ? {
          line: (text) => {
            entry.recent.push(text);
            if (entry.recent.length > 40) entry.recent.shift();
          },
          paint: (_c, text) => text,
        }
      : this.out;
    for (const stream of [child.stdout, child.stderr]) {
      const prefix = linePrefixer(sink, name, { width, color });
      stream.on('data', (chunk) => prefix.push(chunk));
      stream.on('end', () => prefix.flush());
    }
    entry.done = new Promise((resolve) => {
      child.once('error', (err) => {
        entry.exited = true;
        entry.error = err;
        resolve(entry);
        if (!this.stopping) this.onUnexpectedExit(name, null, null, err);
      });
      child.once('exit', (code, signal) => {
        entry.exited = true;
        entry.code = code;
        entry.signal = signal;
        resolve(entry);
        if (this.stopping) return;
        for (const line of entry.recent) this.out.line(line);
        this.onUnexpectedExit(name, code, signal);
      });
    });
    this.children.push(entry);
    return entry;
  }

  /** Stops every running child, newest first (the gateway before the services it calls). */
  async stopAll(timeoutMs = 10_000) {
    this.stopping = true;
    for (const entry of [...this.children].reverse()) {
      if (entry.exited) continue;
      entry.child.kill('SIGTERM');
      const timer = new AbortController();
      const stopped = await Promise.race([
        entry.done,
        sleep(timeoutMs, null, { signal: timer.signal }).catch(() => null),
      ]);
      timer.abort(); // a pending timer would keep the launcher alive for timeoutMs
      if (!stopped) {
        this.out.line(`${entry.name} did not stop within ${timeoutMs / 1000} s: killed`);
        entry.child.kill('SIGKILL');
        await entry.done;
      }
    }
  }

  /** Last resort when the launcher itself exits: no waiting possible. */
  killAllNow() {
    this.stopping = true;
    for (const entry of this.children) if (!entry.exited) entry.child.kill('SIGKILL');
  }
}

export function describeExit({ code, signal, error }) {
  if (error) return `could not be started: ${error.message}`;
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * Polls `url` until it answers 200. Fails at once when `entry` (the process serving it) exits,
 * or after `timeoutMs` naming the last answer seen.
 */
export async function waitForHttp(url, { entry, timeoutMs = 120_000, intervalMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (entry?.exited)
      throw new StepError(
        `${entry.name} ${describeExit(entry)} before it was ready`,
        'its output above says why',
      );
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`;
    } catch (err) {
      last = err?.cause?.code ?? err?.message ?? String(err);
    }
    await sleep(intervalMs);
  }
  throw new StepError(
    `${entry?.name ?? url} was not ready within ${Math.round(timeoutMs / 1000)} s (${url}: ${last})`,
  );
}

/** Runs a command to its end, keeping its output for the error message when it fails. */
export function runCaptured(command, args, { cwd, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.once('error', (err) => resolve({ code: -1, output: `${output}${err.message}\n` }));
    child.once('close', (code, signal) => resolve({ code: code ?? signal, output }));
  });
}

/** The last `lines` lines of a command's output, for an error message. */
export const tail = (text, lines = 30) => text.trimEnd().split('\n').slice(-lines).join('\n');

/**
 * True when the service at `baseUrl` serves a federated GraphQL subgraph (answers the
 * `_service { sdl }` query the gateway composes the supergraph from).
 */
export async function servesSubgraph(baseUrl, headers = {}) {
  try {
    const res = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ query: '{ _service { sdl } }' }),
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) return false;
    const body = await res.json();
    return typeof body?.data?._service?.sdl === 'string';
  } catch {
    return false;
  }
}

/** Path of an executable on PATH (and in the sbin folders, where Debian puts nats-server). */
export function findExecutable(name, envPath = process.env.PATH ?? '') {
  const dirs = [...envPath.split(path.delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}
