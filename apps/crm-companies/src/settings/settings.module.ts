import { Module } from '@nestjs/common';
import { CompanySettingsController } from './settings.controller';
import { SettingsLookupService } from './settings-lookup.service';
import { SettingsRepository } from './settings.repository';
import { SettingsResolver } from './settings.resolver';
import { SettingsWriteService } from './settings-write.service';
import { SettingsService } from './settings.service';

/** Company settings lists (S1-S5): system entries in code, tenant entries in the database. */
@Module({
  controllers: [CompanySettingsController],
  providers: [
    SettingsLookupService,
    SettingsRepository,
    SettingsService,
    SettingsWriteService,
    SettingsResolver,
  ],
  exports: [SettingsLookupService, SettingsService],
})
export class SettingsModule {}
