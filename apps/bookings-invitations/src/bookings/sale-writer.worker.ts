// The sale writer's thread (started by SaleWriterThread): BookingBatchWriter on an event loop of
// its own, so its statements' answers are handled at once instead of behind the API's requests.
// Imported first: tracing (when an OTLP endpoint is set) patches pg here too, as in main.ts.
import '../telemetry';
import 'reflect-metadata';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { CrmI18nModule } from '@crm/i18n';
import { createAppLogging, prettyLogs } from '@crm/logging';
import { MetricsModule } from '@crm/metrics';
import { asTenant } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { CapacityRepository } from '../capacity/capacity.repository';
import { BookingsInvitationsConfig } from '../config';
import { DatabaseModule } from '../database/database.module';
import { RepositoriesModule } from '../database/repositories.module';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { HoldsRepository } from '../holds/holds.repository';
import { MailsRepository } from '../mails/mails.repository';
import { ListAllocations } from '../waiting-list/list-allocations';
import { WaitingListRepository } from '../waiting-list/waiting-list.repository';
import { BookingBatchWriter } from './booking-batch-writer';
import { BookingMails } from './booking-mails';
import { BookingsRepository } from './bookings.repository';
import { failedReply, toWire } from './sale-wire';
import type { FromWriter, ToWriter } from './sale-writer-thread';

const APP = 'bookings-invitations-sale-writer';

/**
 * What the writer needs and nothing else: no HTTP, no NATS, no consumers, sweepers or mail
 * worker (those stay in the API's thread). Its own pool of DATABASE_POOL_SIZE connections.
 */
@Module({})
class SaleWriterModule {
  static forRoot(config: BookingsInvitationsConfig): DynamicModule {
    return {
      module: SaleWriterModule,
      global: true,
      imports: [
        CrmI18nModule.forRoot([path.join(__dirname, '../i18n')]),
        MetricsModule.forRoot(APP),
        DatabaseModule,
        RepositoriesModule,
      ],
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        BookingBatchWriter,
        BookingsRepository,
        BookingMails,
        CapacityRepository,
        EventCopiesRepository,
        HoldsRepository,
        ListAllocations,
        MailsRepository,
        WaitingListRepository,
      ],
      exports: [SERVICE_CONFIG],
    };
  }
}

async function main(): Promise<void> {
  const port = parentPort!;
  const config = Object.assign(
    new BookingsInvitationsConfig(),
    (workerData as { config: object }).config,
  );
  const logging = createAppLogging({
    app: APP,
    nodeEnv: config.NODE_ENV,
    level: config.LOG_LEVEL,
    pretty: prettyLogs(),
  });
  Logger.overrideLogger(logging.nest);
  const logger = new Logger('SaleWriter');
  const app = await NestFactory.createApplicationContext(SaleWriterModule.forRoot(config), {
    logger: logging.nest,
  });
  const writer = app.get(BookingBatchWriter);

  const write = async ({ id, batch }: Extract<ToWriter, { batch: unknown }>) => {
    let reply: FromWriter;
    try {
      // A batch is one tenant's: its transaction runs as that tenant (row-level security).
      const outcomes = await asTenant(batch[0].tenantId, () => writer.write(batch));
      reply = { id, outcomes: outcomes.map(toWire) };
    } catch (err) {
      reply = { id, ...failedReply(err, logger) };
    }
    port.postMessage(reply);
  };
  port.on('message', (msg: ToWriter) => {
    if ('batch' in msg) void write(msg);
    // stop: SaleWriterThread sends it once no batch is pending
    else void app.close().then(() => process.exit(0));
  });
  port.postMessage({ ready: true } satisfies FromWriter);
}

// An error at start ends the thread (an unhandled rejection): its 'error' event tells
// SaleWriterThread, which logs it.
void main();
