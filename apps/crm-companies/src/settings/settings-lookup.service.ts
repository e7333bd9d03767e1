import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { SettingsLookup } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import type { CompanySettingsList } from '../generated/prisma/client';
import { COMPANY_SETTINGS } from './settings-lists';
import { companySettingsStore, Db } from './settings.repository';

export type { EntryView } from '@crm/settings-lists';

/**
 * Reads and checks entries of the company settings lists (system entries merged with the
 * tenant's) for the other domains: entries, anyEntries, requireEntry, resolveTags.
 */
@Injectable()
export class SettingsLookupService extends SettingsLookup<CompanySettingsList, Db> {
  constructor(prisma: PrismaService, i18n: I18nService) {
    super(companySettingsStore(prisma), COMPANY_SETTINGS, i18n);
  }
}
