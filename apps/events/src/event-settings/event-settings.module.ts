import { Module } from '@nestjs/common';
import { TemplatesController } from './contact-person-templates/templates.controller';
import { TemplatesRepository } from './contact-person-templates/templates.repository';
import { TemplatesResolver } from './contact-person-templates/templates.resolver';
import { TemplatesService } from './contact-person-templates/templates.service';
import { EventSettingsListsController } from './event-settings-lists.controller';
import { EventSettingsListReads, EventSettingsListWrites } from './event-settings-lists.service';
import { EventSettingsLookup } from './event-settings-lookup.service';
import { EventSettingsMessages } from './event-settings.messages';
import { EventSettingsRepository } from './event-settings.repository';
import { EventsChangedNotifier } from './events-changed';
import { EventSettingsResolver } from './event-settings.resolver';
import { EventSettingsObjectController } from './settings-object.controller';
import { EventSettingsObjectService } from './settings-object.service';
import { VendorListsService } from './vendor-lists/vendor-lists.service';

/**
 * Event settings (ES1-ES7): the tenant lists on the settings engine, the vendor lists, the
 * settings object, contact person templates. Exports EventSettingsLookup for the events domain.
 */
@Module({
  controllers: [
    EventSettingsObjectController,
    TemplatesController,
    EventSettingsListsController,
    EventSettingsMessages,
  ],
  providers: [
    EventsChangedNotifier,
    EventSettingsRepository,
    EventSettingsListReads,
    EventSettingsListWrites,
    EventSettingsLookup,
    VendorListsService,
    EventSettingsObjectService,
    EventSettingsResolver,
    TemplatesRepository,
    TemplatesService,
    TemplatesResolver,
  ],
  exports: [EventSettingsLookup, EventsChangedNotifier],
})
export class EventSettingsModule {}
