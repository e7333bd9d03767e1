import settings from '../i18n/en/settings.json';
import settingsDe from '../i18n/de/settings.json';
import type { CompanySettingsList } from '../generated/prisma/client';
import { LIST_FIELDS, LIST_SLUGS, listOf, systemEntry, systemEntryList } from './settings-lists';
import { USAGE_KIND } from './settings.repository';
import { LIST_I18N_NAMESPACE, SYSTEM_ENTRIES, systemTextKey } from './system-entries';

const lookup = (catalogue: Record<string, unknown>, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalogue);

const ALL_LISTS = Object.values(LIST_SLUGS);

describe('company settings lists', () => {
  it('are the nine lists of the contract, each with its rules', () => {
    expect(Object.keys(LIST_SLUGS).sort()).toEqual(
      [
        'tags',
        'employee-counts',
        'customer-counts',
        'legal-forms',
        'reference-number-types',
        'industry-sectors',
        'relation-types',
        'lifecycles',
        'email-types',
      ].sort(),
    );
    for (const list of ALL_LISTS) {
      expect(LIST_FIELDS[list]).toBeDefined();
      expect(USAGE_KIND[list]).toBeDefined();
    }
    const withCategory = ALL_LISTS.filter((l) => LIST_FIELDS[l].category);
    expect(withCategory).toEqual(['INDUSTRY_SECTORS']);
  });

  it('every list has a name in English and German', () => {
    for (const list of ALL_LISTS) {
      const ns = LIST_I18N_NAMESPACE[list];
      expect(lookup(settings, `lists.${ns}`)).toEqual(expect.any(String));
      expect(lookup(settingsDe, `lists.${ns}`)).toEqual(expect.any(String));
    }
  });

  it('an unknown list slug is a 404 naming the lists', () => {
    expect(() => listOf('toString')).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => listOf('LIFECYCLES')).toThrow(
      expect.objectContaining({
        status: 404,
        args: expect.objectContaining({ lists: expect.stringContaining('email-types') }),
      }),
    );
    expect(listOf('legal-forms')).toBe('LEGAL_FORMS');
  });
});

describe('system entries', () => {
  const all = Object.values(SYSTEM_ENTRIES).flat();

  it('have unique UUID v4 ids of their own range', () => {
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    for (const e of all) expect(e.id).toMatch(/^00000000-0000-4000-b000-[0-9]{12}$/);
  });

  it('have a text in English and German', () => {
    for (const [list, entries] of Object.entries(SYSTEM_ENTRIES)) {
      for (const e of entries!) {
        const key = systemTextKey(list as CompanySettingsList, e.key);
        const [ns, ...rest] = key.split('.');
        expect(ns).toBe('settings');
        expect(lookup(settings, rest.join('.'))).toEqual(expect.any(String));
        expect(lookup(settingsDe, rest.join('.'))).toEqual(expect.any(String));
      }
    }
  });

  it('carry a colour only where the list has colours', () => {
    for (const [list, entries] of Object.entries(SYSTEM_ENTRIES))
      for (const e of entries!)
        if (e.color) expect(LIST_FIELDS[list as CompanySettingsList].color).toBe(true);
  });

  it('are found by id with their list, and only in their list', () => {
    expect(systemEntryList('00000000-0000-4000-b000-000000000502')).toMatchObject({
      list: 'REFERENCE_NUMBER_TYPES',
      entry: { key: 'duns' },
    });
    expect(systemEntryList('00000000-0000-4000-b000-000000000999')).toBeUndefined();
    expect(systemEntry('LIFECYCLES', '00000000-0000-4000-b000-000000000101')?.key).toBe('lead');
    expect(systemEntry('TAGS', '00000000-0000-4000-b000-000000000101')).toBeUndefined();
  });
});
