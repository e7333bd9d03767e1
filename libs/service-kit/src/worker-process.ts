import { DynamicModule, INestApplicationContext, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { listenAddress, ServiceConfig } from '@crm/config';
import { createAppLogging, prettyLogs } from '@crm/logging';
import { shutdownTelemetry } from '@crm/telemetry';
import {
  AppMetrics,
  METRICS_PATH,
  scrapeAllowed,
  scrapeTimeoutSeconds,
  startMetricsServer,
} from '@crm/metrics';
import { Readiness } from './health.controller';

/**
 * A worker process of a service (PROCESS_ROLE): the service's build run with another role, for
 * background work that must not compete with requests for the API's event loop and CPU
 * (bookings-invitations' mail worker, the events service's webhook worker). A Nest application
 * context (no HTTP API, no GraphQL), at a lower priority when `nice` says so, with a port that
 * answers only /health/live and /health/ready.
 */
export interface WorkerProcess {
  app: INestApplicationContext;
  /** Base URL of the health port. */
  url: string;
  /** Readiness 503, then closes the context (its workers finish or hand back their work). */
  close(): Promise<void>;
}

export interface WorkerProcessOptions {
  /** The service (`bookings-invitations`) and the role (`mail-worker`): log context. */
  service: string;
  role: string;
  config: Pick<
    ServiceConfig,
    'HOST' | 'PORT' | 'NATS_URL' | 'NODE_ENV' | 'LOG_LEVEL' | 'INTERNAL_TOKEN' | 'METRICS_PORT'
  >;
  /** The process's nice value (0 normal ... 19 lowest), set before anything starts. */
  nice: number;
}

/**
 * Lowers the priority of every thread of the process (on Linux a nice value is per thread: V8's
 * garbage-collector threads and libuv's pool exist before this runs and would keep the old one;
 * threads started later inherit it): on a host shared with the API, the API gets the CPU first.
 */
export function lowerPriority(nice: number, logger: Logger): void {
  if (nice <= 0) return;
  try {
    for (const thread of threadIds()) os.setPriority(thread, nice);
    logger.log(`running at nice ${os.getPriority(0)}`);
  } catch (err) {
    logger.warn(`nice ${nice} not applied: ${(err as Error).message}`);
  }
}

/** The ids of the process's threads (Linux); elsewhere 0, the calling one. */
function threadIds(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number);
  } catch {
    return [0];
  }
}

const json = (res: http.ServerResponse, status: number, body: unknown) =>
  res
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
    .end(JSON.stringify(body));

/**
 * The probes of a worker: liveness 200 while the process runs, readiness 200 while its checks
 * (the database) answer and it is not stopping; /metrics with the internal token (scrapeAllowed).
 */
function healthServer(
  readiness: Readiness,
  metrics: AppMetrics,
  internalToken: string | undefined,
): http.Server {
  return http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
    if (req.method !== 'GET') return json(res, 405, { status: 'method not allowed' });
    if (path === '/health/live') return json(res, 200, { status: 'ok' });
    if (path === METRICS_PATH && scrapeAllowed(req.headers, internalToken)) {
      void metrics.text(scrapeTimeoutSeconds(req.headers)).then(
        (text) => res.writeHead(200, { 'Content-Type': metrics.contentType }).end(text),
        () => json(res, 500, { status: 'metrics failed' }),
      );
      return;
    }
    if (path !== '/health/ready') return json(res, 404, { status: 'not found' });
    if (readiness.draining) return json(res, 503, { status: 'stopping' });
    void readiness.report().then((checks) =>
      json(res, Object.values(checks).includes('down') ? 503 : 200, {
        status: Object.values(checks).includes('down') ? 'not ready' : 'ok',
        checks,
      }),
    );
  });
}

/**
 * Starts a worker process: nice, the Nest context of `module` (which must provide Readiness;
 * its workers start with it), the health port on HOST:PORT.
 */
export async function startWorkerProcess(
  module: Type<unknown> | DynamicModule,
  { service, role, config, nice }: WorkerProcessOptions,
): Promise<WorkerProcess> {
  const logging = createAppLogging({
    app: `${service}-${role}`,
    nodeEnv: config.NODE_ENV,
    level: config.LOG_LEVEL,
    pretty: prettyLogs(),
  });
  // lines logged before the context exists go through it too
  Logger.overrideLogger(logging.nest);
  const logger = new Logger(`${service} ${role}`);
  lowerPriority(nice, logger);
  const app = await NestFactory.createApplicationContext(module, { logger: logging.nest });
  const readiness = app.get(Readiness);
  const metrics = app.get(AppMetrics, { strict: false });
  metrics.registry.setDefaultLabels({ app: `${service}-${role}` });
  const server = healthServer(readiness, metrics, config.INTERNAL_TOKEN);
  const metricsServer = config.METRICS_PORT
    ? await startMetricsServer(metrics, config.METRICS_PORT, config.HOST)
    : null;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
  } catch (err) {
    await app.close();
    throw err;
  }
  const port = (server.address() as { port: number }).port;
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      readiness.draining = true;
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) =>
        metricsServer ? metricsServer.close(() => resolve()) : resolve(),
      );
    })());
  logger.log(`health on ${listenAddress(config.HOST, port)} (NATS ${config.NATS_URL})`);
  return { app, url: `http://127.0.0.1:${port}`, close };
}

/**
 * SIGTERM/SIGINT: readiness 503, the work in hand finishes and the claimed rest is handed back
 * (the context's shutdown hooks), exit 0; exit 1 when that takes longer than
 * SHUTDOWN_TIMEOUT_MS (leases then run out and another worker takes that work: nothing is lost).
 */
export function closeWorkerOnSignals(
  worker: WorkerProcess,
  { service, role, timeoutMs }: { service: string; role: string; timeoutMs: number },
): void {
  const logger = new Logger(`${service} ${role}`);
  const onSignal = (signal: NodeJS.Signals) => {
    logger.log(`${signal}: stopping`);
    const deadline = setTimeout(() => {
      logger.error(`not closed within ${timeoutMs} ms: exiting anyway`);
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    worker.close().then(
      // the spans still buffered, then exit
      () => void shutdownTelemetry().then(() => process.exit(0)),
      (err: Error) => {
        logger.error(`closing failed: ${err.stack ?? String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
