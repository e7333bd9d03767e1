import type { SystemEntries } from '@crm/settings-lists';
import type { CompanySettingsList } from '../generated/prisma/client';

/**
 * Entries every tenant has without creating them (see SystemEntry in @crm/settings-lists): their
 * texts follow Accept-Language (settings.systemEntries.<list>.<key>). Their ids are fixed UUIDs
 * (a range of their own, apart from crm-people's); they are read-only.
 */
const id = (n: number) => `00000000-0000-4000-b000-${String(n).padStart(12, '0')}`;

export const SYSTEM_ENTRIES: SystemEntries<CompanySettingsList> = {
  LIFECYCLES: [
    { id: id(101), key: 'lead', color: '#9E9E9E' },
    { id: id(102), key: 'prospect', color: '#2196F3' },
    { id: id(103), key: 'customer', color: '#4CAF50' },
    { id: id(104), key: 'partner', color: '#FF9800' },
    { id: id(105), key: 'formerCustomer', color: '#F44336' },
  ],
  EMPLOYEE_COUNTS: [
    { id: id(201), key: 'upTo9' },
    { id: id(202), key: 'upTo49' },
    { id: id(203), key: 'upTo249' },
    { id: id(204), key: 'upTo999' },
    { id: id(205), key: 'from1000' },
  ],
  CUSTOMER_COUNTS: [
    { id: id(301), key: 'upTo10' },
    { id: id(302), key: 'upTo100' },
    { id: id(303), key: 'upTo1000' },
    { id: id(304), key: 'from1000' },
  ],
  LEGAL_FORMS: [
    { id: id(401), key: 'soleProprietorship' },
    { id: id(402), key: 'partnership' },
    { id: id(403), key: 'limitedCompany' },
    { id: id(404), key: 'stockCorporation' },
    { id: id(405), key: 'cooperative' },
    { id: id(406), key: 'association' },
    { id: id(407), key: 'publicBody' },
  ],
  REFERENCE_NUMBER_TYPES: [
    { id: id(501), key: 'commercialRegister' },
    { id: id(502), key: 'duns' },
    { id: id(503), key: 'supplierNumber' },
  ],
  RELATION_TYPES: [
    { id: id(601), key: 'subsidiary' },
    { id: id(602), key: 'branch' },
    { id: id(603), key: 'partner' },
    { id: id(604), key: 'supplier' },
    { id: id(605), key: 'customer' },
  ],
  EMAIL_TYPES: [
    { id: id(701), key: 'office' },
    { id: id(702), key: 'info' },
    { id: id(703), key: 'billing' },
    { id: id(704), key: 'support' },
  ],
};

/** The i18n namespace of each list (settings.lists.<ns>, settings.systemEntries.<ns>.<key>). */
export const LIST_I18N_NAMESPACE: Record<CompanySettingsList, string> = {
  TAGS: 'tags',
  EMPLOYEE_COUNTS: 'employeeCounts',
  CUSTOMER_COUNTS: 'customerCounts',
  LEGAL_FORMS: 'legalForms',
  REFERENCE_NUMBER_TYPES: 'referenceNumberTypes',
  INDUSTRY_SECTORS: 'industrySectors',
  RELATION_TYPES: 'relationTypes',
  LIFECYCLES: 'lifecycles',
  EMAIL_TYPES: 'emailTypes',
};

export function systemTextKey(list: CompanySettingsList, key: string): string {
  return `settings.systemEntries.${LIST_I18N_NAMESPACE[list]}.${key}`;
}
