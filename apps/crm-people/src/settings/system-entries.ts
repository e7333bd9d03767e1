import type { PeopleSettingsList } from '../generated/prisma/client';

/**
 * Entries every tenant has without creating them. They live in code, not in the database, so
 * their texts follow Accept-Language (key `people.<list>.<key>` in src/i18n) and a release can
 * improve them for everyone. Their ids are fixed and never collide with generated ones.
 */
export interface SystemEntry {
  id: string;
  key: string;
  color?: string;
}

export const SYSTEM_ENTRIES: Partial<Record<PeopleSettingsList, SystemEntry[]>> = {
  LIFECYCLES: [
    { id: '00000000-0000-4000-a000-000000000101', key: 'lead', color: '#9E9E9E' },
    { id: '00000000-0000-4000-a000-000000000102', key: 'prospect', color: '#2196F3' },
    { id: '00000000-0000-4000-a000-000000000103', key: 'customer', color: '#4CAF50' },
    { id: '00000000-0000-4000-a000-000000000104', key: 'formerCustomer', color: '#F44336' },
  ],
};

export const LIST_I18N_NAMESPACE: Record<PeopleSettingsList, string> = {
  PROPERTY_ENTRIES: 'propertyEntries',
  PERSONALITY_TAGS: 'personalityTags',
  ORGA_TAGS: 'orgaTags',
  ADDRESS_TYPES: 'addressTypes',
  LIFECYCLES: 'lifecycles',
  MANAGER_ROLES: 'managerRoles',
  COMPANY_RELATION_TYPES: 'companyRelationTypes',
};

export function systemEntry(list: PeopleSettingsList, id: string): SystemEntry | undefined {
  return SYSTEM_ENTRIES[list]?.find((e) => e.id === id);
}
