import { ImportMetrics } from './import-metrics';
import { Module } from '@nestjs/common';
import { BookingsModule } from '../bookings/bookings.module';
import { EventCopiesModule } from '../event-copies/event-copies.module';
import { InvitationBookings } from './invitation-bookings';
import { InvitationImportService } from './invitation-import.service';
import { InvitationMailsService } from './invitation-mails.service';
import { InvitationsController } from './invitations.controller';
import { InvitationsResolver } from './invitations.resolver';
import { InvitationsService } from './invitations.service';
import { PeopleContacts } from './people-contacts';
import { ImportJobsRepository } from './import-jobs.repository';

/** Invitations IN1-IN17: create, public answer, mails, import as a job, export. */
@Module({
  imports: [EventCopiesModule, BookingsModule],
  controllers: [InvitationsController],
  providers: [
    ImportMetrics,
    ImportJobsRepository,
    InvitationsService,
    InvitationMailsService,
    InvitationImportService,
    InvitationsResolver,
    InvitationBookings,
    PeopleContacts,
  ],
})
export class InvitationsModule {}
