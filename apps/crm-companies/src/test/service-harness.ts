import type { INestApplication } from '@nestjs/common';
import { loadConfig } from '@crm/config';
import { createServiceApp } from '@crm/service-kit';
import { freePort, freshDatabase, NATS_TEST_URL } from '@crm/testing';
import { AppModule, SERVICE_NAME } from '../app.module';
import { CrmCompaniesConfig } from '../config';

export interface RunningService {
  app: INestApplication;
  url: string;
  databaseUrl: string;
}

/** Boots the real crm-companies app (HTTP, GraphQL, NATS) on a fresh database and a free port. */
export async function startCrmCompanies(dbName: string): Promise<RunningService> {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const databaseUrl = await freshDatabase(SERVICE_NAME, dbName);
  const port = await freePort();
  const config = loadConfig(CrmCompaniesConfig, {
    NODE_ENV: 'test',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    NATS_URL: NATS_TEST_URL,
  });
  const app = await createServiceApp(AppModule.forRoot(config), {
    service: SERVICE_NAME,
    title: 'crm-companies test',
    config,
  });
  try {
    await app.startAllMicroservices();
    await app.listen(port, '127.0.0.1');
  } catch (err) {
    await app.close(); // an open NATS connection would keep jest alive
    throw err;
  }
  return { app, url: `http://127.0.0.1:${port}`, databaseUrl };
}
