import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { SettingsWrites } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import type { CompanySettingsList } from '../generated/prisma/client';
import { CreateCompanySettingsEntryInput } from './dto/settings-entry.input';
import { COMPANY_SETTINGS } from './settings-lists';
import { companySettingsStore, Db, SettingsRepository } from './settings.repository';

/**
 * Writes of the company settings lists (S2-S5, by the engine), each in one transaction. An entry
 * in use is refused with 409 naming how many companies (e-mail addresses, relations) use it,
 * unless `force`.
 */
@Injectable()
export class SettingsWriteService extends SettingsWrites<CompanySettingsList, Db, number> {
  constructor(prisma: PrismaService, i18n: I18nService, references: SettingsRepository) {
    super(
      companySettingsStore(prisma),
      COMPANY_SETTINGS,
      i18n,
      references,
      CreateCompanySettingsEntryInput,
    );
  }
}
