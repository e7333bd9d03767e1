import type { I18nService } from 'nestjs-i18n';

/**
 * How the spreadsheet exports (IN15, ET11) write for the caller's language (Accept-Language).
 * German spreadsheet programs split CSV on `;` (the comma is their decimal mark) and read
 * `49,00` as a number; English ones split on `,` and read `49.00`. Header names come from the
 * domain's catalogue (`<namespace>.export.columns.<column>`; the English ones are the column
 * keys). Dates stay ISO 8601 in UTC in both: unambiguous, and sortable as text.
 */
export interface ExportLocale {
  language: 'en' | 'de';
  /** The CSV separator. */
  delimiter: ',' | ';';
  /** A decimal number as text (`49.00`) the way the language writes it (`49,00` in German). */
  decimal(value: string): string;
}

export function exportLocale(language: string | null | undefined): ExportLocale {
  if (language === 'de') {
    return { language: 'de', delimiter: ';', decimal: (v) => v.replace('.', ',') };
  }
  return { language: 'en', delimiter: ',', decimal: (v) => v };
}

/** The header row of an export in the locale's language. */
export function exportHeaders(
  i18n: I18nService,
  namespace: string,
  columns: readonly string[],
  locale: ExportLocale,
): string[] {
  return columns.map(
    (c) => i18n.t(`${namespace}.export.columns.${c}`, { lang: locale.language }) as string,
  );
}
