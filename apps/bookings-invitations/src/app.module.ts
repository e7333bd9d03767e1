import { DynamicModule, Module } from '@nestjs/common';
import path from 'node:path';
import { HealthController, Readiness, ServiceCoreModule, subgraphModule } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from './config';
import { BookingsModule } from './bookings/bookings.module';
import { CapacityModule } from './capacity/capacity.module';
import { CrossServiceModule } from './cross-service/cross-service.module';
import { DatabaseModule } from './database/database.module';
import { RepositoriesModule } from './database/repositories.module';
import { EventCopiesModule } from './event-copies/event-copies.module';
import { HoldsModule } from './holds/holds.module';
import { EventTicketsModule } from './event-tickets/event-tickets.module';
import { InvoicesModule } from './invoices/invoices.module';
import { CreditNotesModule } from './credit-notes/credit-notes.module';
import { InvitationsModule } from './invitations/invitations.module';
import { MailsModule } from './mails/mails.module';
import { OutboxModule } from './outbox/outbox.module';
import { TicketTypesModule } from './ticket-types/ticket-types.module';
import { WaitingListModule } from './waiting-list/waiting-list.module';

export const SERVICE_NAME = 'bookings-invitations';

/** Config, i18n (the app's texts), NATS: every process of the service has them. */
export const serviceCore = (config: BookingsInvitationsConfig) =>
  ServiceCoreModule.forRoot({
    service: SERVICE_NAME,
    config,
    localeDirs: [path.join(__dirname, 'i18n')],
  });

// Domain modules, one folder each (src/<domain>/<domain>.module.ts). The process of role
// `mail-worker` boots MailWorkerProcessModule (mails/mail-worker-process.ts) instead: only what
// sending mails needs.
@Module({})
export class AppModule {
  static forRoot(config: BookingsInvitationsConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        serviceCore(config),
        DatabaseModule,
        RepositoriesModule,
        OutboxModule,
        subgraphModule(),
        CapacityModule,
        MailsModule,
        EventCopiesModule,
        TicketTypesModule,
        EventTicketsModule,
        InvoicesModule,
        CreditNotesModule,
        BookingsModule,
        HoldsModule,
        WaitingListModule,
        CrossServiceModule,
        InvitationsModule,
      ],
      controllers: [HealthController],
      providers: [Readiness],
    };
  }
}
