// NATS for the launcher: use the server at NATS_URL, or start `nats-server` (JetStream on, data in
// .data/nats) when none answers there and the binary is installed.
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { StepError } from './output.mjs';
import { findExecutable } from './processes.mjs';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

/** Host and port of the first server of a NATS_URL (which may list several, comma-separated). */
export function natsAddress(natsUrl) {
  const first = natsUrl.split(',')[0].trim();
  const url = new URL(first.includes('://') ? first : `nats://${first}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { host, port: url.port ? Number(url.port) : 4222, local: LOCAL_HOSTS.has(url.hostname) };
}

/** True when a NATS server answers at host:port (it greets every client with an INFO line). */
export function natsAnswers({ host, port }, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('INFO')));
    socket.once('error', () => done(false));
  });
}

/**
 * Makes sure NATS answers at `natsUrl`. Starts nats-server under `supervisor` when nothing answers
 * on a local address. Returns { started: boolean }.
 */
export async function ensureNats({ natsUrl, storeDir, supervisor, timeoutMs = 10_000 }) {
  const address = natsAddress(natsUrl);
  if (await natsAnswers(address)) return { started: false };
  if (!address.local)
    throw new StepError(
      `no NATS server answers at ${natsUrl}`,
      'start it, or unset NATS_URL to use (or start) one on this machine',
    );
  const binary = findExecutable('nats-server');
  if (!binary)
    throw new StepError(
      `no NATS server answers at ${natsUrl}, and nats-server is not installed`,
      'install it (Debian/Ubuntu: apt-get install nats-server; macOS: brew install nats-server),\n' +
        'or start one (docker run -p 4222:4222 nats:2 -js) and set NATS_URL',
    );
  mkdirSync(storeDir, { recursive: true });
  const host = address.host === 'localhost' ? '127.0.0.1' : address.host;
  const args = ['-a', host, '-p', String(address.port), '-js', '-sd', storeDir];
  // Detached: on Ctrl-C the apps stop first and NATS after them, so they do not log lost
  // connections while shutting down. Left running by a killed launcher, it is simply reused.
  const entry = supervisor.start('nats', binary, args, { quiet: true, detached: true });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (entry.exited)
      throw new StepError(
        `nats-server stopped at once (code ${entry.code})`,
        'its output is above',
      );
    if (await natsAnswers(address)) return { started: true };
    await sleep(100);
  }
  throw new StepError(`nats-server did not answer on port ${address.port} within ${timeoutMs} ms`);
}
