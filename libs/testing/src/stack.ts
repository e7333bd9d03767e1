import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freshDatabase } from './database';
import { freePort, NATS_TEST_URL } from './ports';

const ROOT = path.resolve(__dirname, '../../..');

/** Env variable holding a service's base URL for the gateway (crm-people -> CRM_PEOPLE_URL). */
export const serviceUrlVariable = (service: string) =>
  `${service.toUpperCase().replace(/-/g, '_')}_URL`;

export interface StackProcess {
  name: string;
  /** The app whose build it runs, when not `name` (a worker process: bookings-mail-worker). */
  app?: string;
  url: string;
  env: Record<string, string>;
  child: ChildProcess | null;
  log: string[];
}

export interface Stack {
  gatewayUrl: string;
  adminToken: string;
  processes: Map<string, StackProcess>;
  /** Stops one process (to test a dependency being down) ... */
  stop(name: string): Promise<void>;
  /** ... or ends it with SIGKILL, in the middle of its work (no drain, no closing) ... */
  kill(name: string): Promise<void>;
  /** ... and starts it again with the same port, database and settings. */
  start(name: string): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * CPU time (user + system, in clock ticks) the process has used so far, from /proc; null where
 * there is none. An app that is still starting uses CPU; one stuck waiting for something does not.
 */
function cpuTicks(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // after "pid (comm) ": state is field 3, utime field 14, stime field 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** How long a starting app may go without using any CPU (or a poll go unanswered). */
const STALLED_MS = 30_000;
/** How long a listening app may answer "not ready" on end (a dependency it cannot reach). */
const NOT_READY_MS = 60_000;

/**
 * Waits until the app answers /health/ready, for as long as it is getting somewhere: while it does
 * not listen yet, as long as it uses CPU (how long seven apps starting at once take depends on
 * what else the two cores run: a fixed deadline, 30 s and then 90 s, failed the bad-input e2e
 * with the events service still starting); once it listens, until its checks pass. It fails
 * when the app exits (at once), used no CPU for STALLED_MS while not listening (stuck), or
 * answered "not ready" for NOT_READY_MS on end (a dependency down). Without /proc: STALLED_MS * 3
 * in all.
 */
async function waitReady(p: StackProcess): Promise<void> {
  const pid = p.child?.pid;
  let ticks = cpuTicks(pid);
  const withoutProc = ticks === null ? Date.now() + STALLED_MS * 3 : null;
  let progress = Date.now();
  let notReadySince: number | null = null;
  let last = '';
  for (;;) {
    if (p.child && p.child.exitCode !== null) break;
    try {
      const res = await fetch(`${p.url}/health/ready`, { signal: AbortSignal.timeout(STALLED_MS) });
      if (res.ok) return;
      last = `status ${res.status}: ${(await res.text()).slice(0, 300)}`;
      notReadySince ??= Date.now();
      if (Date.now() - notReadySince > NOT_READY_MS) break;
    } catch (err) {
      last = (err as Error).message;
      notReadySince = null;
      const now = cpuTicks(pid);
      if (now !== null && ticks !== null && now > ticks) progress = Date.now();
      ticks = now ?? ticks;
      if (withoutProc === null && Date.now() - progress > STALLED_MS) {
        last += `; used no CPU for ${STALLED_MS / 1000} s`;
        break;
      }
    }
    if (withoutProc !== null && Date.now() > withoutProc) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  const exit = p.child?.exitCode ?? p.child?.signalCode;
  const ended = exit !== null && exit !== undefined ? `, exited: ${exit}` : '';
  throw new Error(`${p.name} did not become ready (${last}${ended}). Output:\n${p.log.join('')}`);
}

function spawnProcess(p: StackProcess): void {
  const main = path.join(ROOT, 'dist/apps', p.app ?? p.name, 'src/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run node tools/build.mjs first`);
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    env: { ...process.env, ...p.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.once('error', (err) => p.log.push(`spawn failed: ${err.message}\n`));
  const keep = (b: Buffer) => {
    p.log.push(b.toString());
    if (p.log.length > 400) p.log.splice(0, p.log.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  p.child = child;
}

async function stopProcess(p: StackProcess): Promise<void> {
  const child = p.child;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
  p.child = null;
}

async function killProcess(p: StackProcess): Promise<void> {
  const child = p.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
  p.child = null;
}

/** The portal page invitation mails link to for an event without a website (tests). */
export const TEST_INVITATION_PAGE = 'https://portal.example.org/invitations/{token}';

/**
 * bookings-invitations sends mails only to a test's own SMTP server (startSmtpServer): without an
 * SMTP_URL its mail worker stays off (it would retry, and render PDFs, for nothing). Invitation
 * mails of events without a website link to TEST_INVITATION_PAGE, as an operator's portal (without
 * one they are refused). `env` on top.
 */
export function testMailWorkerEnv(env: Record<string, string> = {}): Record<string, string> {
  return {
    ...(env.SMTP_URL ? {} : { MAIL_WORKER_ENABLED: 'false' }),
    PUBLIC_INVITATION_URL: TEST_INVITATION_PAGE,
    ...env,
  };
}

/**
 * Processes of a service besides its API, as `npm start` runs them (tools/dev/workspace.mjs
 * WORKER_PROCESSES; ops-e2e checks the two agree): bookings-invitations's mail worker, and the
 * events service's worker (its consumers: webhook fan-out, file copies; the webhook delivery
 * worker). The service then runs with PROCESS_ROLE=api.
 */
export const STACK_WORKERS: Readonly<Record<string, readonly { name: string; role: string }[]>> = {
  'bookings-invitations': [{ name: 'bookings-mail-worker', role: 'mail-worker' }],
  events: [{ name: 'events-worker', role: 'worker' }],
};

/** The role of bookings-invitations's mail worker, off without a test's SMTP_URL. */
const MAIL_WORKER_ROLE = 'mail-worker';

/** The host name the gateway reaches a replicated service at (hosts.preload.cjs resolves it). */
const replicatedHost = (service: string) => `${service}.stack.test`;

export interface StackOptions {
  /** Given to every process (e.g. a NATS_URL of the test's own). */
  env?: Record<string, string>;
  /**
   * Services run as several replicas (default one): the API processes `<service>`,
   * `<service>-2`... on 127.0.0.2, 127.0.0.3... with one port and one database, and the gateway
   * given one host name that resolves to all their addresses, as Docker's DNS answers for a
   * service scaled to several containers (the gateway spreads calls over them and follows their
   * readiness: apps/gateway/src/routing/replicas.ts). A replicated service's workers run once.
   */
  replicas?: Record<string, number>;
}

/**
 * Starts the built services and the gateway as real processes (as `npm start` does), each service
 * on a fresh database of its own, all on free ports. `name` keeps databases of test files apart;
 * `options.env` is given to every process (e.g. a NATS_URL of the test's own).
 */
export async function startStack(
  name: string,
  services: string[],
  options: StackOptions = {},
): Promise<Stack> {
  const adminToken = randomBytes(24).toString('base64url');
  const internalToken = randomBytes(24).toString('base64url');
  const processes = new Map<string, StackProcess>();
  /** A replicated service's name -> its addresses (the gateway's TEST_HOSTS). */
  const replicated = new Map<string, string[]>();
  // Every process on 127.0.0.1 only, as under npm start.
  const base: Record<string, string> = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    NATS_URL: NATS_TEST_URL,
    APOLLO_TELEMETRY_DISABLED: 'true',
    ...testMailWorkerEnv(options.env),
  };

  const stack: Stack = {
    gatewayUrl: '',
    adminToken,
    processes,
    stop: async (n) => stopProcess(processes.get(n)!),
    kill: async (n) => killProcess(processes.get(n)!),
    start: async (n) => {
      const p = processes.get(n)!;
      spawnProcess(p);
      await waitReady(p);
    },
    shutdown: async () => {
      await Promise.all([...processes.values()].map(stopProcess));
    },
  };

  try {
    // Settled, not Promise.all: a service that fails must not leave the others (or a worker)
    // still being started when the stack is shut down, to run on after the test.
    const settled = await Promise.allSettled(
      services.map(async (svc) => {
        const db = await freshDatabase(svc, `${svc.replace(/-/g, '_')}_e2e_${name}`);
        const port = await freePort();
        const p: StackProcess = {
          name: svc,
          url: `http://127.0.0.1:${port}`,
          env: { ...base, PORT: String(port), DATABASE_URL: db, INTERNAL_TOKEN: internalToken },
          child: null,
          log: [],
        };
        processes.set(svc, p);
        // The mail worker only where mails are sent (a test's SMTP_URL, testMailWorkerEnv):
        // elsewhere it would idle, a process more on the shared cores. The events worker always
        // runs: the API of events leaves its consumers and webhooks to it.
        const workers = (STACK_WORKERS[svc] ?? []).filter(
          (w) => w.role !== MAIL_WORKER_ROLE || base.MAIL_WORKER_ENABLED !== 'false',
        );
        if (workers.length) p.env.PROCESS_ROLE = 'api';
        const started = [p];
        for (const w of workers) {
          const wPort = await freePort();
          const wp: StackProcess = {
            name: w.name,
            app: svc,
            url: `http://127.0.0.1:${wPort}`,
            env: { ...p.env, PORT: String(wPort), PROCESS_ROLE: w.role },
            child: null,
            log: [],
          };
          processes.set(w.name, wp);
          started.push(wp);
        }
        const count = options.replicas?.[svc] ?? 1;
        if (count > 1) {
          const addresses = Array.from({ length: count }, (_, i) => `127.0.0.${i + 2}`);
          replicated.set(svc, addresses);
          p.env.HOST = addresses[0]!;
          p.url = `http://${addresses[0]}:${port}`;
          for (const [i, address] of addresses.entries()) {
            if (i === 0) continue;
            const r: StackProcess = {
              name: `${svc}-${i + 1}`,
              app: svc,
              url: `http://${address}:${port}`,
              env: { ...p.env, HOST: address },
              child: null,
              log: [],
            };
            processes.set(r.name, r);
            started.push(r);
          }
        }
        for (const x of started) spawnProcess(x);
        await Promise.all(started.map((x) => waitReady(x)));
      }),
    );
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const port = await freePort();
    const gateway: StackProcess = {
      name: 'gateway',
      url: `http://127.0.0.1:${port}`,
      env: {
        // its rate limits its own: stacks of other test files on the same NATS would share them
        RATE_LIMIT_GROUP: `e2e-${name.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 40)}-${randomBytes(6).toString('hex')}`,
        ...base,
        PORT: String(port),
        ADMIN_TOKEN: adminToken,
        INTERNAL_TOKEN: internalToken,
        KEY_CACHE_TTL_MS: '1500',
        GRAPHQL_SUBGRAPHS: services.join(','),
        ...Object.fromEntries(
          services.map((s) => [
            serviceUrlVariable(s),
            replicated.has(s)
              ? `http://${replicatedHost(s)}:${new URL(processes.get(s)!.url).port}`
              : processes.get(s)!.url,
          ]),
        ),
        ...(replicated.size
          ? {
              NODE_OPTIONS:
                `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(__dirname, 'hosts.preload.cjs')}`.trim(),
              TEST_HOSTS: [...replicated]
                .map(([s, addresses]) => `${replicatedHost(s)}=${addresses.join(',')}`)
                .join(';'),
            }
          : {}),
      },
      child: null,
      log: [],
    };
    processes.set('gateway', gateway);
    spawnProcess(gateway);
    await waitReady(gateway);
    stack.gatewayUrl = gateway.url;
    return stack;
  } catch (err) {
    await stack.shutdown();
    throw err;
  }
}
