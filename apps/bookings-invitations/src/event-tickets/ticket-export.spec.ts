import { exportLocale } from '../common/export-locale';
import { csvStream, defuse, EXPORT_COLUMNS, ExportCells } from './ticket-export';
import { pdfQrCodes } from '@crm/testing';
import { eventWhen } from './ticket-pdf';

async function* rowsOf(n: number): AsyncIterable<ExportCells> {
  for (let i = 0; i < n; i++) {
    const cells = Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, ''])) as ExportCells;
    yield { ...cells, ticketId: `t${i}`, firstname: i === 0 ? '=SUM(A1)' : `P${i}` };
  }
}

const text = async (s: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
};

describe('ticket export', () => {
  it('defuses formula-like cells only', () => {
    expect(['=1+1', '+49 30', '-5', '@x', '\tx', 'Ada', '', "'=x"].map(defuse)).toEqual([
      "'=1+1",
      "'+49 30",
      "'-5",
      "'@x",
      "'\tx",
      'Ada',
      '',
      "'=x",
    ]);
  });

  it('writes a BOM, the header and every row, formulas defused', async () => {
    const out = await text(csvStream(rowsOf(3), exportLocale('en')));
    expect(out.startsWith('\uFEFF')).toBe(true);
    const lines = out.slice(1).trim().split('\n');
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`'=SUM(A1)`);
  });

  it('writes German CSV with `;`, a decimal comma and the given headers; English keeps `,` and `.`', async () => {
    async function* priced(): AsyncIterable<ExportCells> {
      const cells = Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, ''])) as ExportCells;
      yield {
        ...cells,
        ticketId: 't1',
        firstname: '=1+1',
        lastname: 'Müller',
        priceGross: '49.00',
      };
    }
    const headers = EXPORT_COLUMNS.map((c) => `H-${c}`);
    const de = await text(csvStream(priced(), exportLocale('de'), headers));
    expect(de.startsWith('\uFEFF')).toBe(true);
    const [head, row] = de.slice(1).trim().split('\n');
    expect(head).toBe(headers.join(';'));
    const cells = row.split(';');
    expect(cells[EXPORT_COLUMNS.indexOf('priceGross')]).toBe('49,00');
    expect(cells[EXPORT_COLUMNS.indexOf('firstname')]).toBe(`'=1+1`);
    expect(cells[EXPORT_COLUMNS.indexOf('lastname')]).toBe('Müller');
    const en = await text(csvStream(priced(), exportLocale('en')));
    const enCells = en.slice(1).trim().split('\n')[1].split(',');
    expect(enCells[EXPORT_COLUMNS.indexOf('priceGross')]).toBe('49.00');
  });
});

describe('the ticket’s date line', () => {
  const event = {
    title: 'T',
    startsAt: new Date('2030-06-01T08:00:00Z'),
    endsAt: new Date('2030-06-01T17:00:00Z'),
    timeZone: 'Europe/Berlin',
  };
  it('shows the event’s own zone, in the language', () => {
    expect(eventWhen(event, 'en')).toBe('June 1, 2030, 10:00 AM - 7:00 PM');
    expect(eventWhen(event, 'de')).toBe('1. Juni 2030, 10:00 - 19:00');
  });
  it('says when the date is not known yet', () => {
    expect(eventWhen(null, 'de')).toBe('wird bekannt gegeben');
    expect(eventWhen({ ...event, startsAt: null }, 'en')).toBe('to be announced');
  });
});

describe('the ticket PDF', () => {
  it('renders names outside Latin-1 without failing (the standard fonts cannot show them all)', async () => {
    const { renderTicketPdf } = await import('./ticket-pdf');
    const pdf = await renderTicketPdf(
      {
        ticketId: '00000000-0000-4000-8000-000000000000',
        status: 'valid',
        participant: '王小明 Łukasz Ægir 🎟',
        ticketTypeName: 'VIP “Gold”',
        bookingId: '00000000-0000-4000-8000-000000000001',
        code: 'v1.abc.def.ghi',
        event: null,
      },
      'en',
    );
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('prints the signed code as a QR code a scanner reads back, and none on a cancelled ticket', async () => {
    const { renderTicketPdf } = await import('./ticket-pdf');
    // a code as long as a real one: v1.<key id>.<payload>.<signature>, base64url
    const code = `v1.k2026.${'eyJ0IjoiMDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAwIn0'.repeat(2)}.${'A'.repeat(86)}`;
    const facts = {
      ticketId: '00000000-0000-4000-8000-000000000000',
      participant: 'Ada Lovelace',
      ticketTypeName: 'Standard',
      bookingId: '00000000-0000-4000-8000-000000000001',
      code,
      event: null,
    };
    const valid = await renderTicketPdf({ ...facts, status: 'valid' }, 'en');
    const cancelled = await renderTicketPdf({ ...facts, status: 'cancelled' }, 'en');
    expect(await pdfQrCodes(valid)).toEqual([code]);
    expect(await pdfQrCodes(cancelled)).toEqual([null]);
  });
});
