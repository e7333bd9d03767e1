import { COLOR_PATTERN, defineSettingsLists, type ListFields } from '@crm/settings-lists';
import type { CompanySettingsList } from '../generated/prisma/client';
import { LIST_I18N_NAMESPACE, SYSTEM_ENTRIES, systemTextKey } from './system-entries';

export { COLOR_PATTERN };

/** The `{list}` path segment of /company-settings/{list} and the table's list it names. */
export const LIST_SLUGS: Record<string, CompanySettingsList> = {
  tags: 'TAGS',
  'employee-counts': 'EMPLOYEE_COUNTS',
  'customer-counts': 'CUSTOMER_COUNTS',
  'legal-forms': 'LEGAL_FORMS',
  'reference-number-types': 'REFERENCE_NUMBER_TYPES',
  'industry-sectors': 'INDUSTRY_SECTORS',
  'relation-types': 'RELATION_TYPES',
  lifecycles: 'LIFECYCLES',
  'email-types': 'EMAIL_TYPES',
};

/** Which optional fields an entry of a list may carry (others are refused, not silently dropped). */
export const LIST_FIELDS: Record<CompanySettingsList, ListFields> = {
  TAGS: { color: true, category: false },
  EMPLOYEE_COUNTS: { color: false, category: false },
  CUSTOMER_COUNTS: { color: false, category: false },
  LEGAL_FORMS: { color: false, category: false },
  REFERENCE_NUMBER_TYPES: { color: false, category: false },
  INDUSTRY_SECTORS: { color: false, category: true },
  RELATION_TYPES: { color: false, category: false },
  LIFECYCLES: { color: true, category: false },
  EMAIL_TYPES: { color: false, category: false },
};

/** The company settings lists as the engine (@crm/settings-lists) runs them. */
export const COMPANY_SETTINGS = defineSettingsLists<CompanySettingsList>({
  slugs: LIST_SLUGS,
  fields: LIST_FIELDS,
  systemEntries: SYSTEM_ENTRIES,
  i18n: {
    listName: (list) => `settings.lists.${LIST_I18N_NAMESPACE[list]}`,
    systemText: systemTextKey,
  },
  lockKeyPrefix: 'company-settings',
});

export const LIST_SLUG_NAMES = COMPANY_SETTINGS.slugNames;

/**
 * listOf: `lifecycles` -> LIFECYCLES, an unknown list is a 404 naming the lists that exist;
 * systemEntry: the system entry of a list with that id; systemEntryList: the list of a system id.
 */
export const { listOf, systemEntry, systemEntryList } = COMPANY_SETTINGS;
