import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import type { ExportLocale } from '../common/export-locale';
import type { ExportRow } from './event-tickets.repository';

/** Rows read per keyset page: every row arrives, memory stays flat. */
export const EXPORT_PAGE = 1000;

export const EXPORT_COLUMNS = [
  'ticketId',
  'bookingId',
  'ticketTypeId',
  'ticketType',
  'status',
  'firstname',
  'lastname',
  'email',
  'priceGross',
  'currency',
  'bookerFirstname',
  'bookerLastname',
  'bookerEmail',
  'checkedInAt',
  'checkInLocation',
  'revokedAt',
  'dateCreated',
  'code',
] as const;

export type ExportCells = Record<(typeof EXPORT_COLUMNS)[number], string>;

/** Columns holding a decimal number (as text, `49.00`): written the locale's way, numbers in XLSX. */
export const DECIMAL_COLUMNS: ReadonlySet<string> = new Set(['priceGross']);

export function cellsOf(r: ExportRow, code: string | null): ExportCells {
  return {
    ticketId: r.id,
    bookingId: r.bookingId,
    ticketTypeId: r.ticketTypeId,
    ticketType: r.ticketTypeName,
    status: r.status,
    firstname: r.participantFirstname,
    lastname: r.participantLastname,
    email: r.participantEmail ?? '',
    priceGross: r.priceGross,
    currency: r.currency,
    bookerFirstname: r.bookerFirstname,
    bookerLastname: r.bookerLastname,
    bookerEmail: r.bookerEmail,
    checkedInAt: r.checkedInAt?.toISOString() ?? '',
    checkInLocation: r.checkInLocation ?? '',
    revokedAt: r.revokedAt?.toISOString() ?? '',
    dateCreated: r.dateCreated.toISOString(),
    code: code ?? '',
  };
}

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading
 * apostrophe (OWASP CSV injection), so a participant named "=HYPERLINK(...)" stays text.
 */
export const defuse = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/**
 * CSV (UTF-8 with BOM, so spreadsheet programs read umlauts), header row first, in the locale:
 * its separator, decimal mark and header names (`headers`, in EXPORT_COLUMNS' order).
 */
export function csvStream(
  rows: AsyncIterable<ExportCells>,
  locale: ExportLocale,
  headers: readonly string[] = EXPORT_COLUMNS,
): Readable {
  const csv = stringify({
    header: true,
    columns: EXPORT_COLUMNS.map((key, i) => ({ key, header: headers[i] })),
    delimiter: locale.delimiter,
    bom: true,
  });
  const cell = (k: string, v: string) =>
    k === 'code' ? v : defuse(DECIMAL_COLUMNS.has(k) && v ? locale.decimal(v) : v);
  void (async () => {
    try {
      for await (const r of rows) {
        const defused = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(k, v)]));
        if (!csv.write(defused)) await Promise.race([once(csv, 'drain'), once(csv, 'close')]);
        if (csv.destroyed) return; // the client went away: stop reading pages
      }
      csv.end();
    } catch (err) {
      csv.destroy(err as Error);
    }
  })();
  return csv;
}

/**
 * XLSX written row by row (exceljs' streaming WorkbookWriter): no workbook in memory. Header
 * names in the caller's language; decimal columns are number cells (shown with two decimals),
 * which the spreadsheet program displays in its own locale.
 */
export function xlsxStream(
  rows: AsyncIterable<ExportCells>,
  sheetName: string,
  headers: readonly string[] = EXPORT_COLUMNS,
): Readable {
  const out = new PassThrough();
  void (async () => {
    try {
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({
        stream: out,
        useStyles: true, // the number format of the decimal columns
        useSharedStrings: false,
      });
      const sheet = book.addWorksheet(sheetName.slice(0, 31) || 'Tickets');
      sheet.columns = EXPORT_COLUMNS.map((key, i) => ({
        header: headers[i],
        key,
        width: 20,
        ...(DECIMAL_COLUMNS.has(key) ? { style: { numFmt: '0.00' } } : {}),
      }));
      for await (const r of rows) {
        sheet.addRow(numbersIn(r)).commit();
        // a slow client holds the export back instead of the rows piling up in memory
        if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
        if (out.destroyed) return; // the client went away: stop reading pages
      }
      sheet.commit();
      await book.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}

/** The row with its decimal columns as numbers (an empty cell stays empty). */
function numbersIn(r: ExportCells): Record<string, string | number> {
  const out: Record<string, string | number> = { ...r };
  for (const k of DECIMAL_COLUMNS) {
    const v = out[k] as string;
    if (v !== '' && Number.isFinite(Number(v))) out[k] = Number(v);
  }
  return out;
}
