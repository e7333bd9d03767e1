/** Locales whose medium date and short time read as people of a language expect them. */
const LOCALES: Record<string, string> = { de: 'de-DE', en: 'en-US' };

/** One formatter per language and zone: building one costs about as much as a hundred uses. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(lang: string, timeZone: string): Intl.DateTimeFormat {
  const key = `${lang}|${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    const locale = LOCALES[lang] ?? LOCALES.en;
    try {
      format = new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone,
      });
    } catch {
      // not a zone Intl knows (a copy written before zones were checked): UTC rather than nothing
      format = new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'UTC',
      });
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * A moment as a person at the event reads it: in the event's zone and the caller's language,
 * e.g. "27.11.2026, 14:01" (de) or "Nov 27, 2026, 2:01 PM" (en) for 13:01Z in Europe/Berlin.
 * No zone known: UTC.
 */
export function localTime(at: Date, timeZone: string | null | undefined, lang: string): string {
  return formatOf(lang, timeZone || 'UTC').format(at);
}
