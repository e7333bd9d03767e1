import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { SettingsLookup } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import type { PeopleSettingsList } from '../generated/prisma/client';
import { PEOPLE_SETTINGS } from './settings-lists';
import { Db, peopleSettingsStore } from './settings.repository';

export type { EntryView } from '@crm/settings-lists';

/**
 * Reads and checks entries of the people settings lists (system entries merged with the
 * tenant's) for the other domains: entries, anyEntries, requireEntry, resolveTags.
 */
@Injectable()
export class SettingsLookupService extends SettingsLookup<PeopleSettingsList, Db> {
  constructor(prisma: PrismaService, i18n: I18nService) {
    super(peopleSettingsStore(prisma), PEOPLE_SETTINGS, i18n);
  }
}
