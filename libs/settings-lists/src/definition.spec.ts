import { AppException } from '@crm/errors';
import { defineSettingsLists, SETTINGS_MESSAGE_KEYS, SettingsListsDefinition } from './definition';

type List = 'COLORS' | 'SIZES';
const id = (n: number) => `00000000-0000-4000-c000-${String(n).padStart(12, '0')}`;

const definition = (
  over: Partial<SettingsListsDefinition<List>> = {},
): SettingsListsDefinition<List> => ({
  slugs: { colors: 'COLORS', sizes: 'SIZES' },
  fields: { COLORS: { color: true, category: false }, SIZES: { color: false, category: true } },
  systemEntries: {
    COLORS: [
      { id: id(1), key: 'red', color: '#FF0000' },
      { id: id(2), key: 'blue' },
    ],
    SIZES: [{ id: id(3), key: 'small' }],
  },
  i18n: {
    listName: (list) => `test.lists.${list}`,
    systemText: (list, key) => `test.system.${list}.${key}`,
  },
  lockKeyPrefix: 'test-settings',
  ...over,
});

describe('defineSettingsLists', () => {
  const lists = defineSettingsLists(definition());

  it('maps a slug to its list; an unknown slug is a 404 naming the lists', () => {
    expect(lists.listOf('sizes')).toBe('SIZES');
    expect(lists.slugNames).toEqual(['colors', 'sizes']);
    for (const slug of ['COLORS', 'toString', 'hasOwnProperty', '']) {
      let thrown: unknown;
      try {
        lists.listOf(slug);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(AppException);
      expect(thrown).toMatchObject({
        status: 404,
        messageKey: 'settings.list.unknown',
        args: { list: slug, lists: 'colors, sizes' },
      });
    }
  });

  it('finds system entries by list and id, and the list of an id', () => {
    expect(lists.systemEntry('COLORS', id(1))).toEqual({ id: id(1), key: 'red', color: '#FF0000' });
    expect(lists.systemEntry('SIZES', id(1))).toBeUndefined();
    expect(lists.systemEntries('SIZES').map((e) => e.key)).toEqual(['small']);
    expect(lists.systemEntryList(id(3))).toEqual({
      list: 'SIZES',
      entry: { id: id(3), key: 'small' },
    });
    expect(lists.systemEntryList(id(9))).toBeUndefined();
  });

  it('gives a list without system entries none', () => {
    const bare = defineSettingsLists(definition({ systemEntries: { COLORS: [] } }));
    expect(bare.systemEntries('SIZES')).toEqual([]);
    expect(bare.systemEntry('SIZES', id(3))).toBeUndefined();
  });

  it('compares entry ids ignoring case unless told otherwise', () => {
    expect(lists.entryId('ABCDEF00-0000-4000-C000-000000000001')).toBe(
      'abcdef00-0000-4000-c000-000000000001',
    );
    const asGiven = defineSettingsLists(definition({ caseInsensitiveIds: false }));
    expect(asGiven.entryId('ABCDEF00-0000-4000-C000-000000000001')).toBe(
      'ABCDEF00-0000-4000-C000-000000000001',
    );
  });

  it('uses the default message keys, with the ones a service overrides', () => {
    expect(lists.messages).toEqual(SETTINGS_MESSAGE_KEYS);
    const own = defineSettingsLists(
      definition({
        i18n: { ...definition().i18n, messages: { unknownList: 'own.unknown' } },
      }),
    );
    expect(own.messages).toEqual({ ...SETTINGS_MESSAGE_KEYS, unknownList: 'own.unknown' });
    expect(() => own.listOf('nope')).toThrow(
      expect.objectContaining({ messageKey: 'own.unknown' }),
    );
  });

  it('refuses a definition with a system id used twice or a list without fields', () => {
    expect(() =>
      defineSettingsLists(
        definition({
          systemEntries: { COLORS: [{ id: id(1), key: 'red' }], SIZES: [{ id: id(1), key: 's' }] },
        }),
      ),
    ).toThrow(/used twice/);
    expect(() =>
      defineSettingsLists(
        definition({
          fields: {
            COLORS: { color: true, category: false },
          } as SettingsListsDefinition<List>['fields'],
        }),
      ),
    ).toThrow(/no fields for the list SIZES/);
  });
});
