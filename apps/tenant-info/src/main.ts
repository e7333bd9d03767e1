import './telemetry';
import 'reflect-metadata';
import { loadConfigOrExit } from '@crm/config';
import { createServiceApp, startServiceApp } from '@crm/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { TenantInfoConfig } from './config';

async function main() {
  const config = loadConfigOrExit(TenantInfoConfig);
  const opts = { service: SERVICE_NAME, title: 'Tenant information', config };
  const app = await createServiceApp(AppModule.forRoot(config), opts);
  await startServiceApp(app, opts);
}

main().catch((err) => {
  console.error(`tenant-info failed to start: ${err?.stack ?? err}`);
  process.exit(1);
});
