import { createServiceApp } from '@crm/service-kit';
import { RunningService, startServiceForTest } from '@crm/testing';
import { AppModule, SERVICE_NAME } from '../app.module';
import { BookingsInvitationsConfig } from '../config';

export type { RunningService };

/** Boots the real bookings-invitations app (HTTP, GraphQL, NATS) on a fresh database and a free port. */
export const startBookingsInvitations = (dbName: string, env?: Record<string, string>) =>
  startServiceForTest({
    service: SERVICE_NAME,
    appModule: (config) => AppModule.forRoot(config),
    config: BookingsInvitationsConfig,
    createApp: createServiceApp,
    dbName,
    env,
  });
