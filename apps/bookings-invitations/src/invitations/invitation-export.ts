import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { PassThrough, Readable } from 'node:stream';
import type { ExportLocale } from '../common/export-locale';
import type { InvitationRow, InvitationsRepository } from './invitations.repository';

/** Rows per keyset page of an export. */
export const EXPORT_PAGE = 1000;

export const EXPORT_COLUMNS = [
  'id',
  'email',
  'firstname',
  'lastname',
  'language',
  'status',
  'personId',
  'bookingId',
  'sentAt',
  'respondedAt',
  'dateCreated',
] as const;

const cells = (r: InvitationRow) =>
  EXPORT_COLUMNS.map((c) => {
    const v = r[c];
    return v instanceof Date ? v.toISOString() : (v ?? '');
  });

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: names and
 * addresses come from imports) gets a leading apostrophe in the CSV. XLSX cells are typed text.
 */
export const csvSafe = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/** Every invitation of the event, page after page by key, never the whole list in memory. */
async function* allRows(
  repo: InvitationsRepository,
  tenantId: string,
  eventId: string,
): AsyncGenerator<InvitationRow> {
  let after: { dateCreated: Date; id: string } | null = null;
  for (;;) {
    const page = await repo.exportPage(tenantId, eventId, after, EXPORT_PAGE);
    yield* page;
    if (page.length < EXPORT_PAGE) return;
    const last = page[page.length - 1];
    after = { dateCreated: last.dateCreated, id: last.id };
  }
}

/** What an export is written as: the caller's locale and the header names in its language. */
export interface ExportStyle {
  locale: ExportLocale;
  /** In EXPORT_COLUMNS' order. */
  headers: readonly string[];
}

/**
 * IN15 as CSV (UTF-8 with BOM, so Excel reads the umlauts; `,`, or `;` for German), streamed.
 * The columns hold no decimal numbers.
 */
export function csvExport(
  repo: InvitationsRepository,
  tenantId: string,
  eventId: string,
  { locale, headers }: ExportStyle,
): Readable {
  const out = stringify({
    header: true,
    columns: EXPORT_COLUMNS.map((key, i) => ({ key, header: headers[i] })),
    delimiter: locale.delimiter,
    bom: true,
  });
  void (async () => {
    try {
      for await (const r of allRows(repo, tenantId, eventId)) {
        if (!out.write(cells(r).map(csvSafe))) await new Promise((ok) => out.once('drain', ok));
      }
      out.end();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}

/** IN15 as XLSX, written row by row by exceljs' streaming writer. */
export function xlsxExport(
  repo: InvitationsRepository,
  tenantId: string,
  eventId: string,
  { headers }: ExportStyle,
): Readable {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false });
  const sheet = book.addWorksheet('Invitations');
  sheet.columns = EXPORT_COLUMNS.map((c, i) => ({ header: headers[i], key: c }));
  void (async () => {
    try {
      for await (const r of allRows(repo, tenantId, eventId)) sheet.addRow(cells(r)).commit();
      sheet.commit();
      await book.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}
