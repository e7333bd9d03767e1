import { Module } from '@nestjs/common';
import { OutboxEventsModule } from '@crm/messaging';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from '../config';
// Wiring, not access: @crm/messaging's relay and consumers own OutboxEvent/ProcessedEvent and are
// handed the client here.
// eslint-disable-next-line no-restricted-imports
import { PrismaService } from '../database/prisma.service';

/**
 * bookings-invitations's cross-service events: the relay publishes its OutboxEvent table
 * to JetStream, and handlers declared with @ConsumeEvent on any provider of the app consume
 * other services' events in the service's database (ProcessedEvent keeps them once).
 */
@Module({
  imports: [
    OutboxEventsModule.forRootAsync({
      inject: [PrismaService, SERVICE_CONFIG],
      useFactory: (prisma: PrismaService, config: BookingsInvitationsConfig) => ({
        service: 'bookings-invitations',
        natsUrl: config.NATS_URL,
        db: prisma,
        databaseUrl: config.DATABASE_URL,
        relay: {
          pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS,
          batchSize: config.OUTBOX_BATCH_SIZE,
        },
      }),
    }),
  ],
  // JetStreamConnection: bookings forward sales to their tenant's writer over the same connection
  exports: [OutboxEventsModule],
})
export class OutboxModule {}
