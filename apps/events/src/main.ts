import './telemetry';
import 'reflect-metadata';
import { loadConfigOrExit } from '@crm/config';
import { closeWorkerOnSignals, createServiceApp, startServiceApp } from '@crm/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { EventsConfig } from './config';
import { startWorkerProcessOfEvents } from './worker-process';

// PROCESS_ROLE (config.ts): `api` and `all` serve the API (the consumers and the webhook worker
// run too in `all`); `worker` runs only the background work, with a health port.
async function main() {
  const config = loadConfigOrExit(EventsConfig);
  if (config.PROCESS_ROLE === 'worker') {
    closeWorkerOnSignals(await startWorkerProcessOfEvents(config), {
      service: SERVICE_NAME,
      role: config.PROCESS_ROLE,
      timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    });
    return;
  }
  const opts = { service: SERVICE_NAME, title: 'Events', config };
  const app = await createServiceApp(AppModule.forRoot(config), opts);
  await startServiceApp(app, opts);
}

main().catch((err) => {
  console.error(`events failed to start: ${err?.stack ?? err}`);
  process.exit(1);
});
