import {
  ConsoleLogger,
  DynamicModule,
  INestApplicationContext,
  Logger,
  Module,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import http from 'node:http';
import os from 'node:os';
import { listenAddress, logLevels } from '@crm/config';
import { Readiness } from '@crm/service-kit';
import { SERVICE_NAME, serviceCore } from '../app.module';
import { BookingsInvitationsConfig } from '../config';
import { CapacityModule } from '../capacity/capacity.module';
import { DatabaseModule } from '../database/database.module';
import { RepositoriesModule } from '../database/repositories.module';
import { EventTicketsModule } from '../event-tickets/event-tickets.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { MailsModule } from './mails.module';

/**
 * The process of role `mail-worker` (PROCESS_ROLE): the MailWorker of MailsModule and the domains
 * that render its attachments (invoices, event tickets), on the service's database and NATS
 * (the invoice's sender comes from tenant-info). No HTTP API, no GraphQL, no NATS consumers, no
 * outbox relay: those run in the `api` process. An application context, so the domains'
 * controllers are not served.
 */
@Module({})
export class MailWorkerProcessModule {
  static forRoot(config: BookingsInvitationsConfig): DynamicModule {
    return {
      module: MailWorkerProcessModule,
      imports: [
        serviceCore(config),
        DatabaseModule,
        RepositoriesModule,
        CapacityModule,
        MailsModule,
        InvoicesModule,
        EventTicketsModule,
      ],
      providers: [Readiness],
    };
  }
}

export interface MailWorkerProcess {
  app: INestApplicationContext;
  /** Base URL of the health port (`/health/live`, `/health/ready`). */
  url: string;
  /** Stops claiming, finishes the mails being sent, hands back the rest, closes. */
  close(): Promise<void>;
}

/** Lowers the process's priority (nice MAIL_WORKER_NICE): the API on the same host goes first. */
function lowerPriority(nice: number, logger: Logger): void {
  if (nice <= 0) return;
  try {
    os.setPriority(0, nice);
    logger.log(`running at nice ${os.getPriority(0)}`);
  } catch (err) {
    logger.warn(`nice ${nice} not applied: ${(err as Error).message}`);
  }
}

const json = (res: http.ServerResponse, status: number, body: unknown) =>
  res
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
    .end(JSON.stringify(body));

/**
 * The probes of the worker: liveness 200 while the process runs, readiness 200 while its database
 * answers and it is not stopping (SMTP is not checked: an outage delays mails, see README.md).
 */
function healthServer(readiness: Readiness): http.Server {
  return http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
    if (req.method !== 'GET') return json(res, 405, { status: 'method not allowed' });
    if (path === '/health/live') return json(res, 200, { status: 'ok' });
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
 * Starts the mail worker process: nice, the Nest context (the worker starts with it unless
 * MAIL_WORKER_ENABLED=false), the health port on HOST:PORT.
 */
export async function startMailWorkerProcess(
  config: BookingsInvitationsConfig,
): Promise<MailWorkerProcess> {
  const logger = new Logger(`${SERVICE_NAME} mail-worker`);
  lowerPriority(config.MAIL_WORKER_NICE, logger);
  // The bookings domain comes along for the ticket renderer; its sweeps (payment deadlines) are
  // the api process's work, not this one's.
  const own = Object.assign(new BookingsInvitationsConfig(), config, { SALE_SWEEP_INTERVAL_MS: 0 });
  const app = await NestFactory.createApplicationContext(MailWorkerProcessModule.forRoot(own), {
    logger: new ConsoleLogger({
      logLevels: logLevels(config.NODE_ENV, config.LOG_LEVEL),
      colors: process.stdout.isTTY === true,
    }),
  });
  const readiness = app.get(Readiness);
  const server = healthServer(readiness);
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
    })());
  logger.log(`health on ${listenAddress(config.HOST, port)} (NATS ${config.NATS_URL})`);
  return { app, url: `http://127.0.0.1:${port}`, close };
}

/**
 * SIGTERM/SIGINT: readiness 503, the mails being sent finish, the claimed rest is handed back
 * (MailWorker.stop), exit 0; exit 1 when that takes longer than SHUTDOWN_TIMEOUT_MS (the leases
 * then run out and another worker sends those mails: nothing is lost).
 */
export function closeWorkerOnSignals(
  worker: MailWorkerProcess,
  config: BookingsInvitationsConfig,
): void {
  const logger = new Logger(`${SERVICE_NAME} mail-worker`);
  const onSignal = (signal: NodeJS.Signals) => {
    logger.log(`${signal}: stopping`);
    const deadline = setTimeout(() => {
      logger.error(`not closed within ${config.SHUTDOWN_TIMEOUT_MS} ms: exiting anyway`);
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    worker.close().then(
      () => process.exit(0),
      (err: Error) => {
        logger.error(`closing failed: ${err.stack ?? String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
