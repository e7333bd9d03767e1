import './telemetry';
import 'reflect-metadata';
import { loadConfigOrExit } from '@crm/config';
import { createServiceApp, startServiceApp } from '@crm/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { CrmPeopleConfig } from './config';

async function main() {
  const config = loadConfigOrExit(CrmPeopleConfig);
  const opts = { service: SERVICE_NAME, title: 'CRM people', config };
  const app = await createServiceApp(AppModule.forRoot(config), opts);
  await startServiceApp(app, opts);
}

main().catch((err) => {
  console.error(`crm-people failed to start: ${err?.stack ?? err}`);
  process.exit(1);
});
