import { Module } from '@nestjs/common';
import { SettingsLookupService } from './settings-lookup.service';

/** People settings lists (S1-S5, R9): system entries in code, tenant entries in the database. */
@Module({
  providers: [SettingsLookupService],
  exports: [SettingsLookupService],
})
export class SettingsModule {}
