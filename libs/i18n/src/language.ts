import Negotiator from 'negotiator';

export const SUPPORTED_LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

/** Picks the best supported language from an Accept-Language header (q-values honoured). */
export function resolveLanguage(acceptLanguage: string | undefined | null): Language {
  if (!acceptLanguage) return FALLBACK_LANGUAGE;
  const preferred = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages();
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if ((SUPPORTED_LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return FALLBACK_LANGUAGE;
}
