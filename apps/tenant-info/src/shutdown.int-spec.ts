import { ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { freePort, freshDatabase, NATS_TEST_URL } from '@crm/testing';

// The real service as production runs it (main.ts, a process of its own) receiving SIGTERM under
// load: readiness answers 503 at once while it keeps serving (Connection: close) for
// SHUTDOWN_DRAIN_MS, then it stops accepting, finishes the request in flight and exits 0.

const ROOT = path.resolve(__dirname, '../../..');
const DRAIN_MS = 1500;
/** Closing (NATS, database) after the drain: generous, the machines are shared. */
const CLOSE_BOUND_MS = 10_000;

let child: ChildProcess;
let exited: Promise<number | null>;
let base: string;
let port: number;
const output: string[] = [];

const get = (p: string, agent?: http.Agent) =>
  new Promise<{ status: number; connection?: string }>((resolve, reject) => {
    http
      .get(`${base}${p}`, { agent }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }),
        );
      })
      .on('error', reject);
  });

/** Polls until `check` holds (never a fixed wait): the child's output on failure. */
async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const refuses = () =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.destroy();
      resolve(false);
    });
    s.on('error', () => resolve(true));
  });

beforeAll(async () => {
  const databaseUrl = await freshDatabase('tenant-info', 'tenant_info_it_shutdown');
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', path.join(ROOT, 'apps/tenant-info/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: 'tsconfig.json',
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        NATS_URL: NATS_TEST_URL,
        SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  await until('readiness', async () => (await get('/health/ready')).status === 200, 90_000);
}, 120_000);

afterAll(() => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

it('drains on SIGTERM: readiness 503 first, in-flight requests finish, exit 0', async () => {
  // A request in flight across the whole shutdown: its body arrives only once the server closed.
  const body = JSON.stringify({ query: '{ __typename }' });
  const slow = net.connect(port, '127.0.0.1');
  await new Promise((r) => slow.once('connect', r));
  const answer = new Promise<string>((resolve) => {
    let text = '';
    slow.on('data', (b: Buffer) => (text += b.toString()));
    slow.on('close', () => resolve(text));
  });
  slow.write(
    `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 5)}`,
  );

  // Load over kept-alive connections, as the gateway sends it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let loading = true;
  const results: { status: number; connection?: string; afterSignal: boolean }[] = [];
  const errors: Error[] = [];
  let signalled = false;
  const load = Promise.all(
    Array.from({ length: 4 }, async () => {
      while (loading) {
        const afterSignal = signalled;
        await get('/health/live', agent).then(
          (r) => results.push({ ...r, afterSignal }),
          (err: Error) => errors.push(err),
        );
      }
    }),
  );
  await until('load', async () => results.length > 50);

  const signalledAt = Date.now();
  signalled = true;
  child.kill('SIGTERM');
  await until('readiness 503', async () => (await get('/health/ready')).status === 503, 5000);
  // still serving: liveness answers, and says the connection goes
  const live = await get('/health/live');
  expect(live).toEqual({ status: 200, connection: 'close' });
  // the caller (the gateway) has moved away: the load stops
  loading = false;
  await load;
  agent.destroy();
  expect(errors).toEqual([]);
  const late = results.filter((r) => r.afterSignal);
  expect(late.every((r) => r.status === 200)).toBe(true);

  // after the drain, no new connection; the request in flight is still answered
  await until('the server to close', refuses, DRAIN_MS + CLOSE_BOUND_MS);
  expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS - 50);
  slow.write(body.slice(5));
  expect(await answer).toMatch(/^HTTP\/1\.1 \d{3} /);

  const code = await exited;
  if (code !== 0) throw new Error(`exit ${code}:\n${output.join('')}`);
  expect(Date.now() - signalledAt).toBeLessThan(DRAIN_MS + CLOSE_BOUND_MS);
}, 60_000);
