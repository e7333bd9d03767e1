import { AppException, ErrorCode } from '@crm/errors';
import type { CompanySettingsList } from '../generated/prisma/client';

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

export const LIST_SLUG_NAMES = Object.keys(LIST_SLUGS);

/** Which optional fields an entry of a list may carry (others are refused, not silently dropped). */
export const LIST_FIELDS: Record<CompanySettingsList, { color: boolean; category: boolean }> = {
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

export const COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;

/** `lifecycles` -> LIFECYCLES; an unknown list is a 404 naming the lists that exist. */
export function listOf(slug: string): CompanySettingsList {
  const list = Object.prototype.hasOwnProperty.call(LIST_SLUGS, slug) ? LIST_SLUGS[slug] : null;
  if (!list) {
    throw new AppException(ErrorCode.NOT_FOUND, 'settings.list.unknown', {
      list: slug,
      lists: LIST_SLUG_NAMES.join(', '),
    });
  }
  return list;
}
