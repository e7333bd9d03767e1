import { DynamicModule, Module } from '@nestjs/common';
import { Readiness, startWorkerProcess, WorkerProcess } from '@crm/service-kit';
import { SERVICE_NAME, serviceCore } from '../app.module';
import { BookingsInvitationsConfig } from '../config';
import { CapacityModule } from '../capacity/capacity.module';
import { CreditNotesModule } from '../credit-notes/credit-notes.module';
import { DatabaseModule } from '../database/database.module';
import { RepositoriesModule } from '../database/repositories.module';
import { EventTicketsModule } from '../event-tickets/event-tickets.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { MailsModule } from './mails.module';

/**
 * The process of role `mail-worker` (PROCESS_ROLE): the MailWorker of MailsModule and the domains
 * that render its attachments (invoices, credit notes, event tickets), on the service's database and NATS
 * (the invoice's sender comes from tenant-info). No HTTP API, no GraphQL, no NATS consumers, no
 * outbox relay: those run in the `api` process. An application context, so the domains'
 * controllers are not served.
 */
@Module({})
export class MailWorkerProcessModule {
  static forRoot(config: BookingsInvitationsConfig): DynamicModule {
    return {
      module: MailWorkerProcessModule,
      imports: [
        serviceCore(config),
        DatabaseModule,
        RepositoriesModule,
        CapacityModule,
        MailsModule,
        InvoicesModule,
        CreditNotesModule,
        EventTicketsModule,
      ],
      providers: [Readiness],
    };
  }
}

/**
 * Starts the mail worker process (@crm/service-kit startWorkerProcess): nice MAIL_WORKER_NICE,
 * the context (the worker starts with it unless MAIL_WORKER_ENABLED=false), the health port on
 * HOST:PORT (SMTP is not checked: an outage delays mails, see README.md).
 */
export function startMailWorkerProcess(config: BookingsInvitationsConfig): Promise<WorkerProcess> {
  // The bookings domain comes along for the ticket renderer; its sweeps (payment deadlines) are
  // the api process's work, not this one's.
  const own = Object.assign(new BookingsInvitationsConfig(), config, { SALE_SWEEP_INTERVAL_MS: 0 });
  return startWorkerProcess(MailWorkerProcessModule.forRoot(own), {
    service: SERVICE_NAME,
    role: 'mail-worker',
    config,
    nice: config.MAIL_WORKER_NICE,
  });
}
