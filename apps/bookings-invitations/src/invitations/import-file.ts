import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { isEmail } from 'class-validator';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import { SUPPORTED_LANGUAGES } from '@crm/i18n';

/** Largest import file (IN13, IN14): larger is a 413. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** Most rows one file may hold (10,000 must work; a margin above). */
export const IMPORT_MAX_ROWS = 50_000;

export const IMPORT_FIELDS = ['email', 'firstname', 'lastname', 'language', 'personId'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Header names (English and German) as normalised by `headerKey`, and the field each means. */
const HEADER_NAMES: Record<string, ImportField> = {
  email: 'email',
  mail: 'email',
  emailaddress: 'email',
  emailadresse: 'email',
  firstname: 'firstname',
  givenname: 'firstname',
  vorname: 'firstname',
  lastname: 'lastname',
  surname: 'lastname',
  familyname: 'lastname',
  nachname: 'lastname',
  familienname: 'lastname',
  language: 'language',
  lang: 'language',
  sprache: 'language',
  personid: 'personId',
  person: 'personId',
  personenid: 'personId',
};

/** Case, spaces, hyphens, underscores and dots ignored: `E-Mail` = `email`, `Person ID` = `personid`. */
export const headerKey = (h: string) => h.toLowerCase().replace(/[\s\-_.]+/g, '');

/** The field a header maps to (null: ignored). */
export const fieldOfHeader = (h: string): ImportField | null => HEADER_NAMES[headerKey(h)] ?? null;

/** One row of a file as mapped: its number in the file (header = 1) and the mapped cells. */
export interface ImportRow {
  row: number;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  language: string | null;
  personId: string | null;
}

export interface ParsedImport {
  columns: { header: string; field: ImportField | null }[];
  rows: ImportRow[];
}

export interface RowProblem {
  field: string;
  rule: string;
  args?: Record<string, string | number>;
}

const unreadable = (reason: string) =>
  new AppException(ErrorCode.BAD_REQUEST, 'invitations.fileUnreadable', { reason });

const isZip = (b: Buffer) => b.length >= 4 && b.readUInt32LE(0) === 0x04034b50;

/** The kind of the file from its bytes (and, for text, its name and type): else a 415. */
export function fileKind(buffer: Buffer, name: string, mimetype: string): 'csv' | 'xlsx' {
  if (isZip(buffer)) return 'xlsx';
  const textual =
    /\.(csv|txt)$/i.test(name) ||
    /^text\//i.test(mimetype) ||
    /^application\/(csv|vnd\.ms-excel|octet-stream)$/i.test(mimetype);
  // NUL bytes: a binary file (an image, a PDF, an old .xls) whatever its name says
  if (textual && !buffer.subarray(0, 8192).includes(0)) return 'csv';
  throw new AppException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'invitations.fileType', {
    type: mimetype || name,
  });
}

/** `;` or `,`, whichever the header line has more of (German Excel writes `;`). */
function delimiterOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => first.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

function csvTable(buffer: Buffer): string[][] {
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  try {
    return parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      bom: true,
    }) as string[][];
  } catch (err) {
    throw unreadable((err as Error).message);
  }
}

const cellText = (v: ExcelJS.CellValue): string => {
  if (v == null) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    if ('text' in v && v.text != null) return String(v.text);
    if ('result' in v && v.result != null) return String(v.result);
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('hyperlink' in v) return String(v.hyperlink).replace(/^mailto:/i, '');
    return '';
  }
  return String(v);
};

async function xlsxTable(buffer: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch (err) {
    throw unreadable((err as Error).message);
  }
  const sheet = book.worksheets[0];
  if (!sheet) return [];
  const out: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const values = row.values as ExcelJS.CellValue[]; // 1-based
    const cells: string[] = [];
    for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]).trim());
    if (cells.some((c) => c !== '')) out.push(cells);
  });
  return out;
}

/**
 * Reads a CSV (`;` or `,`, UTF-8 with or without BOM) or XLSX (first sheet) file: the first row
 * is the header, mapped by name; empty rows are skipped. An unreadable file is a 400, another type
 * a 415; a file without an email or personId column, or without rows, a 400 naming `file`.
 */
export async function parseImportFile(
  buffer: Buffer,
  name: string,
  mimetype: string,
): Promise<ParsedImport> {
  const table =
    fileKind(buffer, name, mimetype) === 'xlsx' ? await xlsxTable(buffer) : csvTable(buffer);
  const [header = [], ...body] = table;
  const columns = header.map((h) => ({ header: h, field: fieldOfHeader(h) }));
  const problems: RowProblem[] = [];
  const index = new Map<ImportField, number>();
  columns.forEach((c, i) => c.field && !index.has(c.field) && index.set(c.field, i));
  if (!index.has('email') && !index.has('personId')) {
    problems.push({ field: 'file', rule: 'noEmailColumn' });
  }
  if (!body.length) problems.push({ field: 'file', rule: 'emptyFile' });
  if (body.length > IMPORT_MAX_ROWS) {
    problems.push({ field: 'file', rule: 'tooManyRows', args: { max: IMPORT_MAX_ROWS } });
  }
  if (problems.length) {
    throw AppException.validation(
      problems.map((p) => ({ ...p, messageKey: `invitations.problems.${p.rule}` })),
    );
  }
  const cell = (cells: string[], f: ImportField) => {
    const i = index.get(f);
    const v = i === undefined ? '' : (cells[i] ?? '').trim();
    return v === '' ? null : v;
  };
  const rows = body.map((cells, i) => ({
    row: i + 2,
    email: cell(cells, 'email'),
    firstname: cell(cells, 'firstname'),
    lastname: cell(cells, 'lastname'),
    language: cell(cells, 'language')?.toLowerCase() ?? null,
    personId: cell(cells, 'personId')?.toLowerCase() ?? null,
  }));
  return { columns, rows };
}

/**
 * The checks of one row that need nothing but the row: an address or a person id, a valid
 * address, a UUID, a known language, lengths. (Whether the person exists is asked of crm-people.)
 */
export function rowProblems(r: ImportRow): RowProblem[] {
  const out: RowProblem[] = [];
  if (!r.email && !r.personId) out.push({ field: 'email', rule: 'required' });
  if (r.email && (r.email.length > 320 || !isEmail(r.email)))
    out.push({ field: 'email', rule: 'email' });
  if (r.personId && !isUuid(r.personId)) out.push({ field: 'personId', rule: 'uuid' });
  if (r.language && !(SUPPORTED_LANGUAGES as readonly string[]).includes(r.language)) {
    out.push({ field: 'language', rule: 'language' });
  }
  for (const f of ['firstname', 'lastname'] as const) {
    if ((r[f]?.length ?? 0) > 200) out.push({ field: f, rule: 'tooLong', args: { max: 200 } });
  }
  return out;
}
