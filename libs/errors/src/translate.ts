import { I18nService } from 'nestjs-i18n';
import type { FieldError } from '@crm/envelope';
import type { Language } from '@crm/i18n';
import type { AppException, MessageArgs } from './app.exception';

export interface TranslatedError {
  message: string;
  errors: FieldError[];
}

function text(i18n: I18nService, key: string, lang: Language, args: MessageArgs): string | null {
  const out = i18n.t(key, { lang, args, defaultValue: '' }) as unknown;
  return typeof out === 'string' && out !== '' && out !== key ? out : null;
}

/**
 * A message with plural forms (`{ "one": ..., "other": ... }`) is chosen by `count`. The size
 * rules (maxLength, arrayMinSize, ...) carry their number as `constraint1` (the decorator's
 * argument): it is their count, so "at least 1 element" reads right in every language.
 */
function pluralCount(args: MessageArgs | undefined): MessageArgs {
  const n = args?.constraint1;
  if (args?.count !== undefined || n === undefined || n === null || n === '') return { ...args };
  return Number.isFinite(Number(n)) ? { ...args, count: Number(n) } : { ...args };
}

/** Turns an AppException into words in the caller's language. */
export function translateError(
  i18n: I18nService,
  err: AppException,
  lang: Language,
): TranslatedError {
  const message = text(i18n, err.messageKey, lang, err.args) ?? err.messageKey;
  const errors = err.problems.map((p) => {
    const args = { field: p.field, ...pluralCount(p.args) };
    const msg =
      text(i18n, p.messageKey ?? `validation.${p.rule}`, lang, args) ??
      p.fallback ??
      text(i18n, 'validation.unknown', lang, args) ??
      `${p.field} is invalid`;
    return { field: p.field, rule: p.rule, message: msg };
  });
  return { message, errors };
}
