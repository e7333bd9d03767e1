import ExcelJS from 'exceljs';
import { AppException } from '@crm/errors';
import { fieldOfHeader, fileKind, parseImportFile, rowProblems } from './import-file';

describe('import file', () => {
  it('maps English and German headers, case, spaces, hyphens and underscores ignored', () => {
    expect(
      [
        'E-Mail',
        ' email ',
        'Vorname',
        'First Name',
        'NACHNAME',
        'last_name',
        'Sprache',
        'Person-ID',
        'person id',
        'Firma',
      ].map(fieldOfHeader),
    ).toEqual([
      'email',
      'email',
      'firstname',
      'firstname',
      'lastname',
      'lastname',
      'language',
      'personId',
      'personId',
      null,
    ]);
  });

  it('reads ;-separated CSV with a BOM and ,-separated without, skipping empty lines', async () => {
    const semi = await parseImportFile(
      Buffer.from('\uFEFFE-Mail;Vorname\r\na@x.de;Änne\r\n\r\n"b@x.de";"Bö; Björn"\r\n'),
      'g.csv',
      'text/csv',
    );
    expect(semi.rows).toEqual([
      {
        row: 2,
        email: 'a@x.de',
        firstname: 'Änne',
        lastname: null,
        language: null,
        personId: null,
      },
      {
        row: 3,
        email: 'b@x.de',
        firstname: 'Bö; Björn',
        lastname: null,
        language: null,
        personId: null,
      },
    ]);
    const comma = await parseImportFile(
      Buffer.from('email,language\nc@x.de,DE\n'),
      'g.txt',
      'text/plain',
    );
    expect(comma.rows[0]).toMatchObject({ email: 'c@x.de', language: 'de' });
  });

  it('reads the first sheet of an XLSX file, hyperlinks and numbers as text', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('A');
    sheet.addRow(['Email', 'Nachname']);
    sheet.addRow([{ text: 'd@x.de', hyperlink: 'mailto:d@x.de' }, 42]);
    sheet.addRow([]);
    const parsed = await parseImportFile(
      Buffer.from(await book.xlsx.writeBuffer()),
      'a.bin',
      'application/octet-stream',
    );
    expect(parsed.rows).toEqual([
      { row: 2, email: 'd@x.de', firstname: null, lastname: '42', language: null, personId: null },
    ]);
  });

  it('tells the kind from the bytes: a zip is XLSX, binary is refused (415) whatever its name', () => {
    expect(fileKind(Buffer.from('PK\x03\x04rest'), 'x.csv', 'text/csv')).toBe('xlsx');
    expect(fileKind(Buffer.from('email\n'), 'x.csv', 'application/octet-stream')).toBe('csv');
    const refused = (b: Buffer, name: string, type: string) => {
      try {
        fileKind(b, name, type);
        return null;
      } catch (e) {
        return (e as AppException).status;
      }
    };
    expect(refused(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), 'x.csv', 'text/csv')).toBe(415);
    expect(refused(Buffer.from('%PDF-1.4'), 'x.pdf', 'application/pdf')).toBe(415);
  });

  it('refuses a file without an address column or without rows, naming `file`', async () => {
    const problems = async (text: string) => {
      try {
        await parseImportFile(Buffer.from(text), 'x.csv', 'text/csv');
        return [];
      } catch (e) {
        return (e as AppException).problems.map((p) => p.rule);
      }
    };
    expect(await problems('Name;Firma\nA;B\n')).toEqual(['noEmailColumn']);
    expect(await problems('email\n')).toEqual(['emptyFile']);
    expect(await problems('')).toEqual(['noEmailColumn', 'emptyFile']);
  });

  it('checks a row by itself: an address or a person, a valid address, a UUID, a language', () => {
    const row = {
      row: 2,
      email: null,
      firstname: null,
      lastname: null,
      language: null,
      personId: null,
    };
    expect(rowProblems(row).map((p) => p.rule)).toEqual(['required']);
    expect(rowProblems({ ...row, email: 'x@y.de' })).toEqual([]);
    expect(
      rowProblems({
        ...row,
        email: 'nope',
        personId: 'x',
        language: 'fr',
        firstname: 'a'.repeat(201),
      }).map((p) => `${p.field}/${p.rule}`),
    ).toEqual(['email/email', 'personId/uuid', 'language/language', 'firstname/tooLong']);
  });
});
