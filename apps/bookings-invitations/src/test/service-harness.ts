import { createServiceApp } from '@crm/service-kit';
import { loadConfig } from '@crm/config';
import { natsSubscriptionsRegistered } from '@crm/messaging';
import {
  listenForTest,
  NATS_TEST_URL,
  RunningService,
  startServiceForTest,
  testMailWorkerEnv,
} from '@crm/testing';
import { AppModule, SERVICE_NAME } from '../app.module';
import { BookingsInvitationsConfig } from '../config';

export type { RunningService };

/**
 * Boots the real bookings-invitations app (HTTP, GraphQL, NATS) on a fresh database and a free
 * port. The mail worker runs only when the test gives an SMTP_URL (startSmtpServer of
 * @crm/testing): elsewhere queued mails stay as they were written.
 */
export const startBookingsInvitations = (dbName: string, env?: Record<string, string>) =>
  startServiceForTest({
    service: SERVICE_NAME,
    appModule: (config) => AppModule.forRoot(config),
    config: BookingsInvitationsConfig,
    createApp: createServiceApp,
    dbName,
    env: testMailWorkerEnv(env),
  });

/**
 * A second replica of the service on the database of a running one (not recreated): two
 * instances on one database, as two pods in production (concurrency tests). Its mail worker
 * follows the same rule as the first's.
 */
export async function startReplica(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<RunningService> {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const config = loadConfig(BookingsInvitationsConfig, {
    NODE_ENV: 'test',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    NATS_URL: NATS_TEST_URL,
    ...testMailWorkerEnv(env),
  });
  const app = await createServiceApp(AppModule.forRoot(config), {
    service: SERVICE_NAME,
    title: `${SERVICE_NAME} replica`,
    config,
  });
  let port: number;
  try {
    await app.startAllMicroservices();
    await natsSubscriptionsRegistered(app.getMicroservices());
    port = await listenForTest(app, config.PORT);
  } catch (err) {
    await app.close();
    throw err;
  }
  return { app, url: `http://127.0.0.1:${port}`, databaseUrl };
}
