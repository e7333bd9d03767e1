import { defineSettingsLists, type ListFields, type SystemEntries } from '@crm/settings-lists';
import type { EventSettingsList } from '../generated/prisma/client';

/**
 * The `{list}` path segment of /event-settings/{list} and the table's list it names: the tenant
 * lists of the settings engine. The vendor lists (online-meeting-platforms, tax-rates) and
 * contact-person-templates are served beside them (VENDOR_LIST_SLUGS, TEMPLATES_SLUG).
 */
export const LIST_SLUGS: Record<string, EventSettingsList> = {
  'booking-form-field-sets': 'BOOKING_FORM_FIELD_SETS',
  'cancellation-conditions': 'CANCELLATION_CONDITIONS',
  'contributor-roles': 'CONTRIBUTOR_ROLES',
  'event-categories': 'EVENT_CATEGORIES',
  'orga-tags': 'ORGA_TAGS',
  'portal-tags': 'PORTAL_TAGS',
};

export const VENDOR_LIST_SLUGS = ['online-meeting-platforms', 'tax-rates'] as const;
export type VendorListSlug = (typeof VENDOR_LIST_SLUGS)[number];
export const isVendorListSlug = (slug: string): slug is VendorListSlug =>
  (VENDOR_LIST_SLUGS as readonly string[]).includes(slug);

export const TEMPLATES_SLUG = 'contact-person-templates';

/** The ad hoc list: entries created by text from events (tagIdsByText), not by ES5 create. */
export const AD_HOC_SLUG = 'orga-tags';

/** Lists whose entries carry structured `data` (EventSettingsEntry.data), required on create. */
export const DATA_LISTS = ['BOOKING_FORM_FIELD_SETS', 'CANCELLATION_CONDITIONS'] as const;
export type DataList = (typeof DATA_LISTS)[number];
export const isDataList = (list: EventSettingsList): list is DataList =>
  (DATA_LISTS as readonly string[]).includes(list);

/** Which optional fields an entry of a list may carry (others are refused, not silently dropped). */
export const LIST_FIELDS: Record<EventSettingsList, ListFields> = {
  BOOKING_FORM_FIELD_SETS: { color: false, category: false },
  CANCELLATION_CONDITIONS: { color: false, category: false },
  CONTRIBUTOR_ROLES: { color: false, category: false },
  EVENT_CATEGORIES: { color: true, category: false },
  ORGA_TAGS: { color: true, category: false },
  PORTAL_TAGS: { color: true, category: false },
};

const id = (n: number) => `00000000-0000-4000-9e00-${String(n).padStart(12, '0')}`;

/**
 * Entries every tenant has (see SystemEntry in @crm/settings-lists): read-only, texts translated
 * (settings.systemEntries.<list>.<key>), fixed ids of a range of their own.
 */
export const SYSTEM_ENTRIES: SystemEntries<EventSettingsList> = {
  CONTRIBUTOR_ROLES: [
    { id: id(101), key: 'speaker' },
    { id: id(102), key: 'moderator' },
    { id: id(103), key: 'trainer' },
    { id: id(104), key: 'organizer' },
  ],
};

/** The i18n namespace of each list (settings.lists.<ns>, settings.systemEntries.<ns>.<key>). */
export const LIST_I18N_NAMESPACE: Record<EventSettingsList, string> = {
  BOOKING_FORM_FIELD_SETS: 'bookingFormFieldSets',
  CANCELLATION_CONDITIONS: 'cancellationConditions',
  CONTRIBUTOR_ROLES: 'contributorRoles',
  EVENT_CATEGORIES: 'eventCategories',
  ORGA_TAGS: 'orgaTags',
  PORTAL_TAGS: 'portalTags',
};

/** The event settings lists as the engine (@crm/settings-lists) runs them. */
export const EVENT_SETTINGS = defineSettingsLists<EventSettingsList>({
  slugs: LIST_SLUGS,
  fields: LIST_FIELDS,
  systemEntries: SYSTEM_ENTRIES,
  i18n: {
    listName: (list) => `settings.lists.${LIST_I18N_NAMESPACE[list]}`,
    systemText: (list, key) => `settings.systemEntries.${LIST_I18N_NAMESPACE[list]}.${key}`,
  },
  lockKeyPrefix: 'event-settings',
});

/** Every `{list}` of ES4, in the order API.md names them (the 404 of an unknown list names them). */
export const ALL_LIST_SLUGS = [
  ...EVENT_SETTINGS.slugNames,
  TEMPLATES_SLUG,
  ...VENDOR_LIST_SLUGS,
].sort();
