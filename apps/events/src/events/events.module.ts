import { Module } from '@nestjs/common';
import { EventSettingsModule } from '../event-settings/event-settings.module';
import { FilesModule } from '../files/files.module';
import { EventChecks } from './event-checks.service';
import { EventReferences } from './event-references.service';
import { EventsController } from './events.controller';
import { EventsMessages } from './events.messages';
import { EventsPublicationService } from './events-publication.service';
import { EventsQueryController } from './events-query.controller';
import { EventSnapshotsOnSettingsChange } from './event-snapshots.hook';
import { EventsRepository } from './events.repository';
import { EventsResolver } from './events.resolver';
import { EventsService } from './events.service';
import { EventsIcalService } from './ical/events-ical.service';
import { PublicEventsIcalController } from './ical/public-events-ical.controller';

/** Events E1-E12, their iCalendar (E8) and a website's public feed (W16), the Event entity. */
@Module({
  imports: [EventSettingsModule, FilesModule],
  controllers: [
    EventsQueryController,
    EventsController,
    PublicEventsIcalController,
    EventsMessages,
  ],
  providers: [
    EventsRepository,
    EventReferences,
    EventChecks,
    EventsService,
    EventsPublicationService,
    EventsIcalService,
    EventsResolver,
    EventSnapshotsOnSettingsChange,
  ],
  exports: [EventsService, EventsRepository],
})
export class EventsModule {}
