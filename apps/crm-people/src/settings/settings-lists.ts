import { AppException, ErrorCode } from '@crm/errors';
import type { PeopleSettingsList } from '../generated/prisma/client';

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

export const LIST_SLUG_NAMES = Object.keys(LIST_SLUGS);

/** Which optional fields an entry of a list may carry (others are refused, not silently dropped). */
export const LIST_FIELDS: Record<PeopleSettingsList, { color: boolean; category: boolean }> = {
  PROPERTY_ENTRIES: { color: false, category: false },
  PERSONALITY_TAGS: { color: false, category: true },
  ORGA_TAGS: { color: false, category: false },
  ADDRESS_TYPES: { color: false, category: false },
  LIFECYCLES: { color: true, category: false },
  MANAGER_ROLES: { color: false, category: false },
  COMPANY_RELATION_TYPES: { color: false, category: false },
};

export const COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;

/** `lifecycles` -> LIFECYCLES; an unknown list is a 404 naming the lists that exist. */
export function listOf(slug: string): PeopleSettingsList {
  const list = Object.prototype.hasOwnProperty.call(LIST_SLUGS, slug) ? LIST_SLUGS[slug] : null;
  if (!list) {
    throw new AppException(ErrorCode.NOT_FOUND, 'settings.list.unknown', {
      list: slug,
      lists: LIST_SLUG_NAMES.join(', '),
    });
  }
  return list;
}
