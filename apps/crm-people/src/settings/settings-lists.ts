import { COLOR_PATTERN, defineSettingsLists, type ListFields } from '@crm/settings-lists';
import type { PeopleSettingsList } from '../generated/prisma/client';
import { LIST_I18N_NAMESPACE, SYSTEM_ENTRIES, systemTextKey } from './system-entries';

export { COLOR_PATTERN };

/** The `{list}` path segment of S1-S5 and the table's list it names. */
export const LIST_SLUGS: Record<string, PeopleSettingsList> = {
  'property-entries': 'PROPERTY_ENTRIES',
  'personality-tags': 'PERSONALITY_TAGS',
  'orga-tags': 'ORGA_TAGS',
  'address-types': 'ADDRESS_TYPES',
  lifecycles: 'LIFECYCLES',
  'manager-roles': 'MANAGER_ROLES',
  'company-relation-types': 'COMPANY_RELATION_TYPES',
};

/** Which optional fields an entry of a list may carry (others are refused, not silently dropped). */
export const LIST_FIELDS: Record<PeopleSettingsList, ListFields> = {
  PROPERTY_ENTRIES: { color: false, category: false },
  PERSONALITY_TAGS: { color: false, category: true },
  ORGA_TAGS: { color: false, category: false },
  ADDRESS_TYPES: { color: false, category: false },
  LIFECYCLES: { color: true, category: false },
  MANAGER_ROLES: { color: false, category: false },
  COMPANY_RELATION_TYPES: { color: false, category: false },
};

/** The people settings lists as the engine (@crm/settings-lists) runs them. */
export const PEOPLE_SETTINGS = defineSettingsLists<PeopleSettingsList>({
  slugs: LIST_SLUGS,
  fields: LIST_FIELDS,
  systemEntries: SYSTEM_ENTRIES,
  i18n: {
    listName: (list) => `people.lists.${LIST_I18N_NAMESPACE[list]}`,
    systemText: systemTextKey,
  },
  lockKeyPrefix: 'people-settings',
  // crm-people's behaviour from before the engine was shared (see the lib's options)
  caseInsensitiveIds: false,
  newTags: { position: 'zero', category: 'asGiven' },
});

export const LIST_SLUG_NAMES = PEOPLE_SETTINGS.slugNames;

/**
 * listOf: `lifecycles` -> LIFECYCLES, an unknown list is a 404 naming the lists that exist;
 * systemEntry: the system entry of a list with that id; systemEntryList: the list of a system id.
 */
export const { listOf, systemEntry, systemEntryList } = PEOPLE_SETTINGS;
