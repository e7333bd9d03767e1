import { Module } from '@nestjs/common';
import { EventSettingsListsController } from './event-settings-lists.controller';
import { EventSettingsListReads, EventSettingsListWrites } from './event-settings-lists.service';
import { EventSettingsLookup } from './event-settings-lookup.service';
import { EventSettingsRepository } from './event-settings.repository';
import { VendorListsService } from './vendor-lists/vendor-lists.service';

/**
 * Event settings (ES1-ES7): the tenant lists on the settings engine, the vendor lists, the
 * settings object, contact person templates. Exports EventSettingsLookup for the events domain.
 */
@Module({
  controllers: [EventSettingsListsController],
  providers: [
    EventSettingsRepository,
    EventSettingsListReads,
    EventSettingsListWrites,
    EventSettingsLookup,
    VendorListsService,
  ],
  exports: [EventSettingsLookup],
})
export class EventSettingsModule {}
