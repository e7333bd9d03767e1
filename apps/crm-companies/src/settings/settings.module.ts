import { Module } from '@nestjs/common';
import { SettingsLookupService } from './settings-lookup.service';

/** Company settings lists: system entries in code, tenant entries in the database. */
@Module({
  controllers: [],
  providers: [SettingsLookupService],
  exports: [SettingsLookupService],
})
export class SettingsModule {}
