import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { SettingsWrites } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import type { PeopleSettingsList } from '../generated/prisma/client';
import { CreateSettingsEntryInput } from './dto/settings-entry.input';
import { PEOPLE_SETTINGS } from './settings-lists';
import { Db, peopleSettingsStore, SettingsRepository, Usage } from './settings.repository';

/**
 * Writes of the people settings lists (S2-S5, by the engine), each in one transaction. An entry
 * in use is refused with 409 naming how many people (and touchpoints) use it, unless `force`.
 */
@Injectable()
export class SettingsWriteService extends SettingsWrites<PeopleSettingsList, Db, Usage> {
  constructor(prisma: PrismaService, i18n: I18nService, references: SettingsRepository) {
    super(peopleSettingsStore(prisma), PEOPLE_SETTINGS, i18n, references, CreateSettingsEntryInput);
  }
}
