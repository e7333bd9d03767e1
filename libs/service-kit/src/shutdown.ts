import { INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { ShutdownSettings, shutdownDrainMs } from '@crm/config';
import { shutdownTelemetry } from '@crm/telemetry';
import { Readiness } from './health.controller';

/**
 * Stops the process on SIGTERM/SIGINT without failing a call (in place of Nest's
 * enableShutdownHooks, which closes at once):
 * 1. readiness answers 503 (Kubernetes and the gateway stop sending), liveness stays 200;
 * 2. for SHUTDOWN_DRAIN_MS it keeps serving, every answer with Connection: close, so kept-alive
 *    callers (the gateway) open their next connection elsewhere;
 * 3. app.close(): workers and JetStream consumers stop after their current item
 *    (onModuleDestroy), the HTTP server stops accepting and waits for the calls in flight, then
 *    NATS and the database close;
 * 4. exit 0, or 1 when closing took longer than SHUTDOWN_TIMEOUT_MS.
 * A second signal skips what is left of the drain.
 */
export function closeGracefullyOnSignals(
  app: INestApplication,
  config: ShutdownSettings,
  name: string,
): void {
  const logger = new Logger(name);
  let skipDrain: (() => void) | null = null;
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      skipDrain?.();
      return;
    }
    started = true;
    void (async () => {
      const drainMs = shutdownDrainMs(config);
      startDraining(app);
      if (drainMs > 0) {
        logger.log(`${signal}: draining for ${drainMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, drainMs);
          skipDrain = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const deadline = setTimeout(() => {
        logger.error(`not closed within ${config.SHUTDOWN_TIMEOUT_MS} ms: exiting anyway`);
        process.exit(1);
      }, config.SHUTDOWN_TIMEOUT_MS);
      deadline.unref();
      // A call in flight since before the drain is answered kept-alive; server.close() closes
      // only the connections idle when it is called, so the rest would hold the close (and the
      // process) until the caller's keep-alive timeout. Swept as they become idle.
      const server = app.getHttpServer() as Server;
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      sweep.unref();
      try {
        await app.close();
      } catch (err) {
        logger.error(`closing failed: ${(err as Error).stack ?? String(err)}`);
        process.exit(1);
      }
      await shutdownTelemetry(); // the spans still buffered
      process.exit(0);
    })();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** Readiness 503 and Connection: close on every answer from now on (step 1 and 2 above). */
export function startDraining(app: INestApplication): void {
  const readiness = app.get(Readiness, { strict: false });
  readiness.draining = true;
  const server = app.getHttpServer() as Server;
  // Before Fastify's (and the gateway's REST proxy's) listener: every answer carries it.
  // Idle kept-alive connections are left open: closing one as a caller sends on it would fail
  // that call (a POST cannot be retried). Callers stop using them once readiness says 503, and
  // Fastify closes those still idle when the drain ends.
  server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
}
