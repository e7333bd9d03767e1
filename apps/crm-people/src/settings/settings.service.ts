import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { RequestContext } from '@crm/request-context';
import { SettingsReads } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import type { PeopleSettingsList } from '../generated/prisma/client';
import type { RelationTypeDefinition } from './dto/settings-entry.dto';
import { RELATION_TYPES, RelationCategory, relationType } from './relation-types';
import { PEOPLE_SETTINGS } from './settings-lists';
import { Db, peopleSettingsStore } from './settings.repository';
import { t } from './settings-text';

/** Reads of the people settings lists (S1, by the engine) and the relation types (R9). */
@Injectable()
export class SettingsService extends SettingsReads<PeopleSettingsList, Db> {
  constructor(prisma: PrismaService, i18n: I18nService) {
    super(peopleSettingsStore(prisma), PEOPLE_SETTINGS, i18n);
  }

  /** R9: the relation types, optionally of one category, with translated names. */
  relationTypes(ctx: RequestContext, category?: RelationCategory): RelationTypeDefinition[] {
    const name = (id: string) => t(this.i18n, `relations.types.${id}`, ctx.language);
    return RELATION_TYPES.filter((r) => !category || r.category === category).map((r) => ({
      identifier: r.identifier,
      category: r.category,
      inverseIdentifier: r.inverse,
      name: name(r.identifier),
      inverseName: name(relationType(r.inverse)!.identifier),
      symmetric: r.inverse === r.identifier,
    }));
  }
}
