import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
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

/** CSV (UTF-8 with BOM, so spreadsheet programs read umlauts), header row first. */
export function csvStream(rows: AsyncIterable<ExportCells>): Readable {
  const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS], bom: true });
  void (async () => {
    try {
      for await (const r of rows) {
        const defused = Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, k === 'code' ? v : defuse(v)]),
        );
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

/** XLSX written row by row (exceljs' streaming WorkbookWriter): no workbook in memory. */
export function xlsxStream(rows: AsyncIterable<ExportCells>, sheetName: string): Readable {
  const out = new PassThrough();
  void (async () => {
    try {
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({
        stream: out,
        useStyles: false,
        useSharedStrings: false,
      });
      const sheet = book.addWorksheet(sheetName.slice(0, 31) || 'Tickets');
      sheet.columns = EXPORT_COLUMNS.map((key) => ({ header: key, key, width: 20 }));
      for await (const r of rows) {
        sheet.addRow(r).commit();
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
