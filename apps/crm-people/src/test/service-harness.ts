import { createServiceApp } from '@crm/service-kit';
import { RunningService, startServiceForTest } from '@crm/testing';
import { AppModule, SERVICE_NAME } from '../app.module';
import { CrmPeopleConfig } from '../config';

export type { RunningService };

/** Boots the real crm-people app (HTTP, GraphQL, NATS) on a fresh database and a free port. */
export const startCrmPeople = (dbName: string, env?: Record<string, string>) =>
  startServiceForTest({
    service: SERVICE_NAME,
    appModule: (config) => AppModule.forRoot(config),
    config: CrmPeopleConfig,
    createApp: createServiceApp,
    dbName,
    env,
  });
