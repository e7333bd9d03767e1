import { I18nService } from 'nestjs-i18n';
import type { FieldProblem, MessageArgs } from '@crm/errors';
import type { Language } from '@crm/i18n';

/** Words of the settings domain in the caller's language. */
export function t(i18n: I18nService, key: string, lang: Language, args: MessageArgs = {}): string {
  return i18n.t(key, { lang, args }) as string;
}

/**
 * A domain rule broken by one field. The shared catalogue has no text for our own rules, so the
 * message is translated here (`<ns>.problems.<rule>`) and travels as the problem's fallback.
 */
export function domainProblem(
  i18n: I18nService,
  ns: 'settings' | 'relations',
  lang: Language,
  field: string,
  rule: string,
  args: MessageArgs = {},
): FieldProblem {
  return {
    field,
    rule,
    args,
    fallback: t(i18n, `${ns}.problems.${rule}`, lang, { field, ...args }),
  };
}
