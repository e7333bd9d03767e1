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

/** Turns an AppException into words in the caller's language. */
export function translateError(
  i18n: I18nService,
  err: AppException,
  lang: Language,
): TranslatedError {
  const message = text(i18n, err.messageKey, lang, err.args) ?? err.messageKey;
  const errors = err.problems.map((p) => {
    const args = { field: p.field, ...p.args };
    const msg =
      text(i18n, p.messageKey ?? `validation.${p.rule}`, lang, args) ??
      p.fallback ??
      text(i18n, 'validation.unknown', lang, args) ??
      `${p.field} is invalid`;
    return { field: p.field, rule: p.rule, message: msg };
  });
  return { message, errors };
}
