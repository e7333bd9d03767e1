import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { SettingsReads } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import type { CompanySettingsList } from '../generated/prisma/client';
import { COMPANY_SETTINGS } from './settings-lists';
import { companySettingsStore, Db } from './settings.repository';

/** Reads of the company settings lists (S1, by the engine). */
@Injectable()
export class SettingsService extends SettingsReads<CompanySettingsList, Db> {
  constructor(prisma: PrismaService, i18n: I18nService) {
    super(companySettingsStore(prisma), COMPANY_SETTINGS, i18n);
  }
}
