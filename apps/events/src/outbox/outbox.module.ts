import { Module } from '@nestjs/common';
import { OutboxEventsModule } from '@crm/messaging';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { EventsConfig } from '../config';
import { PrismaService } from '../database/prisma.service';

/**
 * The events service's cross-service events: the relay publishes its OutboxEvent table (events
 * duplicated and deleted, websites migrated) to JetStream, and handlers declared with
 * @ConsumeEvent on any provider of the app consume other services' events in the events
 * database (ProcessedEvent keeps them once). The consumers run in the `worker` and `all`
 * processes, the relay in every process (replicas share it safely).
 */
@Module({
  imports: [
    OutboxEventsModule.forRootAsync({
      inject: [PrismaService, SERVICE_CONFIG],
      useFactory: (prisma: PrismaService, config: EventsConfig) => ({
        service: 'events',
        natsUrl: config.NATS_URL,
        db: prisma,
        databaseUrl: config.DATABASE_URL,
        relay: {
          pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS,
          batchSize: config.OUTBOX_BATCH_SIZE,
        },
        // an `api` process leaves the consumers to its worker process (config.ts PROCESS_ROLES)
        consume: config.PROCESS_ROLE !== 'api',
      }),
    }),
  ],
})
export class OutboxModule {}
