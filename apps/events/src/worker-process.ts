import { DynamicModule, Module } from '@nestjs/common';
import { Readiness, startWorkerProcess, WorkerProcess } from '@crm/service-kit';
import { SERVICE_NAME, serviceCore } from './app.module';
import { EventsConfig } from './config';
import { DatabaseModule } from './database/database.module';
import { FilesModule } from './files/files.module';
import { OutboxModule } from './outbox/outbox.module';
import { FileStorageModule } from './storage/file-storage.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * The process of role `worker` (PROCESS_ROLE, config.ts): the consumers of the platform's events
 * (the webhook fan-out of WebhooksModule, the file copies of FilesModule), the webhook delivery
 * worker and the outbox relay, on the service's database, file storage and NATS. No HTTP API, no
 * GraphQL: an application context, so the domains' controllers are not served.
 */
@Module({})
export class WorkerProcessModule {
  static forRoot(config: EventsConfig): DynamicModule {
    return {
      module: WorkerProcessModule,
      imports: [
        serviceCore(config),
        DatabaseModule,
        FileStorageModule,
        WebhooksModule,
        FilesModule,
        OutboxModule,
      ],
      providers: [Readiness],
    };
  }
}

/** Starts the worker process: nice WORKER_NICE, the context, the health port on HOST:PORT. */
export function startWorkerProcessOfEvents(config: EventsConfig): Promise<WorkerProcess> {
  return startWorkerProcess(WorkerProcessModule.forRoot(config), {
    service: SERVICE_NAME,
    role: 'worker',
    config,
    nice: config.WORKER_NICE,
  });
}
