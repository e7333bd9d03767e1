import type { SystemEntries } from '@crm/settings-lists';
import type { PeopleSettingsList } from '../generated/prisma/client';

/**
 * Entries every tenant has without creating them (see SystemEntry in @crm/settings-lists): their
 * texts follow Accept-Language (see systemTextKey). Their ids are fixed UUIDs; they are read-only.
 */
const id = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

export const SYSTEM_ENTRIES: SystemEntries<PeopleSettingsList> = {
  LIFECYCLES: [
    { id: id(101), key: 'lead', color: '#9E9E9E' },
    { id: id(102), key: 'prospect', color: '#2196F3' },
    { id: id(103), key: 'customer', color: '#4CAF50' },
    { id: id(104), key: 'formerCustomer', color: '#F44336' },
  ],
  ADDRESS_TYPES: [
    { id: id(201), key: 'business' },
    { id: id(202), key: 'private' },
    { id: id(203), key: 'billing' },
    { id: id(204), key: 'delivery' },
  ],
  COMPANY_RELATION_TYPES: [
    { id: id(301), key: 'employee' },
    { id: id(302), key: 'owner' },
    { id: id(303), key: 'managingDirector' },
    { id: id(304), key: 'boardMember' },
    { id: id(305), key: 'freelancer' },
    { id: id(306), key: 'consultant' },
    { id: id(307), key: 'trainee' },
    { id: id(308), key: 'formerEmployee' },
  ],
  MANAGER_ROLES: [
    { id: id(401), key: 'accountManager' },
    { id: id(402), key: 'keyAccountManager' },
    { id: id(403), key: 'salesRepresentative' },
    { id: id(404), key: 'projectManager' },
    { id: id(405), key: 'supportContact' },
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

/** i18n key of a system entry's text (lifecycles came first and keep their place in people.json). */
export function systemTextKey(list: PeopleSettingsList, key: string): string {
  return list === 'LIFECYCLES'
    ? `people.lifecycles.${key}`
    : `settings.systemEntries.${LIST_I18N_NAMESPACE[list]}.${key}`;
}
