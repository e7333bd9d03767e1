import './telemetry';
import 'reflect-metadata';
import { loadConfigOrExit } from '@crm/config';
import { closeWorkerOnSignals, createServiceApp, startServiceApp } from '@crm/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { BookingsInvitationsConfig } from './config';
import { startMailWorkerProcess } from './mails/mail-worker-process';

// PROCESS_ROLE (config.ts): `api` and `all` serve the API (the mail worker runs too in `all`);
// `mail-worker` runs only the mail worker, with a health port.
async function main() {
  const config = loadConfigOrExit(BookingsInvitationsConfig);
  if (config.PROCESS_ROLE === 'mail-worker') {
    closeWorkerOnSignals(await startMailWorkerProcess(config), {
      service: SERVICE_NAME,
      role: config.PROCESS_ROLE,
      timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    });
    return;
  }
  const opts = { service: SERVICE_NAME, title: 'Bookings invitations', config };
  const app = await createServiceApp(AppModule.forRoot(config), opts);
  await startServiceApp(app, opts);
}

main().catch((err) => {
  console.error(`bookings-invitations failed to start: ${err?.stack ?? err}`);
  process.exit(1);
});
