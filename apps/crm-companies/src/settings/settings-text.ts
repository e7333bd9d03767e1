import { I18nService } from 'nestjs-i18n';
import type { FieldProblem, MessageArgs } from '@crm/errors';
import type { Language } from '@crm/i18n';
import type { CompanySettingsList } from '../generated/prisma/client';
import { LIST_I18N_NAMESPACE } from './system-entries';

/** Words of the settings domain in the caller's language. */
export function t(i18n: I18nService, key: string, lang: Language, args: MessageArgs = {}): string {
  return i18n.t(key, { lang, args }) as string;
}

/** The translated name of a list ("life cycles"), for messages. */
export function listName(i18n: I18nService, list: CompanySettingsList, lang: Language): string {
  return t(i18n, `settings.lists.${LIST_I18N_NAMESPACE[list]}`, lang);
}

/**
 * A rule of this domain broken by one field: the shared catalogue has no text for it, so the
 * message key points at settings.json (`settings.problems.<rule>`), translated at the edge.
 */
export function settingsProblem(field: string, rule: string, args: MessageArgs = {}): FieldProblem {
  return { field, rule, args, messageKey: `settings.problems.${rule}` };
}
