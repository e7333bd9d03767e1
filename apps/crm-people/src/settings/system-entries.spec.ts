import people from '../i18n/en/people.json';
import peopleDe from '../i18n/de/people.json';
import settings from '../i18n/en/settings.json';
import settingsDe from '../i18n/de/settings.json';
import { LIST_SLUGS, listOf, systemEntryList } from './settings-lists';
import { SYSTEM_ENTRIES, systemTextKey } from './system-entries';

const lookup = (catalogue: Record<string, unknown>, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalogue);

describe('system entries', () => {
  const all = Object.values(SYSTEM_ENTRIES).flat();

  it('have unique UUID v4 ids (the NATS contracts validate manager role ids as UUIDs)', () => {
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    for (const e of all)
      expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('have a text in English and German', () => {
    for (const [list, entries] of Object.entries(SYSTEM_ENTRIES)) {
      for (const e of entries!) {
        const key = systemTextKey(list as keyof typeof SYSTEM_ENTRIES, e.key);
        const [ns, ...rest] = key.split('.');
        const [cEn, cDe] = ns === 'people' ? [people, peopleDe] : [settings, settingsDe];
        expect(lookup(cEn, rest.join('.'))).toEqual(expect.any(String));
        expect(lookup(cDe, rest.join('.'))).toEqual(expect.any(String));
      }
    }
  });

  it('are found by id with their list', () => {
    expect(systemEntryList('00000000-0000-4000-a000-000000000402')).toMatchObject({
      list: 'MANAGER_ROLES',
      entry: { key: 'keyAccountManager' },
    });
    expect(systemEntryList('00000000-0000-4000-a000-000000000999')).toBeUndefined();
  });

  it('every list has a name in English and German', () => {
    for (const slug of Object.keys(LIST_SLUGS)) {
      const list = listOf(slug);
      const ns = {
        PROPERTY_ENTRIES: 'propertyEntries',
        PERSONALITY_TAGS: 'personalityTags',
        ORGA_TAGS: 'orgaTags',
        ADDRESS_TYPES: 'addressTypes',
        LIFECYCLES: 'lifecycles',
        MANAGER_ROLES: 'managerRoles',
        COMPANY_RELATION_TYPES: 'companyRelationTypes',
      }[list];
      expect((people.lists as Record<string, string>)[ns]).toEqual(expect.any(String));
      expect((peopleDe.lists as Record<string, string>)[ns]).toEqual(expect.any(String));
    }
  });

  it('an unknown list slug is a 404', () => {
    expect(() => listOf('toString')).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => listOf('LIFECYCLES')).toThrow(expect.objectContaining({ status: 404 }));
  });
});
