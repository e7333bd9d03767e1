import { AppException, ErrorCode } from '@crm/errors';

/** Which optional fields an entry of a list may carry (others are refused, not silently dropped). */
export interface ListFields {
  color: boolean;
  category: boolean;
}

/**
 * An entry every tenant has without creating it. It lives in code, not in the database, so its
 * text follows Accept-Language (an i18n key made of `key`) and a release can improve it for
 * everyone. Its id is a fixed UUID that never collides with generated ones. It is read-only.
 */
export interface SystemEntry {
  id: string;
  key: string;
  color?: string;
}

export type SystemEntries<L extends string> = Readonly<Partial<Record<L, readonly SystemEntry[]>>>;

/** The message keys of the settings domain (texts in the service's own `settings.json`). */
export interface SettingsMessageKeys {
  /** 404 of an unknown `{list}`: args `list`, `lists`. */
  unknownList: string;
  /** The resource named by the 404 of an unknown entry. */
  entryResource: string;
  /** 409 of S2/S3 when a text is taken: args `list`, `text`. */
  textTaken: string;
  /** 409 of a write to a system entry: args `text`, `list`. */
  systemReadOnly: string;
  /** 409 of a delete without force: arg `details` (the usage of each entry, `; `-separated). */
  inUse: string;
  /** 409 when an entry came into use between the usage check and the delete. */
  inUseNow: string;
  /** Prefix of the field rules of the domain: `<prefix>.notForList`, `.colorFormat`, `.textTaken`. */
  problems: string;
}

export const SETTINGS_MESSAGE_KEYS: SettingsMessageKeys = {
  unknownList: 'settings.list.unknown',
  entryResource: 'settings.resource.entry',
  textTaken: 'settings.entry.textTaken',
  systemReadOnly: 'settings.entry.systemReadOnly',
  inUse: 'settings.entry.inUse',
  inUseNow: 'settings.entry.inUseNow',
  problems: 'settings.problems',
};

/**
 * How resolveTags creates an entry named by a text no entry has yet. The defaults append it at
 * the end of the list and keep a category only on lists that have categories (trimmed).
 */
export interface NewTagOptions {
  /** `end` (default): after the list's last entry; `zero`: at position 0, the column's default. */
  position?: 'end' | 'zero';
  /** `allowed` (default): trimmed, and only where the list has categories; `asGiven`: as given. */
  category?: 'allowed' | 'asGiven';
}

/** What a service says about its settings lists; everything else is the engine's. */
export interface SettingsListsDefinition<L extends string> {
  /** The `{list}` path segment of the routes and the list (database enum value) it names. */
  slugs: Readonly<Record<string, L>>;
  fields: Readonly<Record<L, ListFields>>;
  systemEntries: SystemEntries<L>;
  i18n: {
    /** i18n key of a list's name, for messages ("life cycles"). */
    listName(list: L): string;
    /** i18n key of a system entry's text. */
    systemText(list: L, key: string): string;
    /** Message keys that differ from SETTINGS_MESSAGE_KEYS. */
    messages?: Partial<SettingsMessageKeys>;
  };
  /**
   * Prefix of the per-tenant advisory lock (`<prefix>:<tenantId>`) that serializes the settings
   * writes S2-S5 of one tenant's lists. Tags created by text do not take it: the table's unique
   * index on ("tenantId", "list", lower("text")) keeps texts unique ignoring case.
   */
  lockKeyPrefix: string;
  /**
   * Entry ids of S3-S5 compared ignoring case (default): `ABC…` names the entry `abc…`. With
   * false they are used as given, so an upper-case system id is not recognised as one.
   */
  caseInsensitiveIds?: boolean;
  newTags?: NewTagOptions;
}

/** A service's settings lists, ready to use: the definition and its lookups. */
export interface SettingsCatalog<L extends string> {
  readonly definition: SettingsListsDefinition<L>;
  readonly messages: SettingsMessageKeys;
  /** The slugs, in definition order (the 404 of an unknown list names them). */
  readonly slugNames: string[];
  /** `lifecycles` -> LIFECYCLES; an unknown slug is a 404 naming the lists that exist. */
  listOf(slug: string): L;
  fieldsOf(list: L): ListFields;
  systemEntries(list: L): readonly SystemEntry[];
  systemEntry(list: L, id: string): SystemEntry | undefined;
  /** The list a system entry id belongs to, if it is one. */
  systemEntryList(id: string): { list: L; entry: SystemEntry } | undefined;
  /** The ids of S3-S5 as the engine compares them (see caseInsensitiveIds). */
  entryId(id: string): string;
}

function findSystemEntry<L extends string>(
  entries: SystemEntries<L>,
  list: L,
  id: string,
): SystemEntry | undefined {
  return entries[list]?.find((e) => e.id === id);
}

function findSystemEntryList<L extends string>(
  entries: SystemEntries<L>,
  id: string,
): { list: L; entry: SystemEntry } | undefined {
  for (const [list, items] of Object.entries(entries) as [L, readonly SystemEntry[]][]) {
    const entry = items.find((e) => e.id === id);
    if (entry) return { list, entry };
  }
  return undefined;
}

/** Checks a definition once, at start-up: duplicate system ids would make lookups ambiguous. */
function assertValid<L extends string>(def: SettingsListsDefinition<L>): void {
  const ids = Object.values<readonly SystemEntry[] | undefined>(def.systemEntries).flatMap(
    (entries) => (entries ?? []).map((e) => e.id),
  );
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length) throw new Error(`settings lists: system entry ids used twice: ${twice}`);
  for (const list of Object.values(def.slugs))
    if (!def.fields[list]) throw new Error(`settings lists: no fields for the list ${list}`);
}

export function defineSettingsLists<L extends string>(
  definition: SettingsListsDefinition<L>,
): SettingsCatalog<L> {
  assertValid(definition);
  const messages = { ...SETTINGS_MESSAGE_KEYS, ...definition.i18n.messages };
  const slugNames = Object.keys(definition.slugs);
  const caseInsensitive = definition.caseInsensitiveIds ?? true;
  return Object.freeze({
    definition,
    messages,
    slugNames,
    listOf(slug: string): L {
      const list = Object.prototype.hasOwnProperty.call(definition.slugs, slug)
        ? definition.slugs[slug]
        : null;
      if (!list) {
        throw new AppException(ErrorCode.NOT_FOUND, messages.unknownList, {
          list: slug,
          lists: slugNames.join(', '),
        });
      }
      return list;
    },
    fieldsOf: (list: L) => definition.fields[list],
    systemEntries: (list: L) => definition.systemEntries[list] ?? [],
    systemEntry: (list: L, id: string) => findSystemEntry(definition.systemEntries, list, id),
    systemEntryList: (id: string) => findSystemEntryList(definition.systemEntries, id),
    entryId: (id: string) => (caseInsensitive ? id.toLowerCase() : id),
  });
}
