import { I18nService } from 'nestjs-i18n';
import type { MessageArgs } from '@crm/errors';
import { SUPPORTED_LANGUAGES, type Language } from '@crm/i18n';
import type { SettingsCatalog } from './definition';
import { SettingsDb, SettingsEntryData, SettingsEntryRepository, SettingsStore } from './store';

/** What the lookup, the reads and the writes of a service's settings lists share. */
export abstract class SettingsBase<L extends string, Db extends SettingsDb> {
  protected readonly repo: SettingsEntryRepository<L, Db>;
  private readonly knownSystemTexts = new Map<string, string>();

  constructor(
    store: SettingsStore<L, Db>,
    protected readonly lists: SettingsCatalog<L>,
    protected readonly i18n: I18nService,
  ) {
    this.repo = new SettingsEntryRepository(store, lists.definition.lockKeyPrefix);
  }

  /** Words of the settings domain in the caller's language. */
  protected t(key: string, lang: Language, args: MessageArgs = {}): string {
    return this.i18n.t(key, { lang, args }) as string;
  }

  /** The translated name of a list ("life cycles"), for messages. */
  protected listName(list: L, lang: Language): string {
    return this.t(this.lists.definition.i18n.listName(list), lang);
  }

  /**
   * A system entry's text. Remembered per list, key and language: the catalogues do not change
   * while the process runs, and a page of 50 people asks for the texts of their lifecycles,
   * address types and relation types on every request (i18n.t costs tens of µs a call).
   */
  protected systemText(list: L, key: string, lang: Language): string {
    const memo = `${list}\u0000${key}\u0000${lang}`;
    let text = this.knownSystemTexts.get(memo);
    if (text === undefined) {
      text = this.t(this.lists.definition.i18n.systemText(list, key), lang);
      this.knownSystemTexts.set(memo, text);
    }
    return text;
  }

  /** The system entries of a list, translated, in their fixed order. */
  systemViews(list: L, lang: Language): SettingsEntryData[] {
    return this.lists.systemEntries(list).map((e) => ({
      id: e.id,
      text: this.systemText(list, e.key, lang),
      color: e.color ?? null,
      category: null,
      position: null,
      isSystem: true,
    }));
  }

  /** Every text a system entry of the list has in any language (tenant texts must differ). */
  systemTexts(list: L): { text: string; id: string }[] {
    return SUPPORTED_LANGUAGES.flatMap((lang) =>
      this.systemViews(list, lang).map((e) => ({ text: e.text, id: e.id })),
    );
  }
}
